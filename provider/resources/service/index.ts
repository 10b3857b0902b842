/**
 * `Service`, the resource class, registered from its field table (`fields.ts`).
 *
 * STATE CONTRACT (see `../../pulumi-contract/provider-text.ts`): stacks written by 0.1.0 load this module,
 * `dist/provider/resources/service`, and call its `impl`. Never move, rename or remove it.
 */
import { type HostModule, legacyEntry } from "../../pulumi-contract/provider-text";
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputProps } from "../../program-types";
import type { ProgramResource } from "../../program-resource";
import { type ResourceClass, resourceClass } from "../../adapters/dynamic/register";
import { SERVICE, type SERVICE_FIELDS, type ForkFrom } from "./fields";

export type { FinalForkOptions, ResourceOutput } from "./fields";
export type { EndpointOutput } from "../../kit/fields/outputs";

/** The provider of 0.1.0 stacks (see above). */
export const impl = legacyEntry(() => (require("../../host") as HostModule).providerOf(SERVICE.kind));

/** Inputs of a {@link Service}. */
export type ServiceArgs = { [K in keyof ArgsOf<typeof SERVICE_FIELDS>]: ArgsOf<typeof SERVICE_FIELDS>[K] };

/** Where a forked service comes from, as a program gives it (see {@link ServiceArgs.forkFrom}). */
export type ForkFromArgs = { [K in keyof ForkFrom]: pulumi.Input<ForkFrom[K]> };

/**
 * A managed database service. Waits until the service is READY (or PAUSED) before
 * reporting outputs. `password`, `initialPassword` and the connection outputs
 * (`connectionUri`, `poolerConnectionUri`, `vpcConnectionUri`, `pgEnv`) are secret outputs.
 */
export const Service: ResourceClass<typeof SERVICE_FIELDS, ServiceArgs, Service> = resourceClass(SERVICE);
/** A {@link Service} resource. */
export interface Service extends ProgramResource, OutputProps<typeof SERVICE_FIELDS> {}
