/**
 * The records a new resource names by id and cannot be made without (a service's VPC and fork
 * source, a read replica set's service, a peering's VPC), looked up read-only: at check, so a
 * preview names the bad id before anything is created, and again before a create.
 */
import { isLeavingService } from "../../client/readings";
import type { Service as ServiceRecord, Vpc as VpcRecord } from "../../client/schemas";
import { isUnknown } from "../fields/check";
import { unlessGone } from "./delete";
import type { CheckContext, Props } from "../spec";

/**
 * Where a lookup reads: the API, after what this run's own creates and updates left settled (at
 * check; a create's lookup just before it sends has only the API, and always asks it).
 */
export type LookupFrom = Pick<CheckContext, "api" | "run">;

/**
 * Whether a check should look up what `keys` of `want` name: every one known (not the preview's
 * UNKNOWN marker), the first one set, and some of them changed since the last check (`olds`; an
 * unchanged set was looked up then, and diff shows drift).
 */
export function lookupDue(want: Props, olds: Props, keys: readonly string[]): boolean {
  if (want[keys[0]] === undefined || keys.some((key) => isUnknown(want[key]))) return false;
  return keys.some((key) => JSON.stringify(olds[key]) !== JSON.stringify(want[key]));
}

/**
 * Service `serviceId` of project `projectId`, or why nothing can be made from it (it does not
 * exist, or it is being deleted), as a sentence to which the caller adds its advice.
 */
export async function existingService(
  from: LookupFrom,
  projectId: string,
  serviceId: string,
): Promise<ServiceRecord | string> {
  const service =
    (from.run?.recordOf("service", serviceId, projectId) as ServiceRecord | undefined) ??
    (await unlessGone(from.api.getService(projectId, serviceId)));
  if (service === undefined) return `service ${serviceId} does not exist in project ${projectId}`;
  if (isLeavingService(service)) return `service ${serviceId} is being deleted (${service.status})`;
  return service;
}

/**
 * The statuses of a service that is stopped or stopping: nothing can be forked from or added to it.
 * By status, not `isPausedRecord`: a RESUMING service still reads paused there, and its start is
 * already under way (a replica set's create waits for READY).
 */
const PARKED: readonly string[] = ["PAUSED", "PAUSING"];

/**
 * Why `service` (as a lookup read it) will not be running when a create of this run needs it (a
 * fork of it, a read replica set on it), as a sentence to which the caller adds its advice: this
 * run's update of it stops it, or it is stopped or stopping and no update of this run starts it.
 * Undefined when it will run. A create's own lookup has no run: it judges the record alone.
 */
export function notRunning(from: Pick<LookupFrom, "run">, service: ServiceRecord): string | undefined {
  const planned = from.run?.plannedOf("service", service.service_id) ?? [];
  if (planned.includes("stopService"))
    return `this program stops service ${service.service_id} (paused: true)`;
  if (!PARKED.includes(service.status) || planned.includes("startService")) return undefined;
  return `service ${service.service_id} is ${service.status} and this program does not start it`;
}

/** VPC `vpcId` of project `projectId`, or the sentence saying it does not exist. */
export async function existingVpc(
  from: LookupFrom,
  projectId: string,
  vpcId: string,
): Promise<VpcRecord | string> {
  const vpc =
    (from.run?.recordOf("vpc", vpcId, projectId) as VpcRecord | undefined) ??
    (await unlessGone(from.api.getVpc(projectId, vpcId)));
  return vpc ?? `VPC ${vpcId} does not exist in project ${projectId}`;
}
