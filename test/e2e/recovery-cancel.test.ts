/**
 * One Ctrl-C, and a lost engine, under the real CLI against an emulator whose lifecycle steps take
 * 15 s (a create's wait would last 30 s). SIGINT to `pulumi up` during a service's create, through
 * the dynamic classes and through the native plugin `mdb` (where the engine's Cancel RPC reaches
 * the provider): the CLI exits within 5 s of the signal (the provider ends its waits), the
 * state holds the service with its inputs and no pending operation, and the next plain `pulumi up`
 * converges with no second create and no delete. `kill -9` of `pulumi up` alone (not its
 * plugins, which run in process groups of their own): its provider process is gone within 10 s,
 * and the documented recovery converges. Timings go to the suite's summary (medians).
 */
import {
  type Fixture,
  Summary,
  descendants,
  expectConverged,
  killTree,
  providerProcesses,
  recover,
  request,
  runUntil,
  running as alive,
  stackState,
  withFixture,
} from "./recovery-harness";
import type { Face } from "./workspace";

jest.setTimeout(300_000);

const summary = new Summary("Ctrl-C and a lost engine");

/** Each lifecycle step of what `up` starts: a service's create would wait two of them (30 s). */
const SLOW_STEPS_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `pulumi up` under slow lifecycle steps, once the API has accepted its service create. */
async function upUntilServiceCreate({
  emulator,
  ws,
}: Fixture): Promise<Awaited<ReturnType<typeof runUntil>>> {
  await emulator.setTransitionMs(SLOW_STEPS_MS);
  return runUntil(ws, emulator, ["up", "--yes", "--skip-preview"], request("POST", /^\/services$/, 202));
}

/** Signal to exit, in ms, of each SIGINT run, by face. */
const exits: Record<Face, number[]> = { dynamic: [], native: [] };
afterAll(() => {
  for (const [face, runs] of Object.entries(exits))
    if (runs.length)
      summary.add(
        `SIGINT to CLI exit (${face}): median ${median(runs)} ms over ${runs.length} runs (${runs.join(", ")} ms)`,
      );
  summary.print();
});

/** The runs: three through the dynamic classes, two through the plugin (its Cancel ends the wait). */
const SIGINT_RUNS: Array<{ face: Face; run: number }> = [
  { face: "dynamic", run: 1 },
  { face: "dynamic", run: 2 },
  { face: "dynamic", run: 3 },
  { face: "native", run: 1 },
  { face: "native", run: 2 },
];

describe.each(SIGINT_RUNS)("SIGINT during a service's create ($face, run $run)", ({ face }) => {
  it("the CLI exits within 5 s; the state holds the service with its inputs; the next up converges", () =>
    withFixture(
      "dev",
      {},
      async (fixture) => {
        const { emulator, ws } = fixture;
        const running = await upUntilServiceCreate(fixture);
        // Well into the create's wait.
        await sleep(1_000);
        const signalled = Date.now();
        process.kill(running.pid, "SIGINT");
        const { exit, output } = await running.ended;
        const took = Date.now() - signalled;
        exits[face].push(took);
        expect(exit).not.toBe(0);
        expect(took).toBeLessThan(5_000);
        expect(output).toMatch(
          /cancelled \(Ctrl-C\) while waiting for service \S+ to be READY \(after \d+(\.\d)? (ms|s), last status QUEUED\)\. service \S+ exists and stays in the stack with your inputs; nothing was deleted\. Run `pulumi up` again to finish the job\./,
        );

        // The service is in the state with the program's inputs, nothing pending.
        const state = await stackState(ws);
        expect(state.pending).toEqual([]);
        const { deployment } = JSON.parse(await ws.exportState()) as {
          deployment: { resources: Array<{ type: string; id?: string; inputs?: Record<string, unknown> }> };
        };
        const service = deployment.resources.find((r) => r.type.endsWith(":Service"));
        expect(service?.inputs).toMatchObject({
          serviceType: "POSTGRES",
          regionCode: "us-east-1",
          cpuMillis: 500,
          memoryGbs: 2,
          connectionPooler: true,
        });
        expect((await emulator.inventory()).services).toEqual([service?.id]);

        // The next preview lists the calls left and says that up first waits for the create.
        await emulator.setTransitionMs(300);
        expect((await ws.pulumi(["preview"])).stdout).toMatch(
          new RegExp(
            "\\[mdb\\] db-0: attachToVpc vpc-\\w+, enablePooler \\(the service restarts once\\); createService was " +
              "accepted by the API in an earlier run that ended before it settled: up waits for it\n",
          ),
        );

        // The next plain up finishes it: no second create, no delete.
        await emulator.clearCalls();
        await ws.up();
        await expectConverged(ws, emulator, 1);
        const calls = await emulator.calls();
        expect(calls.filter((c) => /^POST \/services$/.test(c))).toEqual([]);
        expect(calls.filter((c) => c.startsWith("DELETE"))).toEqual([]);
      },
      face,
    ));
});

describe.each(["dynamic", "native"] as const)("SIGINT during a service's resize (%s)", (face) => {
  it("the next preview lists the resize and says up waits for the accepted one; up sends it no second time", () =>
    withFixture(
      "dev",
      {},
      async (fixture) => {
        const { emulator, ws } = fixture;
        await ws.up();
        await expectConverged(ws, emulator, 1);
        await ws.config("cpuMillis", "1000");
        await emulator.setTransitionMs(SLOW_STEPS_MS);
        const resize = request("POST", /^\/services\/[^/]+\/resize$/, 202);
        const running = await runUntil(ws, emulator, ["up", "--yes", "--skip-preview"], resize);
        await sleep(1_000);
        const signalled = Date.now();
        process.kill(running.pid, "SIGINT");
        const { exit, output } = await running.ended;
        exits[face].push(Date.now() - signalled);
        expect(exit).not.toBe(0);
        expect(output).toMatch(/cancelled \(Ctrl-C\) while waiting for service \S+ to be READY/);

        // The resize is under way at the API; the state still has the old size, and says the
        // resize was accepted, so the preview says what up will do about it.
        const text = (await ws.pulumi(["preview"])).stdout;
        expect(text).toContain(
          "[mdb] db-0: resizeService 500m/2GB → 1000m/2GB (the service restarts once); resizeService was " +
            "accepted by the API in an earlier run that ended before it settled: up waits for it and sends it " +
            "again only if the API has not applied it",
        );

        await emulator.clearCalls();
        const finished = await ws.up();
        await expectConverged(ws, emulator, 1);
        const calls = await emulator.calls();
        expect(calls.filter((c) => /resize$/.test(c))).toEqual([]);
        // ... and up says so under the resource.
        expect(finished.stdout).toMatch(
          /\[mdb\] service \S+: resizeService 500m\/2GB → 1000m\/2GB, accepted in an earlier run, has settled; not sent again/,
        );
        expect(calls.filter((c) => /^POST \/services$|^DELETE/.test(c))).toEqual([]);
        // The finished update leaves no mark: the next preview is clean.
        expect(await ws.preview()).toEqual(new Map());
      },
      face,
    ));
});

it("kill -9 of pulumi up alone: its provider process is gone within 10 s, and the API hears no more from it; the documented recovery converges", () =>
  withFixture("dev", {}, async (fixture) => {
    const { emulator, ws } = fixture;
    const running = await upUntilServiceCreate(fixture);
    const providers = providerProcesses(running.pid);
    const started = descendants(running.pid);
    expect(providers.length).toBeGreaterThan(0);
    try {
      const killed = Date.now();
      process.kill(running.pid, "SIGKILL");
      await running.ended;
      while (providers.some(alive) && Date.now() - killed < 10_000) await sleep(100);
      const gone = Date.now() - killed;
      // The service's wait polled the API every second or so: after the kill, nothing more.
      const heard = (await emulator.requests()).length;
      await sleep(5_000);
      expect((await emulator.requests()).slice(heard)).toEqual([]);
      expect(providers.filter(alive)).toEqual([]);
      expect(gone).toBeLessThan(10_000);
      summary.add(`kill -9 of pulumi up: its provider process gone ${gone} ms later`);
    } finally {
      // What else the killed CLI had started (its language host) is not this test's subject: ended here.
      for (const pid of started) if (alive(pid)) killTree(pid, "SIGKILL");
    }
    await emulator.setTransitionMs(300);
    const { ups } = await recover(ws);
    expect(ups).toBe(1);
    await expectConverged(ws, emulator, 1);
  }));
