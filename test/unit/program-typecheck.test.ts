/**
 * What a user's own compiler (`tsc`, an editor) pays for the package's types and says about a
 * mistake, compiling a program against the built declarations (`dist/**.d.ts`, as installed)
 * through both entries: a missing, misspelt or wrong argument is told in the words of the
 * exported types (`ServiceArgs`, with "did you mean"), never in those of the field table they
 * are inferred from; and the four classes cost a bounded number of type instantiations
 * (deterministic, unlike time), and so do the functions. For scale, the bench's program of 200
 * resources took 98,898 before the args were read through the rows' `_zod.input` (a `tsc` check
 * time of about 1 s), 4,915 after, and 200 trivial dynamic resources take 583; five calls of
 * functions took 88,461 (2.5 s) before the results' rows were read without a constraint, 8,044
 * (0.3 s) after.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";

const root = path.resolve(__dirname, "../..");

/** The four classes as a program declares them, with a service's outputs read. */
const PROGRAM = `
const vpc = new mdb.Vpc("net", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
const db = new mdb.Service("db", {
  serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4, vpcId: vpc.id,
});
new mdb.ReadReplicaSet("reads", { serviceId: db.id, nodes: 1, cpuMillis: 1000, memoryGbs: 4 });
new mdb.VpcPeering("peer", {
  vpcId: vpc.id, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-1",
});
export const endpoint = db.endpoint;
export const uri = db.connectionUri;
`;

/** Compiles `body` importing `mdb` from `entry`; its diagnostics' text and the instantiation count. */
function compile(entry: string, body: string): { errors: string[]; instantiations: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-typecheck-"));
  try {
    const file = path.join(dir, "index.ts");
    fs.writeFileSync(file, `import * as mdb from "${entry}";\n${body}`);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2020,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      baseUrl: root,
      // The package as installed: its declarations, where its package.json points.
      paths: {
        "pulumi-managed-db": ["dist/provider/index.d.ts"],
        "pulumi-managed-db/native": ["dist/provider/native.d.ts"],
      },
      typeRoots: [path.join(root, "node_modules/@types")],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    return { errors, instantiations: program.getInstantiationCount() };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(["pulumi-managed-db", "pulumi-managed-db/native"])("a program on %s", (entry) => {
  it("compiles the four classes with a bounded number of type instantiations", () => {
    const { errors, instantiations } = compile(entry, PROGRAM);
    expect(errors).toEqual([]);
    expect(instantiations).toBeLessThan(15_000);
  });

  it("calls the functions with a bounded number of type instantiations", () => {
    const { errors, instantiations } = compile(
      entry,
      `export const s = mdb.getService({ serviceId: "x" });\n` +
        `export const all = mdb.listServices({});\n` +
        `export const v = mdb.getVpcOutput({ vpcId: "x" });\n` +
        `export const r = mdb.listReadReplicaSets({ serviceId: "x" });\n` +
        `export const p = mdb.getVpcPeering({ vpcId: "x", peeringId: "y" });\n`,
    );
    expect(errors).toEqual([]);
    expect(instantiations).toBeLessThan(20_000);
  });

  it("is told a missing, misspelt or wrong argument in the words of the exported types", () => {
    const { errors } = compile(
      entry,
      `new mdb.Service("db", { regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4 });\n` +
        `new mdb.Service("db2", { serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGb: 4 });\n` +
        `new mdb.Vpc("net", { cidr: 10, regionCode: "us-east-1" });\n` +
        `new mdb.ProductionDatabase("prod", { regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4, cidrr: "10.0.0.0/16" });\n` +
        `mdb.getServiceOutput({ serviceID: "x" });\n`,
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /not assignable to parameter of type 'ServiceArgs'\.\n.*Property 'serviceType' is missing .* but required in type 'ServiceArgs'/,
      ),
      "Object literal may only specify known properties, but 'memoryGb' does not exist in type 'ServiceArgs'. Did you mean to write 'memoryGbs'?",
      expect.stringMatching(/'number' is not assignable to type 'Input<string>'/),
      "Object literal may only specify known properties, but 'cidrr' does not exist in type 'ProductionDatabaseArgs'. Did you mean to write 'cidr'?",
      "Object literal may only specify known properties, but 'serviceID' does not exist in type 'GetServiceOutputArgs'. Did you mean to write 'serviceId'?",
    ]);
    for (const error of errors) expect(error).not.toMatch(/OutputRow|Zod|ArgsOf/);
  });
});
