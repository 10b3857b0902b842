/**
 * `VpcPeering`, the resource class, registered from its field table (`fields.ts`).
 *
 * STATE CONTRACT (see `../../pulumi-contract/provider-text.ts`): stacks written by 0.1.0 load this module,
 * `dist/provider/resources/vpc-peering`, and call its `impl`. Never move, rename or remove it.
 */
import { type HostModule, legacyEntry } from "../../pulumi-contract/provider-text";
import type { ArgsOf, OutputProps } from "../../program-types";
import type { ProgramResource } from "../../program-resource";
import { type ResourceClass, resourceClass } from "../../adapters/dynamic/register";
import { VPC_PEERING, type VPC_PEERING_FIELDS } from "./fields";

/** The provider of 0.1.0 stacks (see above). */
export const impl = legacyEntry(() => (require("../../host") as HostModule).providerOf(VPC_PEERING.kind));

/** Inputs of a {@link VpcPeering}. Every change replaces the peering (the old one is deleted first). */
export type VpcPeeringArgs = {
  [K in keyof ArgsOf<typeof VPC_PEERING_FIELDS>]: ArgsOf<typeof VPC_PEERING_FIELDS>[K];
};

/**
 * A peering from a VPC to a peer VPC of another account. Creation waits until it is active;
 * a `failed` peering fails the create but stays in the stack (and is replaced by the next
 * `pulumi up`). Replacements always delete the old peering first. The Pulumi id is
 * `vpcId/peeringId`; import with that id (or `projectId/vpcId/peeringId`).
 */
export const VpcPeering: ResourceClass<typeof VPC_PEERING_FIELDS, VpcPeeringArgs, VpcPeering> =
  resourceClass(VPC_PEERING);
/** A {@link VpcPeering} resource. */
export interface VpcPeering extends ProgramResource, OutputProps<typeof VPC_PEERING_FIELDS> {}
