/**
 * The records a new resource names by id and cannot be made without (a service's VPC and fork
 * source, a read replica set's service, a peering's VPC), looked up read-only: at check, so a
 * preview names the bad id before anything is created, and again before a create.
 */
import type { MdbApi } from "../../client/api";
import { isLeavingService } from "../../client/readings";
import type { Service as ServiceRecord, Vpc as VpcRecord } from "../../client/schemas";
import { isUnknown } from "../fields/check";
import { unlessGone } from "./delete";
import type { Props } from "../spec";

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
  api: MdbApi,
  projectId: string,
  serviceId: string,
): Promise<ServiceRecord | string> {
  const service = await unlessGone(api.getService(projectId, serviceId));
  if (service === undefined) return `service ${serviceId} does not exist in project ${projectId}`;
  if (isLeavingService(service)) return `service ${serviceId} is being deleted (${service.status})`;
  return service;
}

/** VPC `vpcId` of project `projectId`, or the sentence saying it does not exist. */
export async function existingVpc(
  api: MdbApi,
  projectId: string,
  vpcId: string,
): Promise<VpcRecord | string> {
  const vpc = await unlessGone(api.getVpc(projectId, vpcId));
  return vpc ?? `VPC ${vpcId} does not exist in project ${projectId}`;
}
