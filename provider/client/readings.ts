/**
 * Readings of a service record that every version of the API answers differently
 * (docs/api.md#dialects): the VPC endpoint under `vpc_endpoint` (current) or `vpcEndpoint`
 * (spec-era, deprecated since), and pause as `paused` (seed) or only as the status (vendor).
 * Readers of a service go through these, so no answer leaves a wait or a diff hanging. And the
 * statuses a service shows on its way to a settled one.
 */
import type { Service } from "../../api/schemas";

/** The VPC endpoint of a service, as any version names it. */
export interface ServiceVpcEndpoint {
  host?: string;
  port?: number;
  vpc_id?: string;
}

/** A service's VPC endpoint: `vpc_endpoint` when the record has one, else `vpcEndpoint`; undefined when detached. */
export function vpcEndpointOf(record: Service): ServiceVpcEndpoint | undefined {
  const current = (record as { vpc_endpoint?: ServiceVpcEndpoint | null }).vpc_endpoint;
  return current ?? record.vpcEndpoint ?? undefined;
}

/** The VPC a service is attached to, as any version says it; undefined when detached. */
export function vpcIdOf(record: Service): string | undefined {
  return vpcEndpointOf(record)?.vpc_id ?? undefined;
}

/** True when the service is paused or pausing: `paused` when the record has it, else its status. */
export function isPausedRecord(record: Service): boolean {
  return record.paused ?? (record.status === "PAUSED" || record.status === "PAUSING");
}

/**
 * The statuses a service passes through on its way to READY or PAUSED (docs/api.md#lifecycle),
 * and the vendor's maintenance statuses, which end by themselves: a wait shows them and goes on.
 * Any other status on the way (UNSTABLE, one the client does not know) is one a wait does not
 * expect (`kit/lifecycle/statuses.ts`).
 */
export const SERVICE_ON_THE_WAY: Readonly<Record<"READY" | "PAUSED", readonly string[]>> = {
  READY: ["QUEUED", "CONFIGURING", "RESUMING", "UPGRADING", "OPTIMIZING"],
  PAUSED: ["QUEUED", "CONFIGURING", "PAUSING", "UPGRADING", "OPTIMIZING"],
};

/**
 * The statuses of a service on its way out (docs/api.md#lifecycle): nothing new can be made from
 * or on it, it holds its name no longer, and a wait for it to settle has failed.
 */
export const SERVICE_LEAVING: readonly string[] = ["DELETING", "DELETED"];

/** True when the service is on its way out (`SERVICE_LEAVING`). */
export function isLeavingService(record: Service): boolean {
  return SERVICE_LEAVING.includes(record.status);
}
