/**
 * Which cells of the fault matrix (docs/recovery.md#the-fault-matrix) each of its two test files
 * runs, and the suite they share. `npm test` runs the COVER: one walk through the life in which
 * every call fails once, each failure and each follow-up coming up several times; the life is cut
 * in two halves, one per file, so that jest runs them side by side (the second half first brings
 * the program to where the first ends, without faults). `npm run test:faults` (MDB_FAULTS=full)
 * runs every call × every failure × every follow-up: one walk of the whole life per failure and
 * follow-up, the walks shared out between the two files. MDB_FAULTS_ONLY=<failure>[:<follow-up>]
 * keeps some walks of the full matrix, MDB_FAULTS_STEPS=<first>-<last> (1-based) some steps of
 * each walk (those before come about without faults); MDB_FAULTS_REPORT=<folder> writes each file's cells there
 * and the table of all the cells written so far.
 *
 * A cell passes when, after the follow-up, the end state equals the program (records, recorded
 * inputs, an empty preview), every service that existed still exists untouched, nothing is
 * duplicated; or, for a cell that ends in a documented outcome needing a person (the lock a
 * `kill -9` leaves; a named record whose create answer was lost), when exactly that message comes
 * and the commands it names converge. Each walk ends with `destroy`, which must leave only the
 * final forks.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Walk } from "./fault-matrix-harness";
import {
  type CellResult,
  FAILURES,
  FOLLOW_UPS,
  type Failure,
  type FollowUp,
  LIFE,
  type Spec,
} from "./fault-matrix-life";
import { details, table } from "./fault-matrix-report";
import type { Face } from "./workspace";

/** True for the whole matrix (`npm run test:faults`), false for the cover (`npm test`). */
export const FULL = process.env.MDB_FAULTS === "full";

/**
 * The cover: the failure and follow-up of each step of the life, in order. Every call once; every
 * failure and follow-up several times; the API away once (a service create, issue 26's first
 * scenario: an away cell waits out the provider's retries, about a minute); error answers mostly
 * on creates (one error fails a create, where an action's seven attempts take 8 to 16 s of backoff).
 */
export const COVER: Array<[Failure, FollowUp]> = [
  ["drop-after", "up"], // createVpc
  ["away", "up"], // createService
  ["kill", "recovery"], // createReplicaSet
  ["error", "refresh-up"], // createPeering
  ["drop-before", "adopt"], // resizeService
  ["drop-after", "refresh-up"], // setHA
  ["kill", "up"], // enablePooler
  ["drop-after", "recovery"], // setServiceEnvironment
  ["drop-before", "up"], // updatePassword
  ["kill", "adopt"], // stopService
  ["drop-after", "up"], // startService
  ["drop-before", "refresh-up"], // detachFromVpc
  ["kill", "recovery"], // attachToVpc
  ["drop-after", "adopt"], // disablePooler
  ["drop-before", "refresh-up"], // resizeReplicaSet
  ["drop-after", "refresh-up"], // enableReplicaSetPooler
  ["kill", "refresh-up"], // setReplicaSetEnvironment
  ["error", "recovery"], // disableReplicaSetPooler
  ["drop-after", "up"], // renameVpc
  ["drop-after", "recovery"], // renameService
  ["error", "adopt"], // replace: createService
  ["drop-after", "up"], // replace: final forkService
  ["kill", "recovery"], // replace: createReplicaSet
  ["drop-after", "refresh-up"], // replace: createVpc
  ["error", "up"], // replace: createPeering
  ["drop-after", "up"], // deleteReplicaSet
  ["kill", "recovery"], // deletePeering
  ["drop-before", "adopt"], // deleteService
  ["error", "refresh-up"], // deleteVpc
];

/**
 * The cover on the native plugin (fault-matrix-native.test.ts and fault-matrix-native-2.test.ts):
 * the whole life, its first nine steps (each kind's create, `resizeService`, `setHA`,
 * `enablePooler`, `setServiceEnvironment`, `updatePassword`, a secret input) with other pairs
 * than the dynamic face's and without `away` (a minute of the provider's retries, the same kit
 * code as on the dynamic face), the rest as {@link COVER} has them (the stops and starts, VPC
 * moves, the replica set's actions, the renames, each kind's replacement with the final fork,
 * every delete).
 */
export const NATIVE_COVER: Array<[Failure, FollowUp]> = [
  ["kill", "recovery"], // createVpc
  ["drop-after", "up"], // createService
  ["error", "refresh-up"], // createReplicaSet
  ["drop-before", "adopt"], // createPeering
  ["kill", "up"], // resizeService
  ["drop-after", "recovery"], // setHA
  ["drop-before", "refresh-up"], // enablePooler
  ["kill", "adopt"], // setServiceEnvironment
  ["drop-after", "up"], // updatePassword
  ...COVER.slice(9),
];

/** Where the second half of the life starts. */
const HALF = 14;

/** A walk: from which step of the life, and the failure and follow-up of each step it takes. */
interface WalkPlan {
  name: string;
  from: number;
  plan: Array<[Failure, FollowUp]>;
}

/**
 * The walks of file `part` (1 or 2) on `face`, cut to the steps MDB_FAULTS_STEPS (`first-last`,
 * 1-based) names.
 */
function walks(part: 1 | 2, face: Face): WalkPlan[] {
  const [first, last] = (process.env.MDB_FAULTS_STEPS ?? `1-${LIFE.length}`).split("-").map(Number);
  return allWalks(part, face)
    .map((w) => {
      const from = Math.max(w.from, first - 1);
      const to = Math.min(w.from + w.plan.length, last);
      return {
        ...w,
        name: `${w.name}, steps ${from + 1} to ${to}`,
        from,
        plan: w.plan.slice(from - w.from, to - w.from),
      };
    })
    .filter((w) => w.plan.length > 0);
}

/** The walks of file `part` (1 or 2) on `face`: on the native plugin, always its cover. */
function allWalks(part: 1 | 2, face: Face): WalkPlan[] {
  if (!FULL || face === "native") {
    const [from, to] = part === 1 ? [0, HALF] : [HALF, LIFE.length];
    const [name, cover] = face === "native" ? ["native cover", NATIVE_COVER] : ["cover", COVER];
    return [{ name, from, plan: cover.slice(from, to) }];
  }
  const [onlyFailure, onlyFollowUp] = (process.env.MDB_FAULTS_ONLY ?? "").split(":");
  return FAILURES.flatMap((failure) => FOLLOW_UPS.map((followUp) => [failure, followUp] as const))
    .filter(([f, u]) => (!onlyFailure || f === onlyFailure) && (!onlyFollowUp || u === onlyFollowUp))
    .filter((_, i) => i % 2 === part - 1)
    .map(([failure, followUp]) => ({
      name: `${failure} × ${followUp}`,
      from: 0,
      plan: LIFE.map((): [Failure, FollowUp] => [failure, followUp]),
    }));
}

/** A cell as the report folder keeps it. */
type ReportedCell = Omit<CellResult, "step"> & { step: { kind: string; call: string } };

/** Writes this file's cells, then the table of every file's cells written so far. */
function report(folder: string, part: number, results: CellResult[]): void {
  fs.mkdirSync(folder, { recursive: true });
  const mine: ReportedCell[] = results.map((r) => ({ ...r, step: { kind: r.step.kind, call: r.step.call } }));
  fs.writeFileSync(path.join(folder, `part-${part}.json`), JSON.stringify(mine, null, 2));
  const all = fs
    .readdirSync(folder)
    .filter((f) => /^part-\d\.json$/.test(f))
    .flatMap((f) => JSON.parse(fs.readFileSync(path.join(folder, f), "utf8")) as ReportedCell[]);
  const order = (r: ReportedCell) => LIFE.findIndex((s) => s.kind === r.step.kind && s.call === r.step.call);
  const sorted = all.sort((a, b) => order(a) - order(b)) as unknown as CellResult[];
  fs.writeFileSync(path.join(folder, "table.md"), `${table(sorted)}\n\n${details(sorted) || "(none)"}\n`);
}

/**
 * The describe block of test file `part` on `face` (default the dynamic classes): its walks, each
 * checked cell by cell, and its table.
 */
export function faultMatrix(part: 1 | 2, face: Face = "dynamic"): void {
  jest.setTimeout(FULL ? 4 * 3_600_000 : 600_000);
  const results: CellResult[] = [];
  const started = Date.now();

  afterAll(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stderr.write(
      `\nfault matrix, ${face === "native" ? "native cover" : FULL ? "full" : "cover"}, part ${part} (${seconds} s):\n\n${table(results)}\n\n` +
        `cells that failed or needed a person:\n${details(results) || "(none)"}\n`,
    );
    if (process.env.MDB_FAULTS_REPORT && face === "dynamic")
      report(process.env.MDB_FAULTS_REPORT, part, results);
  });

  describe.each(walks(part, face))("fault matrix: $name", ({ from, plan }) => {
    it("every cell converges (or ends as documented), and destroy leaves only the final forks", async () => {
      const walk = await Walk.create(fs.mkdtempSync(path.join(os.tmpdir(), "mdb-fault-matrix-")), 40, face);
      const mine: CellResult[] = [];
      try {
        if (from > 0)
          await walk.apply(LIFE.slice(0, from).reduce((spec: Spec, step) => step.change(spec), { vpcs: {} }));
        for (const [i, step] of LIFE.slice(from, from + plan.length).entries()) {
          const [failure, followUp] = plan[i];
          const result = await walk.cell(step, failure, followUp);
          mine.push(result);
          results.push(result);
          if (process.env.MDB_E2E_PROGRESS)
            process.stderr.write(
              `${result.passed ? "ok  " : "FAIL"} ${step.kind} ${step.call} × ${failure} × ${followUp} (${result.seconds} s)\n`,
            );
        }
        const left = await walk.destroy();
        expect({ destroy: left }).toEqual({ destroy: [] });
      } finally {
        await walk.close();
      }
      expect(details(mine.filter((r) => !r.passed))).toBe("");
    });
  });
}
