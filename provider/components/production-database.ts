/**
 * `ProductionDatabase`: the production bundle as one component — a VPC (or an existing one), a
 * PROD service with HA and the connection pooler attached to it, read replica sets, an
 * optional peering, and deletion protection over all of it. The defaults are the choices an
 * SRE makes for production, so the policy pack passes on it with every rule mandatory.
 */
import * as pulumi from "@pulumi/pulumi";
import { ReadReplicaSet } from "../resources/read-replica-set";
import { Service } from "../resources/service";
import { Vpc } from "../resources/vpc";
import { VpcPeering } from "../resources/vpc-peering";

/** The peer of {@link ProductionDatabaseArgs.peering}: a VPC of another account. */
export interface ProductionDatabasePeeringArgs {
  /** Account that owns the peer VPC. */
  peerAccountId: pulumi.Input<string>;
  /** Region code of the peer VPC. Default: the database's `regionCode`. */
  peerRegionCode?: pulumi.Input<string>;
  /** Id of the peer VPC in its own cloud. */
  peerVpcId: pulumi.Input<string>;
}

/** Inputs of a {@link ProductionDatabase}. Give exactly one of `cidr` and `vpcId`. */
export interface ProductionDatabaseArgs {
  /** Project of every resource. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. */
  projectId?: pulumi.Input<string>;
  /** Region code of the service, its VPC and replica sets, e.g. `us-east-1`. */
  regionCode: pulumi.Input<string>;
  /** CPU of the service in milli-cores (a multiple of 250). */
  cpuMillis: pulumi.Input<number>;
  /** Memory of the service in GiB. */
  memoryGbs: pulumi.Input<number>;
  /**
   * IPv4 block of a new VPC for the database, e.g. `10.60.0.0/16` (the policy pack wants a
   * private /16../28 block that overlaps no other VPC of the stack). Exclusive with `vpcId`.
   */
  cidr?: pulumi.Input<string>;
  /** Id of an existing VPC (of `regionCode`) to attach the service to instead. Exclusive with `cidr`. */
  vpcId?: pulumi.Input<string>;
  /** Name of the new VPC. Default: generated from the component's name (`<name>-vpc-<suffix>`). */
  vpcName?: pulumi.Input<string>;
  /** Name of the service. Default: generated from the component's name (`<name>-db-<suffix>`). */
  serviceName?: pulumi.Input<string>;
  /**
   * `TIMESERIESDB` (or `TIMESCALEDB`, the vendor's name of the same type), `POSTGRES` or `VECTOR`.
   * Default `POSTGRES`, what the API creates with no add-on.
   */
  serviceType?: pulumi.Input<"TIMESERIESDB" | "TIMESCALEDB" | "POSTGRES" | "VECTOR">;
  /** HA replicas of the service, 1..2. Default 1: a standby to fail over to. */
  replicaCount?: pulumi.Input<number>;
  /**
   * How many HA replicas are synchronous, 0..replicaCount. Default 1: a commit waits for the
   * standby, so a failover loses no acknowledged write (at the cost of some write latency).
   */
  syncReplicaCount?: pulumi.Input<number>;
  /** Password of the service (secret, 8+ characters). Default: keep the initial password. */
  password?: pulumi.Input<string>;
  /** Database user the connection URIs name. Default `tsdbadmin`, the service's own. */
  username?: pulumi.Input<string>;
  /** Database the connection URIs name. Default `tsdb`, the service's own. */
  databaseName?: pulumi.Input<string>;
  /**
   * How many read replica sets to create, 0 or more (a plain number: it decides how many
   * resources the program declares). Default 1.
   */
  readReplicaSets?: number;
  /** Nodes of each read replica set. Default 2, so a read endpoint survives the loss of a node. */
  readReplicaNodes?: pulumi.Input<number>;
  /** CPU per node of each read replica set, in milli-cores. Default: the service's `cpuMillis`. */
  readReplicaCpuMillis?: pulumi.Input<number>;
  /** Memory per node of each read replica set, in GiB. Default: the service's `memoryGbs`. */
  readReplicaMemoryGbs?: pulumi.Input<number>;
  /** A peering from the database's VPC to a VPC of another account. Default: none. */
  peering?: ProductionDatabasePeeringArgs;
  /**
   * Whether deleting is refused. Default true. Sets the `deletionProtection` input of the
   * service and the new VPC, and Pulumi's `protect` option of every resource of the component
   * (so a `pulumi destroy` refuses before it deletes anything, rather than deleting the replicas
   * first). A plain boolean, since `protect` must be known when the program runs. To delete, set
   * it false and `pulumi up` first.
   */
  deletionProtection?: boolean;
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
  /** The PROD service. */
  readonly service: Service;
  /** The VPC the component created; undefined when given an existing `vpcId`. */
  readonly vpc: Vpc | undefined;
  /** Id of the VPC the service is attached to (the new one or the given one). */
  readonly vpcId: pulumi.Output<string>;
  /** The read replica sets, in order (`<name>-reads-1`, ...). */
  readonly replicaSets: ReadReplicaSet[];
  /** The peering, when `peering` was given. */
  readonly peering: VpcPeering | undefined;
  /** `postgres://` URI of the service (secret). */
  readonly connectionUri: pulumi.Output<string>;
  /** `postgres://` URI of the service's connection pooler (secret). */
  readonly poolerConnectionUri: pulumi.Output<string>;
  /** `postgres://` URIs of the read replica sets, in order (secret). */
  readonly readReplicaConnectionUris: pulumi.Output<string[]>;

  constructor(name: string, args: ProductionDatabaseArgs, opts?: pulumi.ComponentResourceOptions) {
    // Refuse a wrong shape before anything is registered.
    checkShape(name, args);
    const replicaCount = haReplicas(name, args.replicaCount ?? 1);
    super("mdb:index:ProductionDatabase", name, {}, opts);
    const protection = args.deletionProtection ?? true;
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
        serviceType: args.serviceType ?? "POSTGRES",
        regionCode,
        cpuMillis: args.cpuMillis,
        memoryGbs: args.memoryGbs,
        replicaCount,
        syncReplicaCount: args.syncReplicaCount ?? 1,
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
      { length: args.readReplicaSets ?? 1 },
      (_, i) =>
        new ReadReplicaSet(
          `${name}-reads-${i + 1}`,
          {
            projectId,
            serviceId: this.service.serviceId,
            nodes: args.readReplicaNodes ?? 2,
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

    this.registerOutputs({
      serviceId: this.service.serviceId,
      vpcId: this.vpcId,
      replicaSetIds: this.replicaSets.map((r) => r.replicaSetId),
      peeringId: this.peering?.peeringId,
      connectionUri: this.connectionUri,
      poolerConnectionUri: this.poolerConnectionUri,
      readReplicaConnectionUris: this.readReplicaConnectionUris,
    });
  }
}
