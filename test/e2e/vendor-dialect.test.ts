/**
 * The quickstart under the real Pulumi CLI against the emulator speaking the vendor's current
 * words without their deprecated aliases (`mdb-emulator --dialect vendor --no-deprecated-fields`):
 * TIMESCALEDB for the type, `vpc_endpoint` only, no `paused`,
 * digit-string VPC ids, renameVpc answering `{message}`, and requests validated as the current
 * document types them (sizes as strings, both sizes on a resize). Up settles, refresh and preview
 * show nothing to do, a rename keeps the service, a replica set resizes in place, and
 * `serviceType: "TIMESCALEDB"` is no change for a TIMESERIESDB service.
 */
import { EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(300_000);

let emulator: EmulatorProcess;
let ws: Workspace;
const PASSWORD = "e2e-Vendor-Password-2207";

beforeAll(async () => {
  // The strictest of the vendor's answers: the current document's words without its deprecated
  // aliases, so a service is attached only through `vpc_endpoint` (the seed suites read `vpcEndpoint`).
  emulator = await EmulatorProcess.start(40, { dialect: "vendor", deprecatedFields: false });
  ws = Workspace.create("quickstart", emulator.url);
  await ws.stack("dev");
  await ws.config("dbPassword", PASSWORD, { secret: true });
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

/** True when every resource of a preview is unchanged. */
async function nothingToDo(): Promise<boolean> {
  return Object.values(operations(await ws.preview())).every((op) => op === "same");
}

/** The service as the emulator answers it, in its own words. */
function serviceRecord(serviceId: string): Promise<Record<string, unknown>> {
  return emulator.api<Record<string, unknown>>("GET", `/services/${serviceId}`);
}

it("up creates the quickstart and settles (VPC endpoint read from vpc_endpoint); a second preview shows no change", async () => {
  await ws.up();
  const outputs = (await ws.outputs()) as { serviceId: string; vpcEndpoint: { vpcId: string } };
  expect(outputs.vpcEndpoint).toMatchObject({ vpcId: expect.stringMatching(/^\d+$/) });
  expect(outputs).toMatchObject({ peeringStatus: "active" });
  // The emulator really spoke the vendor's words.
  const record = await serviceRecord(outputs.serviceId);
  expect(record.service_type).toBe("TIMESCALEDB");
  expect(record).not.toHaveProperty("paused");
  expect(record.vpc_endpoint).toMatchObject({ vpc_id: outputs.vpcEndpoint.vpcId });
  expect(await nothingToDo()).toBe(true);
});

it("refresh finds no difference, and a preview after it none either", async () => {
  const refresh = await ws.pulumi(["refresh", "--yes", "--diff"]);
  expect(refresh.stdout).not.toMatch(/^\s*~ .*mdb:/m);
  expect(refresh.stdout).toMatch(/\b5 unchanged\b/);
  expect(await nothingToDo()).toBe(true);
});

it('serviceType "TIMESCALEDB" in the program plans no change for the TIMESERIESDB service', async () => {
  await ws.config("serviceType", "TIMESCALEDB");
  try {
    expect(await nothingToDo()).toBe(true);
  } finally {
    await ws.removeConfig("serviceType");
  }
});

it("a new service name renames it in place: one renameService call, the same serviceId", async () => {
  const { serviceId } = (await ws.outputs()) as { serviceId: string };
  await ws.config("serviceName", "quickstart-db-renamed");
  const { stdout, stderr } = await ws.pulumi(["preview"]);
  expect(stdout + stderr).toMatch(/\[mdb\] db: renameService quickstart-db → quickstart-db-renamed/);
  expect(operations(await ws.preview()).db).toBe("update");
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual(["POST /services/{id}/rename"]);
  expect(((await ws.outputs()) as { serviceId: string }).serviceId).toBe(serviceId);
  expect((await serviceRecord(serviceId)).name).toBe("quickstart-db-renamed");
  expect(await nothingToDo()).toBe(true);
});

it("a VPC rename answered with {message} reads the VPC back: no error, nothing left to do", async () => {
  await ws.config("vpcName", "quickstart-vpc-renamed");
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual(["POST /vpcs/{id}/rename"]);
  expect(await nothingToDo()).toBe(true);
});

it("more replica nodes resize the replica set in place with one call", async () => {
  await ws.config("replicaNodes", "2");
  expect(operations(await ws.preview()).reads).toBe("update");
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual(["POST /services/{id}/replicaSets/{id}/resize"]);
  expect(await nothingToDo()).toBe(true);
});

it("destroy leaves the emulator empty", async () => {
  await ws.destroy();
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
});
