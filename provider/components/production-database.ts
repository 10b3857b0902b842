/**
 * `ProductionDatabase`: the production bundle as one component — a VPC (or an existing one), a
 * PROD service with HA and the connection pooler attached to it, read replica sets, an
 * optional peering, and deletion protection over all of it. The defaults are the choices an
 * SRE makes for production, so the policy pack passes on it with every rule mandatory.
 */
import * as pulumi from "@pulumi/pulumi";
import { safeParseInputs } from "../kit/messages/input-errors";
import { ReadReplicaSet } from "../resources/read-replica-set";
import { Service } from "../resources/service";
import { Vpc } from "../resources/vpc";
import { VpcPeering } from "../resources/vpc-peering";
import {
  PRODUCTION_DATABASE_DEFAULTS as DEFAULTS,
  PRODUCTION_DATABASE_TYPE,
  type ProductionDatabaseArgs,
  productionDatabaseArgs,
  type ProductionDatabaseOutputs,
  type ProductionDatabaseRegistered,
} from "./production-database-args";

export type { ProductionDatabaseArgs, ProductionDatabasePeeringArgs } from "./production-database-args";

/**
 * The classes a {@link ProductionDatabase} makes its children with: the dynamic classes in a
 * Node.js program; the native types (`mdb:index:*`) when the plugin builds it for a program in
 * another language (Construct). Both take the same args and have the same properties.
 */
export interface ChildClasses {
  /** The VPC's class. */
  Vpc: typeof Vpc;
  /** The service's class. */
  Service: typeof Service;
  /** The read replica sets' class. */
  ReadReplicaSet: typeof ReadReplicaSet;
  /** The peering's class. */
  VpcPeering: typeof VpcPeering;
}

/**
 * Throws for a value the program gives plainly (a number, text or a flag, not an Output) that its
 * declared rule refuses: a size the service's or replica set's own check would refuse once the
 * children are registered, said here in the component's words, before anything is registered.
 * Only numbers are quoted back (a text may be a secret).
 */
function checkKnownValues(name: string, args: ProductionDatabaseArgs): void {
  for (const [key, type] of Object.entries(productionDatabaseArgs.shape)) {
    const value = (args as Record<string, unknown>)[key];
    if (!["number", "string", "boolean"].includes(typeof value)) continue;
    const parsed = safeParseInputs(type, value);
    if (!parsed.success) {
      const rule = parsed.error.issues[0]?.message ?? "is invalid";
      throw new Error(
        `ProductionDatabase "${name}": ${key} ${rule}${typeof value === "number" ? ` (got ${value})` : ""}`,
      );
    }
  }
}

/** Throws unless exactly one of `cidr` and `vpcId` is given, and the count is a whole number. */
function checkShape(name: string, args: ProductionDatabaseArgs): void {
  if ((args.cidr === undefined) === (args.vpcId === undefined))
    throw new Error(
      `ProductionDatabase "${name}": give exactly one of cidr (a new VPC) and vpcId (an existing VPC)`,
    );
  const sets = args.readReplicaSets;
  if (sets !== undefined && !(Number.isInteger(sets) && sets >= 0))
    throw new Error(
      `ProductionDatabase "${name}": readReplicaSets must be a whole number, 0 or more (got ${sets})`,
    );
}

/** `replicaCount`, refused below 1 (the component promises HA), whether plain or an Output. */
function haReplicas(name: string, replicaCount: pulumi.Input<number>): pulumi.Input<number> {
  const check = (n: number) => {
    if (n < 1)
      throw new Error(`ProductionDatabase "${name}": replicaCount must be at least 1 for HA (got ${n})`);
    return n;
  };
  return typeof replicaCount === "number" ? check(replicaCount) : pulumi.output(replicaCount).apply(check);
}

/**
 * A production database: a PROD service with HA (a synchronous standby by default) and the
 * connection pooler, attached to a new VPC (`cidr`) or an existing one (`vpcId`), with read
 * replica sets sized like the service, an optional peering, and deletion protection. Type
 * token `mdb:index:ProductionDatabase`; children are named `<name>-vpc`, `<name>-db`,
 * `<name>-reads-<n>` and `<name>-peering`.
 *
 * ```ts
 * const db = new mdb.ProductionDatabase("orders", {
 *   regionCode: "us-east-1", cpuMillis: 2000, memoryGbs: 8, cidr: "10.60.0.0/16",
 * });
 * export const connectionUri = db.connectionUri; // secret
 * ```
 */
export class ProductionDatabase extends pulumi.ComponentResource {
  /** The classes of its children (see {@link ChildClasses}); a subclass may make them others. */
  protected static get children(): ChildClasses {
    return { Vpc, Service, ReadReplicaSet, VpcPeering };
  }
  /** The PROD service. */
  readonly service: Service;
  /** The VPC the component created; undefined when given an existing `vpcId`. */
  readonly vpc: Vpc | undefined;
  /** Id of the VPC the service is attached to (the new one or the given one). */
  readonly vpcId: pulumi.Output<ProductionDatabaseOutputs["vpcId"]>;
  /** The read replica sets, in order (`<name>-reads-1`, ...). */
  readonly replicaSets: ReadReplicaSet[];
  /** The peering, when `peering` was given. */
  readonly peering: VpcPeering | undefined;
  /** `postgres://` URI of the service (secret). */
  readonly connectionUri: pulumi.Output<ProductionDatabaseOutputs["connectionUri"]>;
  /** `postgres://` URI of the service's connection pooler (secret). */
  readonly poolerConnectionUri: pulumi.Output<ProductionDatabaseOutputs["poolerConnectionUri"]>;
  /** `postgres://` URIs of the read replica sets, in order (secret). */
  readonly readReplicaConnectionUris: pulumi.Output<ProductionDatabaseOutputs["readReplicaConnectionUris"]>;

  /** What it registers as its outputs (the schema's outputs of `mdb:index:ProductionDatabase`). */
  protected readonly registered: ProductionDatabaseRegistered;

  constructor(name: string, args: ProductionDatabaseArgs, opts?: pulumi.ComponentResourceOptions) {
    // Refuse a wrong shape before anything is registered.
    checkShape(name, args);
    checkKnownValues(name, args);
    const replicaCount = haReplicas(name, args.replicaCount ?? DEFAULTS.replicaCount);
    super(PRODUCTION_DATABASE_TYPE, name, {}, opts);
    const { Vpc, Service, ReadReplicaSet, VpcPeering } = (new.target as typeof ProductionDatabase).children;
    const protection = args.deletionProtection ?? DEFAULTS.deletionProtection;
    // Pulumi's `protect` beside `deletionProtection`: the engine refuses a destroy before it deletes
    // anything, where the provider learns of it only at each resource's delete. Without deletion
    // protection, children inherit the component's own `protect` option.
    const protectedChild: pulumi.CustomResourceOptions = {
      parent: this,
      ...(protection ? { protect: true } : {}),
    };
    const { projectId, regionCode } = args;

    this.vpc =
      args.cidr === undefined
        ? undefined
        : new Vpc(
            `${name}-vpc`,
            { projectId, name: args.vpcName, cidr: args.cidr, regionCode, deletionProtection: protection },
            protectedChild,
          );
    this.vpcId = this.vpc ? this.vpc.vpcId : pulumi.output(args.vpcId as pulumi.Input<string>);

    this.service = new Service(
      `${name}-db`,
      {
        projectId,
        name: args.serviceName,
        serviceType: args.serviceType ?? DEFAULTS.serviceType,
        regionCode,
        cpuMillis: args.cpuMillis,
        memoryGbs: args.memoryGbs,
        replicaCount,
        syncReplicaCount: args.syncReplicaCount ?? DEFAULTS.syncReplicaCount,
        environment: "PROD",
        connectionPooler: true,
        password: args.password,
        username: args.username,
        databaseName: args.databaseName,
        vpcId: this.vpcId,
        deletionProtection: protection,
      },
      protectedChild,
    );

    this.replicaSets = Array.from(
      { length: args.readReplicaSets ?? DEFAULTS.readReplicaSets },
      (_, i) =>
        new ReadReplicaSet(
          `${name}-reads-${i + 1}`,
          {
            projectId,
            serviceId: this.service.serviceId,
            nodes: args.readReplicaNodes ?? DEFAULTS.readReplicaNodes,
            cpuMillis: args.readReplicaCpuMillis ?? args.cpuMillis,
            memoryGbs: args.readReplicaMemoryGbs ?? args.memoryGbs,
            environment: "PROD",
            // Its URI follows the service's current password by itself (`serviceId` is the
            // service's id: `ReadReplicaSet`'s `password` row).
            username: args.username,
            databaseName: args.databaseName,
          },
          protectedChild,
        ),
    );

    this.peering = args.peering
      ? new VpcPeering(
          `${name}-peering`,
          {
            projectId,
            vpcId: this.vpcId,
            peerAccountId: args.peering.peerAccountId,
            peerRegionCode: args.peering.peerRegionCode ?? regionCode,
            peerVpcId: args.peering.peerVpcId,
          },
          protectedChild,
        )
      : undefined;

    // Secret here too, whatever the children's outputs are marked. Always defined: the
    // component creates the service, so its password is known, and turns the pooler on.
    const defined = (uri: pulumi.Output<string | null | undefined>) =>
      pulumi.secret(uri) as pulumi.Output<string>;
    this.connectionUri = defined(this.service.connectionUri);
    this.poolerConnectionUri = defined(this.service.poolerConnectionUri);
    this.readReplicaConnectionUris = pulumi.secret(
      pulumi.all(this.replicaSets.map((r) => r.connectionUri)),
    ) as pulumi.Output<string[]>;

    const registered: ProductionDatabaseRegistered = (this.registered = {
      serviceId: this.service.serviceId,
      vpcId: this.vpcId,
      replicaSetIds: this.replicaSets.map((r) => r.replicaSetId),
      peeringId: this.peering?.peeringId,
      connectionUri: this.connectionUri,
      poolerConnectionUri: this.poolerConnectionUri,
      readReplicaConnectionUris: this.readReplicaConnectionUris,
    });
    this.registerOutputs(registered);
  }
}
