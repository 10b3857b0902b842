/**
 * Upgrading from 0.1.0: the stack state and emulator records the 0.1.0 release wrote for the
 * quickstart (test/fixtures/state-0.1.0, recorded once, never rewritten), run with this
 * package installed instead. The state's serialized providers name 0.1.0's module paths (and
 * an absolute path that no longer exists), and Pulumi keeps using them for refresh and destroy:
 * every command must still work, and nothing may change.
 */
import * as fs from "fs";
import * as path from "path";
import { EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(240_000);

const FIXTURE = path.resolve(__dirname, "../fixtures/state-0.1.0");
const EMPTY = { services: [], replicaSets: [], vpcs: [], peerings: [] };

let emulator: EmulatorProcess;
let ws: Workspace;
let recorded: { services: string[]; replicaSets: string[]; vpcs: string[]; peerings: string[] };

beforeAll(async () => {
  const work = fs.mkdtempSync(path.join(process.env.MDB_E2E_WORK ?? "/tmp", "state-0.1.0-emulator-"));
  const stateFile = path.join(work, "emulator-state.json");
  fs.copyFileSync(path.join(FIXTURE, "emulator-state.json"), stateFile);
  emulator = await EmulatorProcess.start(40, { stateFile });
  ws = Workspace.create(path.join(FIXTURE, "program"), emulator.url);
  // The recorded stack config carries the encryption salt of the recorded secrets.
  fs.copyFileSync(path.join(FIXTURE, "Pulumi.dev.yaml"), path.join(ws.dir, "Pulumi.dev.yaml"));
  await ws.pulumi(["stack", "init", "dev"]);
  await ws.pulumi(["stack", "import", "--file", path.join(FIXTURE, "stack.json")]);
  recorded = await emulator.inventory();
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

it("the recorded emulator holds the quickstart's records, and the state names 0.1.0's module paths", async () => {
  expect(recorded.services).toHaveLength(1);
  expect(recorded.replicaSets).toHaveLength(1);
  expect(recorded.vpcs).toHaveLength(1);
  expect(recorded.peerings).toHaveLength(1);
  const state = await ws.exportState();
  for (const name of ["service", "read-replica-set", "vpc", "vpc-peering"]) {
    expect(state).toContain(`pulumi-managed-db/dist/provider/resources/${name}`);
  }
  expect(state).not.toContain("dist/provider/host");
});

it("preview shows no change: no update, no replace", async () => {
  const steps = await ws.preview(["--diff"]);
  expect(operations(steps)).toEqual({});
  expect(await ws.changeSummary()).toEqual({ same: 5 });
});

it("up succeeds without any change and without a mutating API call", async () => {
  await emulator.clearCalls();
  const { stdout } = await ws.up();
  expect(stdout).toMatch(/Resources:\s+5 unchanged/);
  expect(stdout).not.toMatch(/\b(created|updated|replaced|deleted)\b/);
  expect(await emulator.calls()).toEqual([]);
  expect(await emulator.inventory()).toEqual(recorded);
});

it("refresh succeeds, reading every resource through 0.1.0's serialized providers", async () => {
  await emulator.clearCalls();
  await ws.pulumi(["refresh", "--yes", "--skip-preview"]);
  expect(await emulator.calls()).toEqual([]);
  expect(await ws.changeSummary()).toEqual({ same: 5 });
  expect(await emulator.inventory()).toEqual(recorded);
});

it("destroy succeeds and leaves the emulator empty", async () => {
  await ws.pulumi(["destroy", "--yes", "--skip-preview"]);
  expect(await emulator.inventory()).toEqual(EMPTY);
  expect(JSON.parse(await ws.exportState()).deployment.resources ?? []).toEqual([]);
});
