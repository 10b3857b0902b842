/**
 * The service a fork copies (`forkFrom`), looked up before anything is created: the API forks
 * only a service that exists and is not being deleted, and the fork keeps its source's type and
 * region, which the fork call does not carry. Read-only: one GET of the source.
 */
import type * as pulumi from "@pulumi/pulumi";
import { sameServiceType } from "../../client/constants";
import { isUnknown } from "../../kit/fields/check";
import type { CheckContext, OpContext, Props } from "../../kit/spec";
import { existingService, lookupDue, type LookupFrom } from "../../kit/lifecycle/lookups";
import type { ServiceInputs } from "./fields";

/** The property a fork source's problem is reported on. */
const SOURCE = "forkFrom.serviceId";

/** Why the service cannot be forked from `forkFrom` as `want` asks, or undefined when it can. */
export async function forkSourceProblem(
  lookup: LookupFrom,
  projectId: string,
  want: ServiceInputs,
): Promise<string | undefined> {
  const fork = want.forkFrom;
  if (!fork) return undefined;
  const source = await existingService(lookup, fork.projectId ?? projectId, fork.serviceId);
  if (typeof source === "string") return `${source}; give the id of an existing service to fork`;
  const problems: string[] = [];
  if (!sameServiceType(source.service_type, want.serviceType))
    problems.push(`serviceType is ${want.serviceType} but the source is ${source.service_type}`);
  if (source.region_code !== want.regionCode)
    problems.push(`regionCode is ${want.regionCode} but the source is in ${source.region_code}`);
  if (problems.length === 0) return undefined;
  return `a fork keeps its source's type and region; ${problems.join("; ")}`;
}

/**
 * What decides whether a fork can be made: the source's id, the type and the region. The rest of
 * `forkFrom` is not compared: its project may be left out by the program and given by an
 * import's read, and its strategy and time matter only to the fork call.
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
  const problem = await forkSourceProblem(ctx, ctx.projectId, want);
  return problem ? [{ property: SOURCE, reason: problem }] : [];
}

/** Create-time lookup, before the fork call: throws naming `forkFrom.serviceId` when it cannot be forked. */
export async function requireForkSource(
  { api, ref }: OpContext<"serviceId">,
  want: ServiceInputs,
): Promise<void> {
  const problem = await forkSourceProblem({ api }, ref.projectId, want);
  if (problem) throw new Error(`cannot create service ${want.name}: ${SOURCE}: ${problem}`);
}
