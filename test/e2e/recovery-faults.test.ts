/**
 * A fault sweep under the real CLI: a 20-resource program (5 groups of a VPC, a service, a read
 * replica set and a peering) against an emulator failing 0, 10, 20 and 30 % of API requests
 * (500, 503, 429) and dropping 5 % of connections. Up converges in one run up to 20 % and in
 * two at 30 %, never making a duplicate; destroy, under the same faults, leaves nothing, in as many
 * runs as up may take: at 30 % a call fails its 7 attempts about once in 1,500 (0.35^7), so one
 * of a destroy's calls sometimes does, and the next run finishes what it left (seen once in CI).
 */
import type { EmulatorProcess } from "./workspace";
import {
  type Fixture,
  Summary,
  expectConverged,
  expectEmpty,
  stackState,
  withFixture,
} from "./recovery-harness";

jest.setTimeout(300_000);

const GROUPS = 5;
const summary = new Summary(`fault sweep (${GROUPS * 4} resources)`);
afterAll(() => summary.print());

/** The error lines of a failed `pulumi` run, for the summary: why a run did not converge. */
function errorLines(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => /error:|^\s*\* /.test(line))
    .map((line) => line.trim());
}

/**
 * Runs `pulumi <args>` until it succeeds, at most `max` times; returns how many runs it took.
 * Each failed run that is allowed adds its error lines to the summary.
 */
async function runsUntilSuccess(
  ws: Fixture["ws"],
  args: string[],
  max: number,
  label: string,
): Promise<number> {
  for (let run = 1; ; run++) {
    const result = await ws.pulumi(args, { allowFailure: run < max });
    if (result.code === 0) return run;
    for (const line of errorLines(`${result.stdout}\n${result.stderr}`))
      summary.add(`${label}, run ${run} failed: ${line}`);
  }
}

/** Names that occur more than once among the API's services, VPCs and replica sets. */
async function duplicateNames(emulator: EmulatorProcess): Promise<string[]> {
  const services = await emulator.api<Array<{ name: string; read_replica_sets?: Array<{ name: string }> }>>(
    "GET",
    "/services",
  );
  const vpcs = await emulator.api<Array<{ name: string }>>("GET", "/vpcs");
  const names = [
    ...services.map((s) => s.name),
    ...services.flatMap((s) => (s.read_replica_sets ?? []).map((r) => r.name)),
    ...vpcs.map((v) => v.name),
  ];
  return names.filter((name, i) => names.indexOf(name) !== i);
}

describe.each([
  { percent: 0, maxRuns: 1 },
  { percent: 10, maxRuns: 1 },
  { percent: 20, maxRuns: 1 },
  { percent: 30, maxRuns: 2 },
])("with $percent % of requests failing (500, 503, 429) and 5 % dropped", ({ percent, maxRuns }) => {
  it(`up converges within ${maxRuns} run(s) without a duplicate; destroy leaves nothing within as many`, () =>
    withFixture("dev", { groups: String(GROUPS) }, async ({ emulator, ws }) => {
      const faults = { rate: percent / 100, dropRate: 0.05, retryAfterSeconds: 1 };
      await emulator.setFaults(faults);
      const ups = await runsUntilSuccess(ws, ["up", "--yes", "--skip-preview"], maxRuns, `${percent} % up`);
      await emulator.setFaults({});
      expect(await duplicateNames(emulator)).toEqual([]);
      await expectConverged(ws, emulator, GROUPS);

      await emulator.setFaults(faults);
      const destroys = await runsUntilSuccess(
        ws,
        ["destroy", "--yes", "--skip-preview"],
        maxRuns,
        `${percent} % destroy`,
      );
      await emulator.setFaults({});
      await expectEmpty(emulator);
      expect((await stackState(ws)).resources).toEqual([]);
      summary.add(`${percent} % errors + 5 % drops: ${ups} up(s), ${destroys} destroy(s), 0 records left`);
    }));
});
