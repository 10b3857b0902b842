/**
 * `ReadReplicaSet`, the resource class, registered from its field table (`fields.ts`).
 *
 * STATE CONTRACT (see `../../pulumi-contract/provider-text.ts`): stacks written by 0.1.0 load this module,
 * `dist/provider/resources/read-replica-set`, and call its `impl`. Never move, rename or remove it.
 */
import { type HostModule, legacyEntry } from "../../pulumi-contract/provider-text";
import type { ArgsOf, OutputProps } from "../../program-types";
import type { ProgramResource } from "../../program-resource";
import { type ResourceClass, resourceClass } from "../../adapters/dynamic/register";
import { READ_REPLICA_SET, type READ_REPLICA_SET_FIELDS } from "./fields";

/** The provider of 0.1.0 stacks (see above). */
export const impl = legacyEntry(() =>
  (require("../../host") as HostModule).providerOf(READ_REPLICA_SET.kind),
);

/** Inputs of a {@link ReadReplicaSet}. */
export type ReadReplicaSetArgs = {
  [K in keyof ArgsOf<typeof READ_REPLICA_SET_FIELDS>]: ArgsOf<typeof READ_REPLICA_SET_FIELDS>[K];
};

/**
 * A read replica set of a service. Creation waits until the service is READY and the set is
 * active. The Pulumi id is `serviceId/replicaSetId`; import with that id (or
 * `projectId/serviceId/replicaSetId`).
 */
export const ReadReplicaSet: ResourceClass<
  typeof READ_REPLICA_SET_FIELDS,
  ReadReplicaSetArgs,
  ReadReplicaSet
> = resourceClass(READ_REPLICA_SET);
/** A {@link ReadReplicaSet} resource. */
export interface ReadReplicaSet extends ProgramResource, OutputProps<typeof READ_REPLICA_SET_FIELDS> {}
