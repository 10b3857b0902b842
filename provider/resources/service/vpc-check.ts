/**
 * The VPC a service names, looked up before anything is created: the API attaches a service
 * only to an existing VPC of its own region, and only once the service exists, so a bad
 * `vpcId` found by the attach would leave a service behind. Read-only: one GET of the VPC.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CheckContext, OpContext, Props } from "../../kit/spec";
import { existingVpc, lookupDue, type LookupFrom } from "../../kit/lifecycle/lookups";
import type { ServiceInputs } from "./fields";

/** Why the service cannot attach to VPC `vpcId` (a rule on `vpcId`), or undefined when it can. */
export async function vpcProblem(
  from: LookupFrom,
  projectId: string,
  vpcId: string,
  regionCode: string,
): Promise<string | undefined> {
  const vpc = await existingVpc(from, projectId, vpcId);
  if (typeof vpc === "string") return `${vpc}; give the id of an existing VPC in ${regionCode}`;
  if (vpc.region_code !== regionCode)
    return (
      `VPC ${vpcId} is in region ${vpc.region_code}, but the service is in ${regionCode} (regionCode); ` +
      "a service attaches only to a VPC of its own region"
    );
  return undefined;
}

/**
 * Check-time lookup of the service's VPC, when `vpcId` is set and known and it or the region
 * changed since the last check (an unchanged pair was looked up then, and diff shows drift).
 */
export async function verifyServiceVpc(
  ctx: CheckContext,
  want: ServiceInputs,
  olds: Props,
): Promise<pulumi.dynamic.CheckFailure[]> {
  const { vpcId, regionCode } = want;
  if (vpcId === undefined || !lookupDue(want, olds, ["vpcId", "regionCode"])) return [];
  const problem = await vpcProblem(ctx, ctx.projectId, vpcId, regionCode);
  return problem ? [{ property: "vpcId", reason: problem }] : [];
}

/** Create-time lookup, before the create call: throws naming `vpcId` when the VPC is unusable. */
export async function requireServiceVpc(
  { api, ref }: OpContext<"serviceId">,
  want: ServiceInputs,
): Promise<void> {
  if (want.vpcId === undefined) return;
  const problem = await vpcProblem({ api }, ref.projectId, want.vpcId, want.regionCode);
  if (problem) throw new Error(`cannot create service ${want.name}: vpcId: ${problem}`);
}
