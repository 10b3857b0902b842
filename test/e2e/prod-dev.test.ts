/**
 * The prod-dev example under the real Pulumi CLI: one program, two stacks of one backend
 * configured by the committed Pulumi.prod.yaml and Pulumi.dev.yaml. Production gets HA, a
 * VPC, the pooler and protection; destroying it is refused until protection is lifted.
 */
import { EmulatorProcess, Workspace } from "./workspace";

jest.setTimeout(240_000);

/** The part of a service record these tests read. */
interface ServiceRecord {
  service_id: string;
  name: string;
  status: string;
  metadata: { environment?: string };
  ha_replicas: { replica_count?: number };
  vpcEndpoint?: { vpc_id?: string };
  connection_pooler?: unknown;
  resources: Array<{ spec: { cpu_millis: number; memory_gbs: number } }>;
}

let emulator: EmulatorProcess;
let ws: Workspace;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  ws = Workspace.create("prod-dev", emulator.url);
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

/** The services of the project, by name. */
async function servicesByName(): Promise<Record<string, ServiceRecord>> {
  const services = await emulator.api<ServiceRecord[]>("GET", "/services");
  return Object.fromEntries(services.map((s) => [s.name, s]));
}

it("both stacks come up from their committed config, in one folder and one backend", async () => {
  await ws.stack("prod");
  await ws.up();
  await ws.stack("dev");
  await ws.up();
  const { stdout } = await ws.pulumi(["stack", "ls", "--json"]);
  const stacks = (JSON.parse(stdout) as Array<{ name: string; resourceCount?: number }>).map((s) => s.name);
  expect(stacks.sort()).toEqual(["dev", "prod"]);
  const inventory = await emulator.inventory();
  expect(inventory.services).toHaveLength(2);
  expect(inventory.vpcs).toHaveLength(1);
});

it("the API shows a PROD service with HA, VPC and pooler, and a small DEV service without VPC", async () => {
  const services = await servicesByName();
  expect(Object.keys(services).sort()).toEqual(["app-db-dev", "app-db-prod"]);
  const [vpc] = await emulator.api<Array<{ id: string; name: string; cidr: string }>>("GET", "/vpcs");
  expect(vpc).toMatchObject({ name: "app-prod", cidr: "10.60.0.0/16" });

  const prod = services["app-db-prod"];
  expect(prod.status).toBe("READY");
  expect(prod.metadata.environment).toBe("PROD");
  expect(prod.ha_replicas.replica_count).toBe(1);
  expect(prod.vpcEndpoint?.vpc_id).toBe(vpc.id);
  expect(prod.connection_pooler).toBeTruthy();
  expect(prod.resources[0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });

  const dev = services["app-db-dev"];
  expect(dev.status).toBe("READY");
  expect(dev.metadata.environment).toBe("DEV");
  expect(dev.ha_replicas.replica_count ?? 0).toBe(0);
  expect(dev.vpcEndpoint).toBeUndefined();
  expect(dev.connection_pooler).toBeFalsy();
  expect(dev.resources[0].spec).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });

  expect(await ws.outputs()).toMatchObject({ environmentTag: "DEV" });
  await ws.stack("prod");
  expect(await ws.outputs()).toMatchObject({ environmentTag: "PROD" });
});

it.each([
  ["prod", 3],
  ["dev", 2],
])("a second preview of %s shows no changes (%i resources, the stack included)", async (stack, resources) => {
  await ws.stack(stack);
  expect(await ws.changeSummary()).toEqual({ same: resources });
});

it("destroying prod is refused while it is protected, and deletes nothing", async () => {
  await ws.stack("prod");
  const before = await emulator.inventory();
  await emulator.clearCalls();
  const destroy = await ws.pulumi(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
  expect(destroy.code).not.toBe(0);
  const output = `${destroy.stdout}\n${destroy.stderr}`;
  expect(output).toMatch(/Service::app-db" cannot be deleted\s+because it is protected/);
  expect(output).toMatch(/remove the `protect` flag/);
  expect(await emulator.calls()).toEqual([]);
  expect(await emulator.inventory()).toEqual(before);
});

it("with protect set to false, up makes no API call and destroy of prod deletes its service and VPC", async () => {
  await ws.stack("prod");
  await ws.config("protect", "false");
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual([]);
  await ws.destroy();
  expect(Object.keys(await servicesByName())).toEqual(["app-db-dev"]);
  expect((await emulator.inventory()).vpcs).toEqual([]);
});

it("destroy of dev leaves the emulator empty", async () => {
  await ws.stack("dev");
  await ws.destroy();
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
});
