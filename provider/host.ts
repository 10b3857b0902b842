/**
 * The one module the serialized provider in users' state names
 * (`pulumi-managed-db/dist/provider/host`, see `kit/entry.ts`): a dispatch map from resource
 * kind to provider functions. It never moves, and its kinds are never renamed: state written
 * by a release keeps working with every later one. Loaded only in Pulumi's provider host.
 */
import "./compile-cache";
import type { ProviderImpl } from "./kit/lifecycle";
import type { ResourceKind } from "./kit/spec";
import { READ_REPLICA_SET_PROVIDER } from "./resources/read-replica-set/provider";
import { SERVICE_PROVIDER } from "./resources/service/provider";
import { VPC_PROVIDER } from "./resources/vpc";
import { VPC_PEERING_PROVIDER } from "./resources/vpc-peering";

/** Provider functions per resource kind. */
export const PROVIDERS: Readonly<Record<ResourceKind, ProviderImpl>> = {
  service: SERVICE_PROVIDER,
  "read-replica-set": READ_REPLICA_SET_PROVIDER,
  vpc: VPC_PROVIDER,
  "vpc-peering": VPC_PEERING_PROVIDER,
};

/** The provider functions of `kind`; a kind this release does not know is an error saying why. */
export function providerOf(kind: string): ProviderImpl {
  if (!Object.prototype.hasOwnProperty.call(PROVIDERS, kind)) {
    throw new Error(
      `pulumi-managed-db does not know the resource kind "${kind}" found in this stack's state: ` +
        "it was written by a newer release of the package; install that release or a later one",
    );
  }
  return PROVIDERS[kind as ResourceKind];
}
