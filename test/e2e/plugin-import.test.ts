/**
 * `pulumi import` (the CLI command) of each of the native plugin's four types, under the real
 * Pulumi CLI, of records made out of band through the API: a VPC, a service attached to it with
 * the pooler, a read replica set on the service, a peering of the VPC. Each import sends no
 * mutating request; the state then holds the resource with the inputs that reproduce it; the code
 * Pulumi generates for it, added to the program, makes a program whose `pulumi preview` shows no
 * change. A bad id fails naming the id and the forms it takes, before any API call.
 *
 * The program is Pulumi YAML, with the four types; then a TypeScript program on the generated SDK
 * (`@pulumi/mdb`), whose language host writes the code in TypeScript: the code of an imported
 * service, as the whole program, type-checks and previews no change.
 */
import * as fs from "fs";
import * as path from "path";
import { E2E_KEYS, EmulatorProcess, Workspace } from "./workspace";

jest.setTimeout(300_000);

let emulator: EmulatorProcess;
let ws: Workspace;
/** The ids of the records made out of band. */
const made = { vpc: "", service: "", replicaSet: "", peering: "" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `GET path` until `done` holds for the answer. */
async function waitFor<T>(projectPath: string, done: (record: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const record = await emulator.api<T>("GET", projectPath);
    if (done(record)) return record;
    await sleep(50);
  }
  throw new Error(`${projectPath} did not settle`);
}

/** The part of a service record these tests read. */
interface ServiceRecord {
  status: string;
  connection_pooler?: unknown;
  vpcEndpoint?: { vpc_id?: string };
  read_replica_sets?: Array<{ id: string; status: string }>;
}

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  made.vpc = (
    await emulator.api<{ id: string }>("POST", "/vpcs", {
      name: "legacy-net",
      cidr: "10.80.0.0/16",
      region_code: "us-east-1",
    })
  ).id;
  made.service = (
    await emulator.api<{ service_id: string }>("POST", "/services", {
      name: "legacy-db",
      region_code: "us-east-1",
      cpu_millis: 1000,
      memory_gbs: 4,
      replica_count: 1,
    })
  ).service_id;
  const svc = `/services/${made.service}`;
  await waitFor<ServiceRecord>(svc, (s) => s.status === "READY");
  await emulator.api("POST", `${svc}/attachToVPC`, { vpc_id: made.vpc });
  await waitFor<ServiceRecord>(svc, (s) => s.status === "READY" && s.vpcEndpoint?.vpc_id === made.vpc);
  await emulator.api("POST", `${svc}/enablePooler`);
  await waitFor<ServiceRecord>(svc, (s) => s.status === "READY");
  made.replicaSet = (
    await emulator.api<{ id: string }>("POST", `${svc}/replicaSets`, {
      name: "legacy-reads",
      nodes: 2,
      cpu_millis: 500,
      memory_gbs: 2,
    })
  ).id;
  await waitFor<ServiceRecord>(svc, (s) =>
    (s.read_replica_sets ?? []).some((r) => r.id === made.replicaSet && r.status === "active"),
  );
  made.peering = (
    await emulator.api<{ id: string }>("POST", `/vpcs/${made.vpc}/peerings`, {
      peer_account_id: "123456789012",
      peer_region_code: "us-east-1",
      peer_vpc_id: "vpc-0a1b2c3d",
    })
  ).id;
  await waitFor<{ status: string }>(
    `/vpcs/${made.vpc}/peerings/${made.peering}`,
    (p) => p.status === "active",
  );
  ws = Workspace.create(path.join(__dirname, "programs/native-import"), emulator.url, "native");
  await ws.stack("dev");
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

/** Where `pulumi import` of resource `name` writes the code it generates. */
const generated = (name: string) => path.join(ws.dir, `imported-${name}.yaml`);

/** `pulumi import mdb:index:<type> <name> <id> --yes`, writing the code it generates to {@link generated}. */
function pulumiImport(type: string, name: string, id: string, allowFailure = false) {
  return ws.pulumi(["import", `mdb:index:${type}`, name, id, "--yes", "--out", generated(name)], {
    allowFailure,
  });
}

/** A resource of the state: its type, id, inputs and protect flag. */
interface StateResource {
  type: string;
  id: string;
  protect?: boolean;
  inputs: Record<string, unknown>;
}

/** The resources of the state named `name` (none, or one). */
async function inState(name: string): Promise<StateResource[]> {
  const { deployment } = JSON.parse(await ws.exportState()) as {
    deployment: { resources?: Array<StateResource & { urn: string }> };
  };
  return (deployment.resources ?? []).filter((r) => r.urn.endsWith(`::${name}`));
}

describe("a bad id fails naming the id and the forms it takes, before any API call", () => {
  beforeEach(() => emulator.clearCalls());
  afterEach(async () => expect(await emulator.calls()).toEqual([]));

  afterEach(() => fs.rmSync(generated("bad"), { force: true }));

  it.each([
    [
      "ReadReplicaSet",
      () => made.replicaSet,
      "read replica set",
      '"<serviceId>/<replicaSetId>" or "<projectId>/<serviceId>/<replicaSetId>"',
    ],
    [
      "VpcPeering",
      () => `a/b/${made.vpc}/${made.peering}`,
      "VPC peering",
      '"<vpcId>/<peeringId>" or "<projectId>/<vpcId>/<peeringId>"',
    ],
    ["Service", () => `${made.service}/extra/part`, "service", '"<serviceId>" or "<projectId>/<serviceId>"'],
    ["Vpc", () => `/${made.vpc}`, "VPC", '"<vpcId>" or "<projectId>/<vpcId>"'],
  ])("%s", async (type, id, label, forms) => {
    const run = await pulumiImport(type, "bad", id(), true);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain(`error: Preview failed: "${id()}" is not a ${label} id: use ${forms}`);
    expect(await inState("bad")).toEqual([]);
  });

  it("an id of no record fails saying so", async () => {
    const run = await pulumiImport("Vpc", "bad", "vpc-nothere", true);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(/vpc-nothere.*does not exist|does not exist.*vpc-nothere/);
  });
});

describe.each([
  {
    type: "Vpc",
    name: "net",
    id: () => made.vpc,
    inputs: () => ({ name: "legacy-net", cidr: "10.80.0.0/16", regionCode: "us-east-1" }),
  },
  {
    type: "Service",
    name: "db",
    id: () => made.service,
    inputs: () => ({
      name: "legacy-db",
      serviceType: "POSTGRES",
      regionCode: "us-east-1",
      cpuMillis: 1000,
      memoryGbs: 4,
      replicaCount: 1,
      connectionPooler: true,
      vpcId: made.vpc,
    }),
  },
  {
    type: "ReadReplicaSet",
    name: "reads",
    // The long form, with the project: the state keeps the short one.
    id: () => `${E2E_KEYS.projectId}/${made.service}/${made.replicaSet}`,
    stateId: () => `${made.service}/${made.replicaSet}`,
    inputs: () => ({ serviceId: made.service, name: "legacy-reads", nodes: 2, cpuMillis: 500, memoryGbs: 2 }),
  },
  {
    type: "VpcPeering",
    name: "peer",
    id: () => `${made.vpc}/${made.peering}`,
    inputs: () => ({
      vpcId: made.vpc,
      peerAccountId: "123456789012",
      peerRegionCode: "us-east-1",
      peerVpcId: "vpc-0a1b2c3d",
    }),
  },
])("pulumi import mdb:index:$type", ({ type, name, id, stateId, inputs }) => {
  it("sends no mutating request; the state holds it, protected, with the inputs that reproduce it", async () => {
    await emulator.clearCalls();
    const run = await pulumiImport(type, name, id());
    expect(run.stdout).toMatch(/= 1 imported/);
    expect(await emulator.calls()).toEqual([]);
    // The API gives no service's password after its create, and never a replica set's (its
    // service's): the import of each says what that leaves null; the other types say nothing of it.
    const unknownPassword: Record<string, RegExp> = {
      Service:
        /service legacy-db: its initial password is unknown to this stack .* so its connection outputs are null/,
      ReadReplicaSet:
        /read replica set legacy-reads: its password \(its service's\) is unknown to this stack .* so its connectionUri is null; give the set its service's password as `password`/,
    };
    for (const [saying, line] of Object.entries(unknownPassword))
      if (saying === type) expect(run.stdout).toMatch(line);
      else expect(run.stdout).not.toMatch(line);
    const resources = await inState(name);
    expect(resources).toHaveLength(1);
    expect(resources[0]).toMatchObject({
      type: `mdb:index:${type}`,
      id: (stateId ?? id)(),
      protect: true,
      inputs: inputs(),
    });
    const code = fs.readFileSync(generated(name), "utf8");
    expect(code).toMatch(new RegExp(`^resources:\\n  ${name}:\\n    type: mdb:(index:)?${type}\\n`));
    // Added to the program: the resources the code declares, under its one `resources:` key.
    const project = path.join(ws.dir, "Pulumi.yaml");
    const yaml = fs.readFileSync(project, "utf8");
    const body = code.replace(/^resources:\n/, "");
    fs.writeFileSync(project, /^resources:$/m.test(yaml) ? yaml + body : `${yaml}resources:\n${body}`);
  });
});

it("the program of the generated code previews with no change, and no call", async () => {
  await emulator.clearCalls();
  const preview = await ws.pulumi(["preview", "--expect-no-changes", "--diff"]);
  expect(preview.stdout).toMatch(/Resources:\n\s+5 unchanged\n/);
  expect(await emulator.calls()).toEqual([]);
});

it("the service imported a second time, then dropped from the stack's program: up deletes nothing", async () => {
  // A mistaken second import of a record the program already manages as `db`.
  expect((await pulumiImport("Service", "db-again", made.service)).stdout).toMatch(/= 1 imported/);
  const { deployment } = JSON.parse(await ws.exportState()) as {
    deployment: { resources: Array<{ urn: string }> };
  };
  const urn = deployment.resources.find((r) => r.urn.endsWith("::db-again"))?.urn;
  await ws.pulumi(["state", "unprotect", String(urn), "--yes"]);
  await emulator.clearCalls();
  // The program declares `db` only: Pulumi deletes `db-again`, the same record.
  const up = await ws.pulumi(["up", "--yes"]);
  expect(up.stdout).toContain(
    `service "legacy-db" (${made.service}) was not deleted (no API call was made): resource db of this run ` +
      "manages it (it is in the program); it stays in the stack under that resource",
  );
  expect(up.stdout).toMatch(/- 1 deleted/);
  expect(await emulator.calls()).toEqual([]);
  expect(await inState("db-again")).toEqual([]);
  expect(await inState("db")).toHaveLength(1);
  expect((await emulator.api<ServiceRecord>("GET", `/services/${made.service}`)).status).toBe("READY");
});

describe("in a TypeScript program", () => {
  let program: Workspace;

  beforeAll(async () => {
    program = Workspace.create(path.join(__dirname, "programs/native"), emulator.url, "native");
    await program.stack("dev");
  });

  afterAll(() => program?.remove());

  it("the TypeScript Pulumi writes for an imported service is, as the program, one that previews no change", async () => {
    const out = path.join(program.dir, "imported.ts");
    await emulator.clearCalls();
    const run = await program.pulumi([
      "import",
      "mdb:index:Service",
      "db",
      made.service,
      "--yes",
      "--out",
      out,
    ]);
    expect(run.stdout).toMatch(/= 1 imported/);
    const code = fs.readFileSync(out, "utf8");
    expect(code).toContain('import * as mdb from "@pulumi/mdb";');
    expect(code).toMatch(/new mdb\.Service\("db", \{\n(.*\n)*\s+cpuMillis: 1000,\n/);
    // The program becomes the generated code alone (type-checked as the CLI runs it).
    fs.writeFileSync(path.join(program.dir, "index.ts"), code);
    const preview = await program.pulumi(["preview", "--expect-no-changes", "--diff"]);
    expect(preview.stdout).toMatch(/Resources:\n\s+2 unchanged\n/);
    expect(await emulator.calls()).toEqual([]);
  });
});
