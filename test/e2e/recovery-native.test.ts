/**
 * Interrupted runs on the native plugin `mdb` (the recovery program through its generated SDK,
 * types `mdb:index:*`), the subset of recovery-interrupt.test.ts and recovery-cancel.test.ts where
 * the plugin process differs from the dynamic provider host (recovery-cancel.test.ts runs its
 * Ctrl-C case on both faces):
 *
 * - `kill -9` of `pulumi up` and its plugins during a service create (a generated name, adopted
 *   without the switch) and during the VPC attach that follows a named service's create: the
 *   documented recovery converges in one `up`, each record once in the API and the state;
 * - `kill -9` of `pulumi up` alone during a replica set create: its plugin process, which runs in
 *   a process group of its own, exits within 10 s, and the recovery converges;
 * - during an update (a resize), the plugin killed alone: the failed run leaves no lock and the
 *   next plain `pulumi up` converges; then `pulumi up` and its plugins killed: the recovery
 *   converges. Neither sends a create or a delete, and the service ends at the program's size.
 *
 * Each ends with destroy leaving the API empty. Each case has an emulator and a workspace of its own.
 */
import type { LoggedCall } from "./workspace";
import {
  type Fixture,
  Summary,
  expectConverged,
  expectEmpty,
  interruptWhen,
  killTree,
  providerProcesses,
  recover,
  request,
  runUntil,
  running,
  stackState,
  withFixture,
} from "./recovery-harness";

jest.setTimeout(300_000);

const summary = new Summary("recovery after an interruption, native plugin");
afterAll(() => summary.print());

/** 200 ms more per API request: the kill lands between the triggering request and its answer. */
const SLOW = { latencyMs: 200 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `body` with a fixture of the recovery program on the native face. */
const native = (config: Record<string, string>, body: (fixture: Fixture) => Promise<void>) =>
  withFixture("dev", config, body, "native");

/** Calls that make or delete a record, among the emulator's logged calls. */
const CREATE_OR_DELETE =
  /^(POST \/(vpcs|services|services\/\{id\}\/replicaSets|vpcs\/\{id\}\/peerings)|DELETE .*)$/;

/** Destroys the stack, and expects the API and the state to hold nothing. */
async function destroyLeavesNothing({ emulator, ws }: Fixture): Promise<void> {
  await ws.destroy();
  await expectEmpty(emulator);
  expect(await stackState(ws)).toEqual({ resources: [], pending: [] });
}

/** The CPU of the fixture's one service, as the API reports it. */
async function serviceCpu({ emulator }: Fixture): Promise<number> {
  const [service] = await emulator.api<Array<{ resources?: Array<{ spec?: { cpu_millis?: number } }> }>>(
    "GET",
    "/services",
  );
  return Number(service.resources?.[0]?.spec?.cpu_millis);
}

describe.each([
  { point: "a service create", named: false, trigger: request("POST", /^\/services$/, 202) },
  {
    point: "the VPC attach after a named service's create",
    named: true,
    trigger: request("POST", /^\/services\/[^/]+\/attachToVPC$/, 202),
  },
])("kill -9 of pulumi up and its plugins during $point", ({ point, named, trigger }) => {
  it("leaves a service the stack does not hold; the documented recovery converges in one up", () =>
    native({ named: String(named) }, async (fixture) => {
      const { emulator, ws } = fixture;
      await emulator.setFaults(SLOW);
      const killed = await interruptWhen(ws, emulator, ["up", "--yes", "--skip-preview"], trigger, "SIGKILL");
      await emulator.setFaults({});
      expect(killed.exit).toBe("SIGKILL");
      expect((await stackState(ws)).resources.filter((r) => r.type === "Service")).toEqual([]);
      expect((await emulator.inventory()).services).toHaveLength(1);

      const { ups, outputs } = await recover(ws);
      expect(ups).toBe(1);
      await expectConverged(ws, emulator, 1);
      expect(outputs.join("\n")).toMatch(/\[mdb\] .*adopting it/);
      await destroyLeavesNothing(fixture);
      summary.add(`kill -9 during ${point}: ${ups} up to converge, 0 records left`);
    }));
});

it("kill -9 of pulumi up alone during a replica set create: its plugin exits within 10 s; the recovery converges", () =>
  native({}, async (fixture) => {
    const { emulator, ws } = fixture;
    const run = await runUntil(
      ws,
      emulator,
      ["up", "--yes", "--skip-preview"],
      request("POST", /^\/services\/[^/]+\/replicaSets$/, 202),
    );
    const plugins = providerProcesses(run.pid);
    expect(plugins.length).toBeGreaterThan(0);
    process.kill(run.pid, "SIGKILL");
    expect((await run.ended).exit).toBe("SIGKILL");
    const killed = Date.now();
    while (plugins.some(running) && Date.now() - killed < 15_000) await sleep(200);
    const took = Date.now() - killed;
    // Whatever the outcome, nothing this test started outlives it.
    for (const pid of plugins.filter(running)) killTree(pid, "SIGKILL");
    expect(took).toBeLessThan(10_000);

    const { ups } = await recover(ws);
    expect(ups).toBe(1);
    await expectConverged(ws, emulator, 1);
    await destroyLeavesNothing(fixture);
    summary.add(`kill -9 of the CLI alone: the plugin exited ${took} ms later; ${ups} up to converge`);
  }));

it("during a resize, the plugin killed, then pulumi up and its plugins killed: each time the next run converges, with no create nor delete", () =>
  native({}, async (fixture) => {
    const { emulator, ws } = fixture;
    await ws.up();
    await expectConverged(ws, emulator, 1);
    const resize = request("POST", /^\/services\/[^/]+\/resize$/, 202);

    // The plugin alone: the CLI reports the failure and ends, leaving no lock.
    await ws.config("cpuMillis", "1000");
    await emulator.setFaults(SLOW);
    const run = await runUntil(ws, emulator, ["up", "--yes", "--skip-preview"], resize);
    const plugins = providerProcesses(run.pid);
    expect(plugins.length).toBeGreaterThan(0);
    for (const pid of plugins) killTree(pid, "SIGKILL");
    const failed = await run.ended;
    await emulator.setFaults({});
    expect(failed.exit).not.toBe(0);
    expect(failed.exit).not.toBe("SIGKILL");
    let log: LoggedCall[] = await emulator.requests();
    await ws.up();
    await expectConverged(ws, emulator, 1);
    expect(await serviceCpu(fixture)).toBe(1000);
    expect((await emulator.calls()).filter((c) => CREATE_OR_DELETE.test(c))).toEqual([]);
    expect(log.filter((r) => resize(r))).toHaveLength(1);
    summary.add("plugin killed during a resize: 1 plain up to converge");

    // pulumi up and its plugins: the documented recovery.
    await ws.config("cpuMillis", "1500");
    await emulator.setFaults(SLOW);
    const killed = await interruptWhen(ws, emulator, ["up", "--yes", "--skip-preview"], resize, "SIGKILL");
    await emulator.setFaults({});
    expect(killed.exit).toBe("SIGKILL");
    log = await emulator.requests();
    await emulator.clearCalls();
    const { ups } = await recover(ws);
    expect(ups).toBe(1);
    await expectConverged(ws, emulator, 1);
    expect(await serviceCpu(fixture)).toBe(1500);
    expect((await emulator.calls()).filter((c) => CREATE_OR_DELETE.test(c))).toEqual([]);
    expect(log.filter((r) => resize(r))).toHaveLength(1);
    await destroyLeavesNothing(fixture);
    summary.add(`kill -9 during a resize: ${ups} up to converge, 0 records left`);
  }));
