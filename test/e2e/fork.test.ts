/**
 * The fork example under the real Pulumi CLI: a source service and two forks of it. Preview,
 * up, a clean second preview, each fork pointing at its source (in the outputs and in the
 * API), a fork resized in place with exactly the resize call, and destroy leaving nothing.
 */
import { EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(240_000);

/** The part of a service record these tests read. */
interface ServiceRecord {
  service_id: string;
  name: string;
  status: string;
  forked_from?: { service_id?: string };
  resources: Array<{ spec: { cpu_millis: number; memory_gbs: number } }>;
}

let emulator: EmulatorProcess;
let ws: Workspace;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  ws = Workspace.create("fork", emulator.url);
  await ws.stack("dev");
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

const FORKS = { "from-snapshot": "fork-from-snapshot", "as-of-now": "fork-as-of-now" };

it("preview before the first up lists the source and both forks as creates", async () => {
  expect(operations(await ws.preview())).toEqual({
    source: "create",
    "from-snapshot": "create",
    "as-of-now": "create",
  });
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
});

it("up creates the source and forks it twice; a second preview shows no changes", async () => {
  await emulator.clearCalls();
  await ws.up();
  const calls = await emulator.calls();
  expect(calls.filter((c) => c === "POST /services")).toHaveLength(1);
  expect(calls.filter((c) => c === "POST /services/{id}/forkService")).toHaveLength(2);
  const services = await servicesByName();
  expect(Object.keys(services).sort()).toEqual(["fork-as-of-now", "fork-from-snapshot", "fork-source"]);
  expect(Object.values(services).map((s) => s.status)).toEqual(["READY", "READY", "READY"]);
  expect(await ws.changeSummary()).toEqual({ same: 4 });
});

it("each fork names its source, in its outputs and in the API", async () => {
  const outputs = (await ws.outputs()) as {
    sourceId: string;
    snapshotForkOf: { serviceId: string };
    nowForkOf: { serviceId: string };
    nowForkEndpoint: { host: string; port: number };
  };
  const services = await servicesByName();
  const sourceId = services["fork-source"].service_id;
  expect(outputs.sourceId).toBe(sourceId);
  expect(outputs.snapshotForkOf).toMatchObject({ serviceId: sourceId });
  expect(outputs.nowForkOf).toMatchObject({ serviceId: sourceId });
  expect(outputs.nowForkEndpoint).toEqual({ host: expect.any(String), port: 5432 });
  expect(services["fork-source"].forked_from?.service_id).toBeUndefined();
  for (const name of Object.values(FORKS)) {
    expect(services[name].service_id).not.toBe(sourceId);
    expect(services[name].forked_from?.service_id).toBe(sourceId);
  }
});

it("changing forkCpuMillis previews an update of that fork, not a replace, and up only resizes it", async () => {
  const before = await servicesByName();
  await ws.config("forkCpuMillis", "1000");
  const steps = await ws.preview();
  expect(operations(steps)).toEqual({ "as-of-now": "update" });
  const diff = (await ws.pulumi(["preview", "--diff"])).stdout;
  expect(diff).toMatch(/~ pulumi-nodejs:dynamic\/mdb:Service: \(update\)[\s\S]*::as-of-now\]/);
  expect(diff).toMatch(/~ cpuMillis\s*: 500 => 1000\n/);
  expect(diff.match(/^\s*~ \w+\s*:/gm)).toHaveLength(1);
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual(["POST /services/{id}/resize"]);
  const after = await servicesByName();
  expect(after["fork-as-of-now"].service_id).toBe(before["fork-as-of-now"].service_id);
  expect(after["fork-as-of-now"].resources[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 2 });
  expect(after["fork-as-of-now"].forked_from?.service_id).toBe(after["fork-source"].service_id);
  expect(await ws.changeSummary()).toEqual({ same: 4 });
});

it("destroy leaves the emulator empty", async () => {
  await ws.destroy();
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
});
