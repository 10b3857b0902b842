// The built pack, started the way the Pulumi CLI starts it (`run-policy-pack` in the pack's
// directory, program "."), driven over its gRPC Analyzer interface with the requests the engine
// sends: GetAnalyzerInfo, Configure, Analyze (resource inputs) and AnalyzeStack (the whole stack).

import { ChildProcess, execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { POLICY_DIR, requireFromPack, T, UNKNOWN_NUMBER, UNKNOWN_STRING, urnOf } from "./helpers";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated protobuf classes carry no typings here */
const grpc = requireFromPack<any>("@grpc/grpc-js");
const rpc = requireFromPack<any>("@pulumi/pulumi/proto/analyzer_grpc_pb");
const pb = requireFromPack<any>("@pulumi/pulumi/proto/analyzer_pb");
const { Struct } = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb.js", {
    paths: [path.dirname(require.resolve("@pulumi/pulumi/proto/analyzer_pb", { paths: [POLICY_DIR] }))],
  }),
);
const Empty = rpc.AnalyzerService.getAnalyzerInfo.requestType;

const LEVEL = { advisory: 0, mandatory: 1, disabled: 2, remediate: 3 } as const;
const levelName = (level: number) => Object.keys(LEVEL).find((k) => LEVEL[k as keyof typeof LEVEL] === level);

let workDir: string;
let pack: ChildProcess;
let client: any;
let stderr = "";

/** Calls a unary RPC of the pack. */
function call<T>(method: string, request: unknown): Promise<T> {
  return new Promise((resolve, reject) =>
    client[method](request, (err: Error | null, response: T) => (err ? reject(err) : resolve(response))),
  );
}

/** A diagnostic as the CLI would print it. */
interface Diagnostic {
  policy: string;
  level: string | undefined;
  message: string;
  urn: string;
}

function diagnostics(response: any): Diagnostic[] {
  return response.getDiagnosticsList().map((d: any) => ({
    policy: d.getPolicyname(),
    level: levelName(d.getEnforcementlevel()),
    message: d.getMessage(),
    urn: d.getUrn(),
  }));
}

function options(protect = false): any {
  const opts = new pb.AnalyzerResourceOptions();
  opts.setProtect(protect);
  return opts;
}

function analyzeRequest(type: string, name: string, props: object, protect = false): any {
  const request = new pb.AnalyzeRequest();
  request.setType(type);
  request.setName(name);
  request.setUrn(urnOf(type, name));
  request.setProperties(Struct.fromJavaScript(props));
  request.setOptions(options(protect));
  return request;
}

interface StackEntry {
  type: string;
  name: string;
  props: object;
  protect?: boolean;
  propertyDependencies?: Record<string, string[]>;
}

function analyzeStackRequest(entries: StackEntry[]): any {
  const request = new pb.AnalyzeStackRequest();
  request.setResourcesList(
    entries.map((entry) => {
      const resource = new pb.AnalyzerResource();
      resource.setType(entry.type);
      resource.setName(entry.name);
      resource.setUrn(urnOf(entry.type, entry.name));
      resource.setProperties(Struct.fromJavaScript(entry.props));
      resource.setOptions(options(entry.protect));
      const deps = Object.values(entry.propertyDependencies ?? {}).flat();
      resource.setDependenciesList([...new Set(deps)]);
      for (const [key, urns] of Object.entries(entry.propertyDependencies ?? {})) {
        const propertyDeps = new pb.AnalyzerPropertyDependencies();
        propertyDeps.setUrnsList(urns);
        resource.getPropertydependenciesMap().set(key, propertyDeps);
      }
      return resource;
    }),
  );
  return request;
}

/** Sends the policy config as the CLI does after reconciling it: level and properties per policy. */
async function configure(config: Record<string, { level: keyof typeof LEVEL; properties?: object }>) {
  const request = new pb.ConfigureAnalyzerRequest();
  for (const [policy, { level, properties }] of Object.entries(config)) {
    const policyConfig = new pb.PolicyConfig();
    policyConfig.setEnforcementlevel(LEVEL[level]);
    policyConfig.setProperties(Struct.fromJavaScript(properties ?? {}));
    request.getPolicyconfigMap().set(policy, policyConfig);
  }
  await call("configure", request);
}

const prodService = {
  __provider: "exports.handler = __f0;",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 2000,
  memoryGbs: 8,
  replicaCount: 0,
  environment: "PROD",
  connectionPooler: false,
  paused: false,
};

beforeAll(async () => {
  // Build the pack into a scratch copy of its directory (the same `tsc` its `prepare` script runs),
  // sharing its node_modules, so the test neither needs a prior build nor writes into the tree.
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-policy-"));
  for (const file of ["package.json", "PulumiPolicy.yaml", "tsconfig.json"]) {
    fs.copyFileSync(path.join(POLICY_DIR, file), path.join(workDir, file));
  }
  fs.symlinkSync(path.join(POLICY_DIR, "node_modules"), path.join(workDir, "node_modules"), "dir");
  const tsc = require.resolve("typescript/bin/tsc", { paths: [POLICY_DIR] });
  execFileSync(process.execPath, [tsc, "-p", path.join(POLICY_DIR, "tsconfig.json"), "--outDir", "bin"], {
    cwd: workDir,
  });
  const main = JSON.parse(fs.readFileSync(path.join(workDir, "package.json"), "utf8")).main;
  expect(fs.existsSync(path.join(workDir, main))).toBe(true);

  const runPolicyPack = require.resolve("@pulumi/pulumi/cmd/run-policy-pack", { paths: [workDir] });
  pack = spawn(process.execPath, [runPolicyPack, "127.0.0.1:1", "."], { cwd: workDir });
  pack.stderr!.on("data", (chunk) => (stderr += chunk));
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    pack.stdout!.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.trim());
    });
    pack.on("exit", (code) => reject(new Error(`pack exited with ${code}: ${stderr}`)));
  });
  client = new rpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}, 60000);

afterAll(() => {
  client?.close();
  pack?.kill();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await configure({}); // the pack keeps the last config it was sent
});

afterEach(() => {
  // Runtime deprecation notices of newer Node versions are not the pack's concern; errors are.
  expect(stderr).not.toMatch(/error|exception/i);
});

it("describes itself: name, version, every policy with its default level and config schema", async () => {
  const info = await call<any>("getAnalyzerInfo", new Empty());
  expect(info.getName()).toBe("pulumi-managed-db");
  expect(info.getVersion()).toBe("0.1.0");
  expect(info.getSupportsconfig()).toBe(true);
  const policies = Object.fromEntries(
    info.getPoliciesList().map((p: any) => [p.getName(), levelName(p.getEnforcementlevel())]),
  );
  expect(policies).toEqual({
    "mdb-prod-service-ha": "mandatory",
    "mdb-prod-service-vpc": "mandatory",
    "mdb-prod-service-protected": "mandatory",
    "mdb-prod-replica-set-environment": "mandatory",
    "mdb-replica-set-not-larger-than-service": "advisory",
    "mdb-allowed-regions": "mandatory",
    "mdb-service-size-limits": "advisory",
    "mdb-replica-set-size-limits": "advisory",
    "mdb-vpc-cidr": "mandatory",
    "mdb-vpc-cidr-no-overlap": "mandatory",
  });
  const cidr = info.getPoliciesList().find((p: any) => p.getName() === "mdb-vpc-cidr");
  expect(cidr.getConfigschema().getProperties().toJavaScript()).toMatchObject({
    minPrefixLength: { type: "integer", default: 16 },
    maxPrefixLength: { type: "integer", default: 28 },
  });
});

it("reports the PROD guardrails of a resource as mandatory, with the pack's messages", async () => {
  const response = await call("analyze", analyzeRequest(T.Service, "orders-db", prodService));
  expect(diagnostics(response)).toEqual([
    {
      policy: "mdb-prod-service-ha",
      level: "mandatory",
      message: expect.stringContaining(
        'Service "orders-db" is PROD but replicaCount is 0; set replicaCount to 1 or 2',
      ),
      urn: "",
    },
    {
      policy: "mdb-prod-service-vpc",
      level: "mandatory",
      message: expect.stringContaining('Service "orders-db" is PROD but vpcId is not set'),
      urn: "",
    },
    {
      policy: "mdb-prod-service-protected",
      level: "mandatory",
      message: expect.stringContaining('Service "orders-db" is PROD but protect is false'),
      urn: "",
    },
  ]);
});

it("stays silent on values unknown during preview (no violation, no 'can't run' note)", async () => {
  const props = {
    ...prodService,
    replicaCount: UNKNOWN_NUMBER,
    vpcId: UNKNOWN_STRING,
    cpuMillis: UNKNOWN_NUMBER,
  };
  expect(diagnostics(await call("analyze", analyzeRequest(T.Service, "orders-db", props, true)))).toEqual([]);
  const vpc = { name: "main", cidr: UNKNOWN_STRING, regionCode: UNKNOWN_STRING };
  expect(diagnostics(await call("analyze", analyzeRequest(T.Vpc, "main", vpc)))).toEqual([]);
});

it("takes enforcement levels and limits from the policy config", async () => {
  await configure({
    "mdb-prod-service-ha": { level: "advisory" },
    "mdb-prod-service-vpc": { level: "disabled" },
    "mdb-prod-service-protected": { level: "mandatory" },
    "mdb-service-size-limits": { level: "mandatory", properties: { maxCpuMillis: 1000 } },
    "mdb-allowed-regions": { level: "advisory", properties: { allowedRegions: ["eu-west-1"] } },
  });
  const response = await call("analyze", analyzeRequest(T.Service, "orders-db", prodService));
  expect(diagnostics(response).map((d) => [d.policy, d.level])).toEqual([
    ["mdb-prod-service-ha", "advisory"],
    ["mdb-prod-service-protected", "mandatory"],
    ["mdb-allowed-regions", "advisory"],
    ["mdb-service-size-limits", "mandatory"],
  ]);
  expect(diagnostics(response)[3].message).toContain("has cpuMillis 2000m, above the limit of 1000m");
});

it("checks the whole stack of a first preview: replica sets through propertyDependencies, VPC overlap", async () => {
  const service = urnOf(T.Service, "orders-db");
  const response = await call(
    "analyzeStack",
    analyzeStackRequest([
      { type: T.Vpc, name: "main", props: { name: "main", cidr: "10.0.0.0/16", regionCode: "us-east-1" } },
      { type: T.Vpc, name: "extra", props: { name: "extra", cidr: "10.0.4.0/24", regionCode: "us-east-1" } },
      {
        type: T.Service,
        name: "orders-db",
        props: { ...prodService, replicaCount: 1, vpcId: UNKNOWN_STRING },
        protect: true,
        propertyDependencies: { vpcId: [urnOf(T.Vpc, "main")] },
      },
      {
        type: T.ReadReplicaSet,
        name: "orders-ro",
        props: { serviceId: UNKNOWN_STRING, name: "ro", nodes: 1, cpuMillis: 4000, memoryGbs: 8 },
        propertyDependencies: { serviceId: [service] },
      },
    ]),
  );
  expect(diagnostics(response)).toEqual([
    {
      policy: "mdb-replica-set-not-larger-than-service",
      level: "advisory",
      message: expect.stringContaining(
        'has cpuMillis 4000m per node, more than its Service "orders-db" (2000m)',
      ),
      urn: urnOf(T.ReadReplicaSet, "orders-ro"),
    },
    {
      policy: "mdb-prod-replica-set-environment",
      level: "mandatory",
      message: expect.stringContaining("environment is not set (defaults to DEV)"),
      urn: urnOf(T.ReadReplicaSet, "orders-ro"),
    },
    {
      policy: "mdb-vpc-cidr-no-overlap",
      level: "mandatory",
      message: expect.stringContaining(
        'Vpc "extra" has cidr "10.0.4.0/24", which overlaps cidr "10.0.0.0/16"',
      ),
      urn: urnOf(T.Vpc, "extra"),
    },
  ]);
});
