/**
 * Upgrading from earlier releases: the stack state and emulator records each release wrote for
 * the quickstart (test/fixtures/state-*, recorded once, never rewritten), run with this package
 * installed instead. The states' providers name the module paths of their release (and an
 * absolute path that no longer exists), and Pulumi keeps running them for refresh and destroy:
 * every command must still work, with no change until the program asks for one.
 *
 * - 0.1.0: one serialized provider per resource, requiring `dist/provider/resources/<kind>`;
 * - 0.2.0: Pulumi's closure serializer's text, reaching `dist/provider/host`;
 * - 5cf9509: the hand-written provider text of the commit the release matrix was added on;
 * - 20afe2d-native: the quickstart on the native plugin (`pulumi-managed-db/native`): mdb:index:*
 *   resources under the plugin's default provider, which records no version;
 * - f594ca4-sdk: the same through the generated SDK (`@pulumi/mdb`), whose default provider is
 *   `default_0_1_0` with its version as an input (here run with the SDK of the current package).
 */
import * as fs from "fs";
import * as path from "path";
import { EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(240_000);

const FIXTURES = path.resolve(__dirname, "../fixtures");
const EMPTY = { services: [], replicaSets: [], vpcs: [], peerings: [] };

/** Each recorded state, and what its stored providers name. */
const RECORDED: Array<{ release: string; provider: RegExp }> = [
  { release: "0.1.0", provider: /pulumi-managed-db\/dist\/provider\/resources\/service\b/ },
  { release: "0.2.0", provider: /with\(\{ byPackage: \\"pulumi-managed-db\/dist\/provider\/host\\"/ },
  { release: "5cf9509", provider: /loads the package's host at call time/ },
  { release: "20afe2d-native", provider: /"urn:pulumi:dev::mdb-quickstart::pulumi:providers:mdb::default"/ },
  {
    release: "f594ca4-sdk",
    provider: /"urn:pulumi:dev::mdb-quickstart::pulumi:providers:mdb::default_0_1_0"/,
  },
];

describe.each(RECORDED)("the state $release wrote", ({ release, provider }) => {
  const fixture = path.join(FIXTURES, `state-${release}`);
  let emulator: EmulatorProcess;
  let ws: Workspace;
  let recorded: Awaited<ReturnType<EmulatorProcess["inventory"]>>;

  beforeAll(async () => {
    const work = fs.mkdtempSync(path.join(process.env.MDB_E2E_WORK ?? "/tmp", `state-${release}-emulator-`));
    const stateFile = path.join(work, "emulator-state.json");
    fs.copyFileSync(path.join(fixture, "emulator-state.json"), stateFile);
    emulator = await EmulatorProcess.start(40, { stateFile });
    ws = Workspace.create(path.join(fixture, "program"), emulator.url);
    // The recorded stack config carries the encryption salt of the recorded secrets.
    fs.copyFileSync(path.join(fixture, "Pulumi.dev.yaml"), path.join(ws.dir, "Pulumi.dev.yaml"));
    await ws.stack("dev");
    await ws.importState(path.join(fixture, "stack.json"));
    recorded = await emulator.inventory();
  });

  afterAll(async () => {
    await emulator?.stop();
    ws?.remove();
  });

  it("holds the quickstart's records, and its providers as that release stored them", async () => {
    expect(recorded.services).toHaveLength(1);
    expect(recorded.replicaSets).toHaveLength(1);
    expect(recorded.vpcs).toHaveLength(1);
    expect(recorded.peerings).toHaveLength(1);
    expect(await ws.exportState()).toMatch(provider);
  });

  it("refresh reads every resource through the stored providers and finds no drift", async () => {
    await emulator.clearCalls();
    await ws.refresh();
    expect(await emulator.calls()).toEqual([]);
    expect(await ws.changeSummary()).toEqual({ same: 5 });
    expect(await emulator.inventory()).toEqual(recorded);
  });

  it("preview shows no change: no update, no replace", async () => {
    expect(operations(await ws.preview({ diff: true }))).toEqual({});
    expect(await ws.changeSummary()).toEqual({ same: 5 });
  });

  it("up without a change in the program changes nothing and makes no mutating API call", async () => {
    await emulator.clearCalls();
    const { stdout } = await ws.up();
    expect(stdout).toMatch(/Resources:\s+5 unchanged/);
    expect(await emulator.calls()).toEqual([]);
    expect(await emulator.inventory()).toEqual(recorded);
  });

  it("an update the program asks for (2 replica nodes) resizes the replica set in place, then nothing is left to do", async () => {
    await ws.config("replicaNodes", "2");
    await emulator.clearCalls();
    const { stdout } = await ws.up();
    expect(stdout).toMatch(/1 updated/);
    expect(await emulator.calls()).toEqual(["POST /services/{id}/replicaSets/{id}/resize"]);
    const [service] = recorded.services;
    const sets = await emulator.api<Array<{ id: string; nodes: number }>>(
      "GET",
      `/services/${service}/replicaSets`,
    );
    expect(sets.map((set) => [set.id, set.nodes])).toEqual([[recorded.replicaSets[0], 2]]);
    expect(await ws.changeSummary()).toEqual({ same: 5 });
  });

  it("destroy deletes everything and leaves the emulator empty", async () => {
    await ws.destroy();
    expect(await emulator.inventory()).toEqual(EMPTY);
    expect(JSON.parse(await ws.exportState()).deployment.resources ?? []).toEqual([]);
  });
});
