/**
 * Interrupted runs. `kill -9` of `pulumi up` at each point where the API has made something the
 * stack does not record yet, and once during `pulumi destroy`: after each, the documented
 * recovery (standard commands only, docs/recovery.md) converges in one `pulumi up`, every
 * resource existing exactly once in the API and in the state, nothing orphaned, and destroy
 * leaves the API empty. And SIGINT, what a CI cancel sends first: the next `up` converges.
 * Each case has an emulator and a workspace of its own.
 */
import type { LoggedCall } from "./workspace";
import {
  Summary,
  expectConverged,
  expectEmpty,
  interruptWhen,
  recover,
  request,
  stackState,
  withFixture,
} from "./recovery-harness";

jest.setTimeout(300_000);

const summary = new Summary("recovery after an interruption");
afterAll(() => summary.print());

/**
 * Faults of a run to be killed: 200 ms more per API request widens the time between the
 * triggering request and the provider's answer to the engine, so the kill lands there.
 */
const SLOW = { latencyMs: 200 };

/** The API's collection of each kind of record, as `EmulatorProcess.inventory` names them. */
const COLLECTION = {
  Vpc: "vpcs",
  Service: "services",
  ReadReplicaSet: "replicaSets",
  VpcPeering: "peerings",
} as const;

interface KillPoint {
  /** What `pulumi up` is doing when it is killed. */
  point: string;
  /** Whether the VPC and service carry explicit names (adopted only with the switch). */
  named: boolean;
  /** The request after which the kill comes. */
  trigger: (r: LoggedCall) => boolean;
  /** The kind of the record the API holds and the state does not when the kill comes. */
  made: keyof typeof COLLECTION;
  /** Fault rules that hold the provider at the kill point (a VPC create answers at once). */
  faults?: Record<string, unknown>;
}

const POINTS: KillPoint[] = [
  {
    point: "VPC create",
    named: true,
    trigger: request("POST", /^\/vpcs$/),
    made: "Vpc",
    // The VPC is made but its answer is lost: the provider pauses before looking for it.
    faults: { rules: [{ method: "POST", path: "/vpcs$", drop: true, after: true }] },
  },
  { point: "service create", named: false, trigger: request("POST", /^\/services$/, 202), made: "Service" },
  {
    point: "VPC attach",
    named: true,
    trigger: request("POST", /^\/services\/[^/]+\/attachToVPC$/, 202),
    made: "Service",
  },
  {
    point: "replica set create",
    named: false,
    trigger: request("POST", /^\/services\/[^/]+\/replicaSets$/, 202),
    made: "ReadReplicaSet",
  },
  {
    point: "peering create",
    named: false,
    trigger: request("POST", /^\/vpcs\/[^/]+\/peerings$/, 201),
    made: "VpcPeering",
  },
];

describe.each(POINTS)("kill -9 of pulumi up during $point", ({ point, named, trigger, made, faults }) => {
  it("leaves a record the stack does not hold; the documented recovery converges in one up; destroy empties the API", () =>
    withFixture("dev", { named: String(named) }, async ({ emulator, ws }) => {
      await emulator.setFaults({ ...SLOW, ...faults });
      const killed = await interruptWhen(ws, emulator, ["up", "--yes", "--skip-preview"], trigger, "SIGKILL");
      await emulator.setFaults({});
      expect(killed.exit).toBe("SIGKILL");

      // The kill point was hit: the API made a record of that kind the state does not hold
      // (the engine may or may not have written its pending create before the kill).
      const before = await stackState(ws);
      expect(before.resources.filter((r) => r.type === made)).toEqual([]);
      expect((await emulator.inventory())[COLLECTION[made]]).toHaveLength(1);

      const { ups, outputs } = await recover(ws);
      expect(ups).toBe(1);
      await expectConverged(ws, emulator, 1);
      // Each record the killed run made is adopted, and the adoption is printed.
      expect(outputs.join("\n")).toMatch(/\[mdb\] .*adopting it/);

      await ws.destroy();
      await expectEmpty(emulator);
      expect((await stackState(ws)).resources).toEqual([]);
      summary.add(`kill -9 during ${point}: ${ups} up to converge, 0 records left`);
    }));
});

it("SIGINT during up, then kill -9 of destroy: the next plain up, then cancel and destroy, converge", () =>
  withFixture("dev", {}, async ({ emulator, ws }) => {
    const interrupted = await interruptWhen(
      ws,
      emulator,
      ["up", "--yes", "--skip-preview"],
      request("POST", /^\/services$/, 202),
      "SIGINT",
    );
    expect(interrupted.exit).not.toBe(0);
    // In-flight operations were let finish: nothing is pending, the service is in the state.
    const state = await stackState(ws);
    expect(state.pending).toEqual([]);
    expect(state.resources.map((r) => r.type)).toContain("Service");
    await ws.up();
    await expectConverged(ws, emulator, 1);
    summary.add("SIGINT during up: 1 plain up to converge");

    await emulator.setFaults(SLOW);
    const killed = await interruptWhen(
      ws,
      emulator,
      ["destroy", "--yes", "--skip-preview"],
      request("DELETE", /^\/services\/[^/]+$/, 202),
      "SIGKILL",
    );
    await emulator.setFaults({});
    expect(killed.exit).toBe("SIGKILL");
    expect((await stackState(ws)).resources.map((r) => r.type)).toContain("Vpc");
    expect((await emulator.inventory()).vpcs).toHaveLength(1);
    await ws.pulumi(["cancel", "--yes"]);
    await ws.destroy();
    await expectEmpty(emulator);
    expect(await stackState(ws)).toEqual({ resources: [], pending: [] });
    summary.add("kill -9 during destroy: 1 destroy to finish, 0 records left");
  }));
