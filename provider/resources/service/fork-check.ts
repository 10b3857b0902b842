/**
 * The service a fork copies (`forkFrom`), looked up before anything is created: the API forks
 * only a service that exists, is not being deleted and is not stopped, in a project the key
 * reaches; the fork keeps its source's type and region, which the fork call does not carry; and a
 * point-in-time fork (PITR) is made only at a time between the source's creation and now.
 * Read-only: one GET of the source.
 */
import type * as pulumi from "@pulumi/pulumi";
import { sameServiceType } from "../../client/constants";
import { MdbApiError } from "../../client/errors";
import { isUnknown } from "../../kit/fields/check";
import type { CheckContext, OpContext, Props } from "../../kit/spec";
import { existingService, lookupDue, notRunning, type LookupFrom } from "../../kit/lifecycle/lookups";
import type { ServiceInputs } from "./fields";

/** The property a fork source's problem is reported on. */
const SOURCE = "forkFrom.serviceId";

/** The property a problem of the source's project is reported on. */
const PROJECT = "forkFrom.projectId";

/** The property a point-in-time fork's time problem is reported on. */
const TIME = "forkFrom.targetTime";

/**
 * How far past this machine's clock a point-in-time fork's time may lie before check refuses it,
 * in ms: the API judges by its own clock, which may run ahead of this one (1 minute).
 */
export const FORK_CLOCK_SKEW_MS = 60_000;

/** A problem of a fork: the property it is reported on, and why. */
export interface ForkProblem {
  /** `forkFrom.serviceId` or `forkFrom.targetTime`. */
  property: string;
  /** What is wrong and what to give instead. */
  reason: string;
}

/**
 * Why a point-in-time fork cannot be made at `targetTime` from a source created at `created` (its
 * record's time; when absent, only a time in the future is refused), `now` being this machine's
 * time in ms; undefined when it can.
 */
export function forkTimeProblem(
  targetTime: string,
  created: string | undefined,
  now: number,
): string | undefined {
  const at = Date.parse(targetTime);
  const needs = `a point-in-time fork needs a time between the source's creation${created ? ` (${created})` : ""} and now`;
  if (at > now + FORK_CLOCK_SKEW_MS) return `${targetTime} is in the future; ${needs}`;
  if (created !== undefined && at < Date.parse(created))
    return `${targetTime} is before the source was created; ${needs}`;
  return undefined;
}

/** Why the service cannot be forked from `forkFrom` as `want` asks, or undefined when it can. */
export async function forkSourceProblem(
  lookup: LookupFrom,
  projectId: string,
  want: ServiceInputs,
  now: number,
): Promise<ForkProblem | undefined> {
  const fork = want.forkFrom;
  if (!fork) return undefined;
  let source: Awaited<ReturnType<typeof existingService>>;
  try {
    source = await existingService(lookup, fork.projectId ?? projectId, fork.serviceId);
  } catch (error) {
    // A project the key cannot reach is the program's to fix; any other failure is the lookup's.
    if (!(error instanceof MdbApiError && error.status === 403 && fork.projectId)) throw error;
    const said = `HTTP 403 ${error.code}: ${error.apiMessage}`;
    const reason = `the API key cannot reach project ${fork.projectId} (${said}); fork from a project the key reaches`;
    return { property: PROJECT, reason };
  }
  if (typeof source === "string")
    return { property: SOURCE, reason: `${source}; give the id of an existing service to fork` };
  const stopped = notRunning(lookup, source);
  if (stopped)
    return {
      property: SOURCE,
      reason: `${stopped}; the API forks a running service only (set paused: false on it)`,
    };
  const time = fork.strategy === "PITR" && fork.targetTime;
  const late = time ? forkTimeProblem(time, source.created, now) : undefined;
  if (late) return { property: TIME, reason: late };
  const problems: string[] = [];
  if (!sameServiceType(source.service_type, want.serviceType))
    problems.push(`serviceType is ${want.serviceType} but the source is ${source.service_type}`);
  if (source.region_code !== want.regionCode)
    problems.push(`regionCode is ${want.regionCode} but the source is in ${source.region_code}`);
  if (problems.length === 0) return undefined;
  return { property: SOURCE, reason: `a fork keeps its source's type and region; ${problems.join("; ")}` };
}

/**
 * What decides whether a fork can be made: the source's id, the type and the region. The rest of
 * `forkFrom` is not compared: its project may be left out by the program and given by an
 * import's read, which records no strategy or time, so a point-in-time fork's time is checked
 * when the source is looked up (a new fork, another source), and else just before a create.
 */
function forkFacts(inputs: Props): Props {
  const from = inputs.forkFrom as { serviceId?: unknown } | undefined;
  return { source: from?.serviceId, serviceType: inputs.serviceType, regionCode: inputs.regionCode };
}

/**
 * Check-time lookup of the fork source, when `forkFrom` is set and known and its source, the
 * type or the region changed since the last check (an existing fork whose source was deleted
 * since is left alone: it is not forked again).
 */
export async function verifyForkSource(
  ctx: CheckContext,
  want: ServiceInputs,
  olds: Props,
): Promise<pulumi.dynamic.CheckFailure[]> {
  if (isUnknown(want.forkFrom)) return [];
  if (!lookupDue(forkFacts(want), forkFacts(olds), ["source", "serviceType", "regionCode"])) return [];
  const problem = await forkSourceProblem(ctx, ctx.projectId, want, Date.now());
  return problem ? [problem] : [];
}

/** Create-time lookup, before the fork call: throws naming the property when it cannot be forked. */
export async function requireForkSource(
  { api, ref, clock }: OpContext<"serviceId">,
  want: ServiceInputs,
): Promise<void> {
  const problem = await forkSourceProblem({ api }, ref.projectId, want, clock.now());
  if (problem) throw new Error(`cannot create service ${want.name}: ${problem.property}: ${problem.reason}`);
}
