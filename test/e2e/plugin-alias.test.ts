/**
 * A stack made by the dynamic `Service` moved to the native `mdb:index:Service` with the alias
 * `{ type: "pulumi-nodejs:dynamic/mdb:Service" }`, under the real Pulumi CLI: the engine asks the
 * plugin's DiffConfig about the dynamic provider's settings and the plugin's Diff about the
 * dynamic state; neither replaces anything, no API write is made, `protect` is kept, and the
 * next change is an ordinary update with its one call.
 */
import * as path from "path";
import { EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(600_000);

const PASSWORD = "moved-Db-Password-2046";
let emulator: EmulatorProcess;
let ws: Workspace;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  ws = Workspace.create(path.join(__dirname, "programs/native"), emulator.url);
  await ws.stack("dev");
  await ws.config("dbPassword", PASSWORD, { secret: true });
  await ws.config("face", "dynamic");
  await ws.up();
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

/** The service's resource in the state: its type, protect, and its hidden inputs. */
async function dbInState(): Promise<{ type: string; protect?: boolean; inputs: Record<string, unknown> }> {
  const state = JSON.parse(await ws.exportState()) as {
    deployment: {
      resources: Array<{ urn: string; type: string; protect?: boolean; inputs: Record<string, unknown> }>;
    };
  };
  const found = state.deployment.resources.filter((r) => r.urn.endsWith("::db"));
  expect(found).toHaveLength(1);
  return found[0];
}

it("the dynamic Service made the service, protected", async () => {
  expect(await dbInState()).toMatchObject({ type: "pulumi-nodejs:dynamic/mdb:Service", protect: true });
  expect((await emulator.inventory()).services).toHaveLength(1);
});

it("moved by its alias: the preview replaces nothing, and up writes nothing to the API", async () => {
  const before = await ws.outputs();
  await ws.config("face", "moved");
  expect(operations(await ws.preview())).toEqual({}); // every step "same"
  await emulator.clearCalls();
  const { stdout } = await ws.up();
  expect(stdout).not.toMatch(/replac/);
  expect(await emulator.calls()).toEqual([]);
  expect((await emulator.inventory()).services).toHaveLength(1);
  expect(await ws.outputs()).toEqual(before);
});

it("the state has the native type, protect kept, and the dynamic face's inputs gone", async () => {
  const db = await dbInState();
  expect(db).toMatchObject({ type: "mdb:index:Service", protect: true });
  for (const hidden of ["__provider", "__resourceName", "__timeouts"])
    expect(db.inputs).not.toHaveProperty(hidden);
  expect(db.inputs).toMatchObject({ __autoNamed: true, name: expect.stringMatching(/^db-[0-9a-f]{7}$/) });
});

it("the next change is an update with its one call", async () => {
  await ws.config("cpuMillis", "2000");
  expect(operations(await ws.preview())).toEqual({ db: "update" });
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual(["POST /services/{id}/resize"]);
  expect(operations(await ws.preview())).toEqual({});
});

it("unprotected, destroy deletes it", async () => {
  await ws.pulumi(["state", "unprotect", "urn:pulumi:dev::mdb-native::mdb:index:Service::db", "--yes"]);
  await ws.destroy();
  expect((await emulator.inventory()).services).toEqual([]);
});
