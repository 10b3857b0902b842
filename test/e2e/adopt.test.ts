/**
 * The adopt example under the real Pulumi CLI: a VPC and a service attached to it are made
 * through the API, out of Pulumi, then adopted with the `import` resource option. Up adopts
 * them without a single create call, a program that differs fails naming the property, drift
 * shows in refresh, and destroy deletes what was adopted.
 */
import { EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(240_000);

/** The part of a service record these tests read. */
interface ServiceRecord {
  service_id: string;
  status: string;
  vpcEndpoint?: { vpc_id?: string };
}

/** What the existing resources are, as the program's stack config describes them. */
const EXISTING = {
  vpcName: "legacy-vpc",
  vpcCidr: "10.70.0.0/16",
  serviceName: "legacy-db",
  cpuMillis: "1000",
  memoryGbs: "4",
};

let emulator: EmulatorProcess;
let ws: Workspace;
let vpcId: string;
let serviceId: string;

/** Polls the service until `done` holds for it. */
async function waitForService(id: string, done: (s: ServiceRecord) => boolean): Promise<ServiceRecord> {
  for (let i = 0; i < 200; i++) {
    const service = await emulator.api<ServiceRecord>("GET", `/services/${id}`);
    if (done(service)) return service;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`service ${id} did not settle`);
}

/** Sets the stack config of the selected stack: the existing resources, with `overrides`. */
async function configure(overrides: Record<string, string> = {}): Promise<void> {
  const values = { vpcId, serviceId, ...EXISTING, ...overrides };
  await ws.pulumi([
    "config",
    "set-all",
    ...Object.entries(values).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
  ]);
}

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  ({ id: vpcId } = await emulator.api<{ id: string }>("POST", "/vpcs", {
    name: EXISTING.vpcName,
    cidr: EXISTING.vpcCidr,
    region_code: "us-east-1",
  }));
  ({ service_id: serviceId } = await emulator.api<ServiceRecord>("POST", "/services", {
    name: EXISTING.serviceName,
    region_code: "us-east-1",
    cpu_millis: Number(EXISTING.cpuMillis),
    memory_gbs: Number(EXISTING.memoryGbs),
  }));
  await waitForService(serviceId, (s) => s.status === "READY");
  await emulator.api("POST", `/services/${serviceId}/attachToVPC`, { vpc_id: vpcId });
  await waitForService(serviceId, (s) => s.status === "READY" && s.vpcEndpoint?.vpc_id === vpcId);
  ws = Workspace.create("adopt", emulator.url);
  await ws.stack("dev");
  await configure();
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

it("preview shows a create step for each adoption, and calls nothing", async () => {
  await emulator.clearCalls();
  expect(operations(await ws.preview())).toEqual({ network: "create", db: "create" });
  expect(await emulator.calls()).toEqual([]);
});

it("up adopts the VPC and the service without any create call; the outputs show their ids", async () => {
  await emulator.clearCalls();
  await ws.up();
  // Not only no POST /vpcs or POST /services: no attach, no change of any kind.
  expect(await emulator.calls()).toEqual([]);
  expect(await emulator.inventory()).toEqual({
    services: [serviceId],
    replicaSets: [],
    vpcs: [vpcId],
    peerings: [],
  });
  expect(await ws.outputs()).toMatchObject({
    vpcId,
    vpcName: EXISTING.vpcName,
    serviceId,
    endpoint: { host: expect.any(String), port: 5432 },
    vpcEndpoint: { vpcId },
  });
});

it("a second preview shows no changes", async () => {
  expect(await ws.changeSummary()).toEqual({ same: 3 });
});

describe.each([
  ["vpcCidr", "10.71.0.0/16", () => `VPC "${vpcId}"`, 'cidr: program "10.71.0.0/16", found "10.70.0.0/16"'],
  ["cpuMillis", "2000", () => `service "${serviceId}"`, "cpuMillis: program 2000, found 1000"],
  ["serviceName", "other-db", () => `service "${serviceId}"`, 'name: program "other-db", found "legacy-db"'],
])("a program whose %s is %s", (key, value, what, difference) => {
  it("fails to adopt, naming the differing property, and changes nothing", async () => {
    // A stack of its own, removed afterwards without deleting anything it may have adopted.
    const stack = `mismatch-${key}`;
    await ws.stack(stack);
    try {
      await configure({ [key]: value });
      await emulator.clearCalls();
      const up = await ws.pulumi(["up", "--yes", "--skip-preview"], { allowFailure: true });
      expect(up.code).not.toBe(0);
      expect(up.stdout).toContain(
        `error: cannot import ${what()}: the program differs from it (${difference}). ` +
          "Change the program to match, import, then change it",
      );
      expect(await emulator.calls()).toEqual([]);
    } finally {
      await ws.pulumi(["stack", "rm", stack, "--yes", "--force"]);
      await ws.stack("dev");
    }
    expect(await emulator.inventory()).toEqual({
      services: [serviceId],
      replicaSets: [],
      vpcs: [vpcId],
      peerings: [],
    });
  });
});

it("an out-of-band rename of the adopted VPC shows as drift in refresh, and up renames it back", async () => {
  await emulator.api("POST", `/vpcs/${vpcId}/rename`, { name: "renamed-out-of-band" });
  const refresh = await ws.pulumi(["refresh", "--yes", "--diff"]);
  expect(refresh.stdout).toMatch(
    /~ pulumi-nodejs:dynamic\/mdb:Vpc: \(update\)[\s\S]*~ name\s*: "legacy-vpc" => "renamed-out-of-band"/,
  );
  expect(refresh.stdout).not.toMatch(/~ pulumi-nodejs:dynamic\/mdb:Service/);
  expect(operations(await ws.preview())).toEqual({ network: "update" });
  // The refreshed inputs are the program's: only the name differs, no project it never set.
  const diff = (await ws.pulumi(["preview", "--diff"])).stdout;
  expect(diff).toMatch(/~ name\s*: "renamed-out-of-band" => "legacy-vpc"/);
  expect(diff).not.toContain("projectId");
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual(["POST /vpcs/{id}/rename"]);
  expect(await emulator.api("GET", `/vpcs/${vpcId}`)).toMatchObject({ name: EXISTING.vpcName });
  expect(await ws.changeSummary()).toEqual({ same: 3 });
});

it("destroy deletes the adopted service and VPC", async () => {
  await emulator.clearCalls();
  await ws.destroy();
  const calls = await emulator.calls();
  expect(calls).toContain("DELETE /services/{id}");
  expect(calls).toContain("DELETE /vpcs/{id}");
  expect(calls.filter((c) => !c.startsWith("DELETE "))).toEqual([]);
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
});
