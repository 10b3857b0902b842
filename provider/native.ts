/**
 * pulumi-managed-db/native: the native types of the plugin `mdb` for Node.js programs. The same
 * classes, args and properties as the package's main entry, registering `mdb:index:Service`,
 * `mdb:index:ReadReplicaSet`, `mdb:index:Vpc`, `mdb:index:VpcPeering` and the component
 * `mdb:index:ProductionDatabase` instead of dynamic resources, so the plugin (not Pulumi's dynamic
 * provider host) runs them: `pulumi import`, Ctrl-C, progress under each resource, config through
 * the provider. The program's Pulumi.yaml names the plugin's folder:
 *
 * ```yaml
 * packages:
 *   mdb: ./node_modules/pulumi-managed-db/plugin
 * ```
 *
 * Each class has its dynamic type token as an alias, so a stack the main entry's classes made
 * moves over with no replacement by changing the import (README, "Moving a stack"). `Provider`
 * is the plugin's explicit provider, as a generated SDK has it (the main entry has none: dynamic
 * resources have no provider of ours to pass). Everything else is the main entry's, re-exported:
 * the functions (they run in the program, with the same `mdb:*` config) and the types.
 */
import { nativeClass } from "./adapters/plugin/construct/classes";
import { type ChildClasses, ProductionDatabase as ComponentBase } from "./components/production-database";
import { READ_REPLICA_SET, type READ_REPLICA_SET_FIELDS } from "./resources/read-replica-set/fields";
import { SERVICE, type SERVICE_FIELDS } from "./resources/service/fields";
import { VPC, type VPC_FIELDS } from "./resources/vpc/fields";
import { VPC_PEERING, type VPC_PEERING_FIELDS } from "./resources/vpc-peering/fields";

import type { ProgramClass } from "./program-resource";
import type * as main from "./index";

export * from "./index";
export { Provider, type ProviderArgs } from "./adapters/plugin/construct/provider-class";

/**
 * A managed database service, type `mdb:index:Service`. Waits until the service is READY (or
 * PAUSED) before reporting outputs. `password`, `initialPassword` and the connection outputs are
 * secret outputs. Import with the service id.
 */
export const Service: ProgramClass<typeof SERVICE_FIELDS, main.ServiceArgs, main.Service> =
  nativeClass(SERVICE);
/** A {@link Service} resource. */
export type Service = main.Service;

/**
 * A read replica set of a service, type `mdb:index:ReadReplicaSet`. Its password follows its
 * service's when the program sets none. Import with `serviceId/replicaSetId`.
 */
export const ReadReplicaSet: ProgramClass<
  typeof READ_REPLICA_SET_FIELDS,
  main.ReadReplicaSetArgs,
  main.ReadReplicaSet
> = nativeClass(READ_REPLICA_SET);
/** A {@link ReadReplicaSet} resource. */
export type ReadReplicaSet = main.ReadReplicaSet;

/** A VPC, type `mdb:index:Vpc`. Import with the VPC id. */
export const Vpc: ProgramClass<typeof VPC_FIELDS, main.VpcArgs, main.Vpc> = nativeClass(VPC);
/** A {@link Vpc} resource. */
export type Vpc = main.Vpc;

/**
 * A peering of a VPC with a VPC of the peer's cloud account, type `mdb:index:VpcPeering`. Waits
 * until the peering is active. Import with `vpcId/peeringId`.
 */
export const VpcPeering: ProgramClass<typeof VPC_PEERING_FIELDS, main.VpcPeeringArgs, main.VpcPeering> =
  nativeClass(VPC_PEERING);
/** A {@link VpcPeering} resource. */
export type VpcPeering = main.VpcPeering;

/**
 * The production bundle, type `mdb:index:ProductionDatabase`, with the native types as its
 * children: the main entry's `ProductionDatabase`, args and properties alike.
 */
export class ProductionDatabase extends ComponentBase {
  protected static override get children(): ChildClasses {
    return { Vpc, Service, ReadReplicaSet, VpcPeering } as unknown as ChildClasses;
  }
}
