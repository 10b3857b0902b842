/**
 * Interrupted runs. `kill -9` of `pulumi up` at each point where the API has made something the
 * stack does not record yet, and once during `pulumi destroy`: after each, the documented
 * recovery (standard commands only, docs/recovery.md) converges in one `pulumi up`, every
 * resource existing exactly once in the API and in the state, nothing orphaned, and destroy
 * leaves the API empty. And SIGINT, what a CI cancel sends first: the next `up` converges. And
 * the command docs/recovery.md gives for a kill that cut a backend write short, run as written.
 * Each case has an emulator and a workspace of its own.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { CHECKPOINT_CUT } from "./fault-matrix-life";
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

/**
 * The shell command docs/recovery.md gives for a kill that left a backend's metadata file empty,
 * with `<folder>` standing for the backend's folder.
 */
function documentedSidecarRepair(): string {
  const doc = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "recovery.md"), "utf8");
  const section = doc.slice(doc.indexOf("**When the kill cut a write of the backend short.**"));
  const block = /```sh\n([^`]+)```/.exec(section);
  if (!block) throw new Error("docs/recovery.md: no sh block after the paragraph on a cut backend write");
  return block[1].trim();
}

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
    // The set is active a step after its create: its looks fail for a while, so the create is
    // still waiting when the kill comes, however busy the machine (a CI leg beside others).
    faults: { rules: [{ method: "GET", path: "/replicaSets/[^/]+$", status: 503, count: 30 }] },
  },
  {
    point: "peering create",
    named: false,
    trigger: request("POST", /^\/vpcs\/[^/]+\/peerings$/, 201),
    made: "VpcPeering",
    // Likewise: a peering is active a step after its create.
    faults: { rules: [{ method: "GET", path: "/peerings/[^/]+$", status: 503, count: 30 }] },
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

it("SIGINT during up, an emptied checkpoint metadata file, then kill -9 of destroy: the next plain up, docs/recovery.md's command, then cancel and destroy, converge", () =>
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

    // What a kill between the two writes of a checkpoint leaves: its metadata file empty. Every
    // command fails; the command docs/recovery.md gives, as written, makes the stack whole again.
    const whole = (await stackState(ws)).resources;
    const attrs = path.join(ws.backendFolder, ".pulumi", "stacks", "mdb-recovery", "dev.json.attrs");
    fs.writeFileSync(attrs, "");
    const cut = await ws.pulumi(["preview"], { allowFailure: true });
    expect(cut.code).not.toBe(0);
    expect(cut.stdout + cut.stderr).toMatch(CHECKPOINT_CUT);
    execFileSync("bash", ["-c", documentedSidecarRepair().replace(/<folder>/g, ws.backendFolder)]);
    expect(fs.existsSync(attrs)).toBe(false);
    expect(Object.keys(await ws.changeSummary())).toEqual(["same"]);
    expect((await stackState(ws)).resources).toEqual(whole);
    summary.add("a checkpoint's metadata file left empty: docs/recovery.md's command, then 0 changes");

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
