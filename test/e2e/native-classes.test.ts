/**
 * `pulumi-managed-db/native` in a TypeScript program, under the real Pulumi CLI and the plugin
 * the Pulumi.yaml names: a stack the main entry's dynamic classes made (a protected service and
 * its read replica set, whose password follows the service's) moves to the native types by its
 * import alone, with no alias written: nothing replaced, no API write, `protect` kept, the
 * replica set's password still following; the next change is one call; an explicit `Provider`
 * makes a VPC with its own settings (and a wrong one fails at preview on it); destroy deletes both.
 */
import * as path from "path";
import { E2E_KEYS, EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(600_000);

const PASSWORD = "classes-Db-Password-2046";
let emulator: EmulatorProcess;
let ws: Workspace;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  ws = Workspace.create(path.join(__dirname, "programs/native-classes"), emulator.url);
  await ws.stack("dev");
  await ws.config("dbPassword", PASSWORD, { secret: true });
  await ws.up();
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

/** The program's resources in the state, by name: type, protect, inputs. */
async function inState(): Promise<Record<string, { type: string; protect?: boolean; inputs: object }>> {
  const state = JSON.parse(await ws.exportState()) as {
    deployment: { resources: Array<{ urn: string; type: string; protect?: boolean; inputs: object }> };
  };
  return Object.fromEntries(
    state.deployment.resources
      .filter((r) => /::(db|reads)$/.test(r.urn))
      .map((r) => [r.urn.split("::").pop()!, r]),
  );
}

it("the main entry made them as dynamic resources", async () => {
  const state = await inState();
  expect(state.db).toMatchObject({ type: "pulumi-nodejs:dynamic/mdb:Service", protect: true });
  expect(state.reads).toMatchObject({ type: "pulumi-nodejs:dynamic/mdb:ReadReplicaSet" });
});

it("moved by the import alone: the preview replaces nothing, and up writes nothing to the API", async () => {
  const before = await ws.outputs(true);
  await ws.config("entry", "native");
  expect(operations(await ws.preview())).toEqual({});
  await emulator.clearCalls();
  const { stdout } = await ws.up();
  expect(stdout).not.toMatch(/replac/);
  expect(await emulator.calls()).toEqual([]);
  expect(await emulator.inventory()).toMatchObject({
    services: [before.serviceId],
    replicaSets: [before.replicaSetId],
  });
  // The replica set's URI still carries the service's password: it follows on the native face too.
  expect(await ws.outputs(true)).toEqual(before);
  expect(String(before.replicaUri)).toContain(`:${PASSWORD}@`);
  const state = await inState();
  expect(state.db).toMatchObject({ type: "mdb:index:Service", protect: true });
  expect(state.reads).toMatchObject({ type: "mdb:index:ReadReplicaSet" });
  expect(state.db.inputs).not.toHaveProperty("__provider");
});

it("the next change is an update with its one call, its [mdb] line under the service", async () => {
  await ws.config("cpuMillis", "2000");
  const previewed = await ws.changeSummary();
  expect(previewed).toEqual({ update: 1, same: 2 });
  await emulator.clearCalls();
  const { stdout } = await ws.up();
  expect(await emulator.calls()).toEqual(["POST /services/{id}/resize"]);
  expect(stdout).toMatch(/mdb:index:Service \(db\):\n\s+\[mdb\] /);
  expect(operations(await ws.preview())).toEqual({});
});

it("an explicit Provider: its own settings make a VPC, its secret key kept encrypted; a wrong one fails at preview on the provider", async () => {
  await ws.config("providerApiUrl", emulator.url);
  await ws.config("providerPublicKey", E2E_KEYS.publicKey);
  await ws.config("providerSecretKey", E2E_KEYS.secretKey, { secret: true });
  await ws.up();
  expect((await emulator.inventory()).vpcs).toHaveLength(1);
  const exported = await ws.exportState();
  expect(exported).not.toContain(E2E_KEYS.secretKey);
  const resources = (JSON.parse(exported) as { deployment: { resources: Array<Record<string, unknown>> } })
    .deployment.resources;
  const own = resources.find((r) => String(r.urn).endsWith("::pulumi:providers:mdb::own"));
  expect(own?.inputs).toMatchObject({ apiUrl: emulator.url, unexpectedStatusMs: "60000" });
  expect(resources.find((r) => String(r.urn).endsWith("::own-net"))?.provider).toMatch(
    /::pulumi:providers:mdb::own::/,
  );

  await ws.config("providerApiUrl", "not a url");
  const run = await ws.pulumi(["preview"], { allowFailure: true });
  expect(run.code).not.toBe(0);
  expect(run.stdout + run.stderr).toContain(
    "pulumi:providers:mdb resource 'own' has a problem: apiUrl in the arguments of provider own: " +
      'API URL "not a url" is not a valid URL',
  );

  // Out of the program: the VPC is deleted through the provider the state recorded.
  await ws.removeConfig("providerApiUrl");
  await ws.up();
  expect((await emulator.inventory()).vpcs).toEqual([]);
});

it("unprotected, destroy deletes both", async () => {
  await ws.pulumi([
    "state",
    "unprotect",
    "urn:pulumi:dev::mdb-native-classes::mdb:index:Service::db",
    "--yes",
  ]);
  await ws.destroy();
  expect(await emulator.inventory()).toMatchObject({ services: [], replicaSets: [] });
});
