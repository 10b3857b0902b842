/**
 * `Vpc`, the resource class, registered from its field table (`fields.ts`).
 *
 * STATE CONTRACT (see `../../pulumi-contract/provider-text.ts`): stacks written by 0.1.0 load this module,
 * `dist/provider/resources/vpc`, and call its `impl`. Never move, rename or remove it.
 */
import { type HostModule, legacyEntry } from "../../pulumi-contract/provider-text";
import type { ArgsOf, OutputProps } from "../../program-types";
import type { ProgramResource } from "../../program-resource";
import { type ResourceClass, resourceClass } from "../../adapters/dynamic/register";
import { VPC, type VPC_FIELDS } from "./fields";

/** The provider of 0.1.0 stacks (see above). */
export const impl = legacyEntry(() => (require("../../host") as HostModule).providerOf(VPC.kind));

/** Inputs of a {@link Vpc}. */
export type VpcArgs = { [K in keyof ArgsOf<typeof VPC_FIELDS>]: ArgsOf<typeof VPC_FIELDS>[K] };

/**
 * A VPC. Created at once. Deleting waits (up to the delete timeout) while the services or
 * peerings that use it are being deleted, and fails within about 10 s, naming them, when they
 * are not. Import with the VPC id (or `projectId/vpcId`).
 */
export const Vpc: ResourceClass<typeof VPC_FIELDS, VpcArgs, Vpc> = resourceClass(VPC);
/** A {@link Vpc} resource. */
export interface Vpc extends ProgramResource, OutputProps<typeof VPC_FIELDS> {}
