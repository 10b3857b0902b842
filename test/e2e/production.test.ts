/**
 * The production example under the real Pulumi CLI: one `ProductionDatabase` component.
 * Its preview lists the children under the component; `up` (with the policy pack, every rule
 * made mandatory) creates a PROD service with HA and the pooler in a new VPC, a PROD read
 * replica set and a peering; the connection URIs are secret; destroy is refused and deletes
 * nothing while deletionProtection is on, and deletes everything once it is turned off.
 */
import * as fs from "fs";
import * as path from "path";
import { policies } from "../../policy/policies";
import { EmulatorProcess, PreviewStep, Workspace, RunOptions } from "./workspace";

jest.setTimeout(300_000);

const POLICY_PACK = path.resolve(__dirname, "../../policy");
const COMPONENT = "mdb:index:ProductionDatabase";
const CHILDREN: Record<string, string> = {
  "orders-vpc": "pulumi-nodejs:dynamic/mdb:Vpc",
  "orders-db": "pulumi-nodejs:dynamic/mdb:Service",
  "orders-reads-1": "pulumi-nodejs:dynamic/mdb:ReadReplicaSet",
  "orders-peering": "pulumi-nodejs:dynamic/mdb:VpcPeering",
};

/** The part of a service record these tests read. */
interface ServiceRecord {
  service_id: string;
  status: string;
  metadata: { environment?: string };
  ha_replicas: { replica_count?: number; sync_replica_count?: number };
  vpcEndpoint?: { vpc_id?: string };
  connection_pooler?: { endpoint?: { host: string; port: number } };
  endpoint?: { host: string; port: number };
  resources: Array<{ spec: { cpu_millis: number; memory_gbs: number } }>;
}

let emulator: EmulatorProcess;
let ws: Workspace;
let policyArgs: string[];
let policyOptions: RunOptions;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  ws = Workspace.create("production", emulator.url);
  await ws.stack("prod");
  // Every policy of the pack at the mandatory level, advisory ones included.
  const config = Object.fromEntries(policies.map((p) => [p.name, { enforcementLevel: "mandatory" }]));
  const file = path.join(ws.dir, "all-mandatory.json");
  fs.writeFileSync(file, JSON.stringify(config));
  policyArgs = ["--policy-pack", POLICY_PACK, "--policy-pack-config", file];
  policyOptions = { policyPacks: [POLICY_PACK], policyPackConfigs: [file] };
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

/** The one service of the project. */
async function theService(): Promise<ServiceRecord> {
  const services = await emulator.api<ServiceRecord[]>("GET", "/services");
  expect(services).toHaveLength(1);
  return services[0];
}

it("preview lists the component and its children under it, all to be created", async () => {
  const steps = await ws.preview();
  const ours = [...steps].filter(([, s]) => !s.urn.includes("pulumi:pulumi:Stack"));
  const byName = Object.fromEntries(ours) as Record<string, PreviewStep>;
  expect(Object.keys(byName).sort()).toEqual(["orders", ...Object.keys(CHILDREN)].sort());
  expect(byName.orders.urn).toMatch(new RegExp(`::${COMPONENT}::orders$`));
  for (const [name, type] of Object.entries(CHILDREN)) {
    // A child's URN names its parent's type before its own.
    expect(byName[name].urn).toContain(`::${COMPONENT}$${type}::${name}`);
  }
  expect(ours.map(([, s]) => s.op)).toEqual(ours.map(() => "create"));
  expect(await emulator.calls()).toEqual([]);
});

it("up, with the policy pack and every rule mandatory, passes and creates each child through the API", async () => {
  const result = await ws.up(policyOptions);
  expect(result.stdout).toContain(`(local: ${POLICY_PACK})`);
  expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/\[(mandatory|advisory)\]/);
  expect(await emulator.inventory()).toEqual({
    services: [expect.any(String)],
    replicaSets: [expect.any(String)],
    vpcs: [expect.any(String)],
    peerings: [expect.any(String)],
  });
});

it("the service is PROD with a synchronous HA standby and the pooler, in the new VPC", async () => {
  const service = await theService();
  const [vpc] = await emulator.api<Array<{ id: string; cidr: string }>>("GET", "/vpcs");
  expect(vpc.cidr).toBe("10.60.0.0/16");
  expect(service.status).toBe("READY");
  expect(service.metadata.environment).toBe("PROD");
  expect(service.ha_replicas).toMatchObject({ replica_count: 1, sync_replica_count: 1 });
  expect(service.connection_pooler?.endpoint).toBeDefined();
  expect(service.vpcEndpoint?.vpc_id).toBe(vpc.id);
  expect(service.resources[0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });

  const sets = await emulator.api<Array<Record<string, unknown>>>(
    "GET",
    `/services/${service.service_id}/replicaSets`,
  );
  expect(sets).toEqual([
    expect.objectContaining({ status: "active", nodes: 2, cpu_millis: 2000, memory_gbs: 8 }),
  ]);
  expect(sets[0].metadata).toMatchObject({ environment: "PROD" });
  const [peering] = await emulator.api<Array<Record<string, unknown>>>("GET", `/vpcs/${vpc.id}/peerings`);
  expect(peering).toMatchObject({ peer_account_id: "123456789012", peer_region_code: "us-east-1" });
});

it("deletion protection is on: the service and VPC inputs, and Pulumi's protect on every resource", async () => {
  const state = JSON.parse(await ws.exportState()) as {
    deployment: { resources: Array<{ urn: string; inputs?: Record<string, unknown>; protect?: boolean }> };
  };
  const byName = Object.fromEntries(state.deployment.resources.map((r) => [r.urn.split("::").pop(), r]));
  expect(byName["orders-db"].inputs?.deletionProtection).toBe(true);
  expect(byName["orders-vpc"].inputs?.deletionProtection).toBe(true);
  for (const name of ["orders-vpc", "orders-db", "orders-reads-1", "orders-peering"])
    expect({ name, protect: byName[name].protect }).toEqual({ name, protect: true });
});

it("the connection URIs are secret outputs; the plain ones name the endpoints", async () => {
  const service = await theService();
  const hidden = await ws.outputs();
  for (const key of ["connectionUri", "poolerConnectionUri", "readReplicaConnectionUris"]) {
    expect(hidden[key]).toBe("[secret]");
  }
  const shown = await ws.outputs(true);
  const uri = new URL(shown.connectionUri as string);
  expect(uri.protocol).toBe("postgres:");
  expect(`${uri.hostname}:${uri.port}`).toBe(`${service.endpoint?.host}:${service.endpoint?.port}`);
  const pooler = new URL(shown.poolerConnectionUri as string);
  const poolerEndpoint = service.connection_pooler?.endpoint;
  expect(`${pooler.hostname}:${pooler.port}`).toBe(`${poolerEndpoint?.host}:${poolerEndpoint?.port}`);
  // The replica set's URI: its own endpoint, the service's credentials.
  const [set] = await emulator.api<Array<{ endpoint: { host: string; port: number } }>>(
    "GET",
    `/services/${service.service_id}/replicaSets`,
  );
  const [reader] = (shown.readReplicaConnectionUris as string[]).map((u) => new URL(u));
  expect(`${reader.hostname}:${reader.port}`).toBe(`${set.endpoint.host}:${set.endpoint.port}`);
  expect([reader.username, reader.password]).toEqual([uri.username, uri.password]);
  // The password is in no output shown without --show-secrets, and nowhere in the exported state.
  const password = decodeURIComponent(uri.password);
  expect(password.length).toBeGreaterThanOrEqual(8);
  expect(JSON.stringify(hidden)).not.toContain(password);
  expect(await ws.exportState()).not.toContain(password);
});

it("a function's Output form in the program read the replica set once it existed", async () => {
  expect((await ws.outputs()).readReplicaSets).toEqual([
    { name: expect.stringMatching(/^orders-reads-1/), status: "active", nodes: 2 },
  ]);
});

it("a second preview shows no change, and the pack, every rule mandatory, still passes on known values", async () => {
  // The stack, the component and its four children.
  expect(await ws.changeSummary()).toEqual({ same: 6 });
  const result = await ws.pulumi(["preview", ...policyArgs], { allowFailure: true });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(`(local: ${POLICY_PACK})`);
  expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/\[(mandatory|advisory)\]/);
});

it("destroy is refused while deletionProtection is on, and deletes nothing", async () => {
  const before = await emulator.inventory();
  await emulator.clearCalls();
  const destroy = await ws.pulumi(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
  expect(destroy.code).not.toBe(0);
  const output = `${destroy.stdout}\n${destroy.stderr}`;
  // The engine reaches the leaves first: every resource protected, the first it reaches refuses.
  expect(output).toMatch(/orders-reads-1" cannot be deleted\s+because it is protected/);
  expect(output).toMatch(/orders-peering" cannot be deleted\s+because it is protected/);
  expect(await emulator.calls()).toEqual([]);
  expect(await emulator.inventory()).toEqual(before);
});

it("with deletionProtection false, up makes no API call, and destroy then deletes everything", async () => {
  await ws.config("deletionProtection", "false");
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual([]);
  await ws.destroy();
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
});
