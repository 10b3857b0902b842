/**
 * `ProductionDatabase`, declared: its arguments and its outputs as data (zod objects, each
 * field with its doc comment; a `.default()` is the value the component uses when a field is
 * absent; a size has the service's and replica set's own rule, which the component checks on a
 * value the program gives plainly). The TypeScript types are inferred from these, the component
 * reads its defaults from them, and the package schema's component `mdb:index:ProductionDatabase`
 * is generated from them.
 */
import { z } from "zod";
import type { ArgsOfObject, Inputs } from "../program-types";
import { defaultOf } from "../kit/fields/field-table";
import { HA_REPLICAS } from "../client/constants";
import { cpuMillisField, memoryGbsField, nodesField, wholeIn } from "../kit/fields/rules";
import { integer, named, plain, secret } from "../kit/fields/type-facts";
import { serviceTypeField } from "../resources/service/shapes";

/** A whole number (a size or a count). */
const whole = () => integer(z.number());

/** The peer of a production database's peering: a VPC of another account. */
export const productionDatabasePeering = named(
  "ProductionDatabasePeering",
  z.object({
    /** Account that owns the peer VPC. */
    peerAccountId: z.string(),
    /** Region code of the peer VPC. Default: the database's `regionCode`. */
    peerRegionCode: z.string().optional(),
    /** Id of the peer VPC in its own cloud. */
    peerVpcId: z.string(),
  }),
);

/** Inputs of a production database. Give exactly one of `cidr` and `vpcId`. */
export const productionDatabaseArgs = z.object({
  /** Project of every resource. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. */
  projectId: z.string().optional(),
  /** Region code of the service, its VPC and replica sets, e.g. `us-east-1`. */
  regionCode: z.string(),
  /** CPU of the service in milli-cores (a multiple of 250). */
  cpuMillis: cpuMillisField,
  /** Memory of the service in GiB. */
  memoryGbs: memoryGbsField,
  /**
   * IPv4 block of a new VPC for the database, e.g. `10.60.0.0/16` (the policy pack wants a
   * private /16../28 block that overlaps no other VPC of the stack). Exclusive with `vpcId`.
   */
  cidr: z.string().optional(),
  /** Id of an existing VPC (of `regionCode`) to attach the service to instead. Exclusive with `cidr`. */
  vpcId: z.string().optional(),
  /** Name of the new VPC. Default: generated from the component's name (`<name>-vpc-<suffix>`). */
  vpcName: z.string().optional(),
  /** Name of the service. Default: generated from the component's name (`<name>-db-<suffix>`). */
  serviceName: z.string().optional(),
  /**
   * `TIMESERIESDB` (or `TIMESCALEDB`, the vendor's name of the same type), `POSTGRES` or `VECTOR`.
   * Default `POSTGRES`, what the API creates with no add-on.
   */
  serviceType: serviceTypeField.default("POSTGRES"),
  /** HA replicas of the service, 1..2. Default 1: a standby to fail over to. */
  replicaCount: wholeIn(HA_REPLICAS).default(1),
  /**
   * How many HA replicas are synchronous, 0..replicaCount. Default 1: a commit waits for the
   * standby, so a failover loses no acknowledged write (at the cost of some write latency).
   */
  syncReplicaCount: whole().default(1),
  /** Password of the service (secret, 8+ characters). Default: keep the initial password. */
  password: secret(z.string()).optional(),
  /** Database user the connection URIs name. Default `tsdbadmin`, the service's own. */
  username: z.string().optional(),
  /** Database the connection URIs name. Default `tsdb`, the service's own. */
  databaseName: z.string().optional(),
  /**
   * How many read replica sets to create, 0 or more (a plain number: it decides how many
   * resources the program declares). Default 1.
   */
  readReplicaSets: plain(whole().default(1)),
  /** Nodes of each read replica set. Default 2, so a read endpoint survives the loss of a node. */
  readReplicaNodes: nodesField.default(2),
  /** CPU per node of each read replica set, in milli-cores. Default: the service's `cpuMillis`. */
  readReplicaCpuMillis: cpuMillisField.optional(),
  /** Memory per node of each read replica set, in GiB. Default: the service's `memoryGbs`. */
  readReplicaMemoryGbs: memoryGbsField.optional(),
  /** A peering from the database's VPC to a VPC of another account. Default: none. */
  peering: plain(productionDatabasePeering.optional()),
  /**
   * Whether deleting is refused. Default true. Sets the `deletionProtection` input of the
   * service and the new VPC, and Pulumi's `protect` option of every resource of the component
   * (so a `pulumi destroy` refuses before it deletes anything, rather than deleting the replicas
   * first). A plain boolean, since `protect` must be known when the program runs. To delete, set
   * it false and `pulumi up` first.
   */
  deletionProtection: plain(z.boolean().default(true)),
});

/** The peer of {@link ProductionDatabaseArgs.peering}: a VPC of another account. */
export type ProductionDatabasePeeringArgs = ArgsOfObject<typeof productionDatabasePeering>;

/** Inputs of a production database. Give exactly one of `cidr` and `vpcId`. */
export type ProductionDatabaseArgs = {
  [K in keyof ArgsOfObject<typeof productionDatabaseArgs>]: ArgsOfObject<typeof productionDatabaseArgs>[K];
};

/** What a production database registers as its outputs (its state in the stack). */
export const productionDatabaseOutputs = z.object({
  /** Id of the PROD service. */
  serviceId: z.string(),
  /** Id of the VPC the service is attached to (the new one or the given one). */
  vpcId: z.string(),
  /** Ids of the read replica sets, in order (`<name>-reads-1`, ...). */
  replicaSetIds: z.array(z.string()),
  /** Id of the peering, when `peering` was given. */
  peeringId: z.string().optional(),
  /** `postgres://` URI of the service (secret). */
  connectionUri: secret(z.string()),
  /** `postgres://` URI of the service's connection pooler (secret). */
  poolerConnectionUri: secret(z.string()),
  /** `postgres://` URIs of the read replica sets, in order (secret). */
  readReplicaConnectionUris: secret(z.array(z.string())),
});

/** What a production database registers as its outputs. */
export type ProductionDatabaseOutputs = z.output<typeof productionDatabaseOutputs>;

/** The outputs as the component registers them: each a value or an Output (a list, of those). */
export type ProductionDatabaseRegistered = {
  [K in keyof ProductionDatabaseOutputs]: Inputs<ProductionDatabaseOutputs[K]>;
};

/** The fields of {@link productionDatabaseArgs}. */
type ArgFields = typeof productionDatabaseArgs.shape;

/** The value argument `key` takes when absent, as its `.default()` declares. */
const fallback = <K extends keyof ArgFields>(key: K) =>
  defaultOf(productionDatabaseArgs.shape[key]) as Exclude<z.output<ArgFields[K]>, undefined>;

/** The value each argument with a default takes when absent. */
export const PRODUCTION_DATABASE_DEFAULTS = {
  serviceType: fallback("serviceType"),
  replicaCount: fallback("replicaCount"),
  syncReplicaCount: fallback("syncReplicaCount"),
  readReplicaSets: fallback("readReplicaSets"),
  readReplicaNodes: fallback("readReplicaNodes"),
  deletionProtection: fallback("deletionProtection"),
};

/** The component, declared: its name (its type token is `mdb:index:<name>`), arguments and outputs. */
export const PRODUCTION_DATABASE = {
  name: "ProductionDatabase",
  args: productionDatabaseArgs,
  outputs: productionDatabaseOutputs,
} as const;

/** The component's type token, the same for the class and the native plugin's component. */
export const PRODUCTION_DATABASE_TYPE = `mdb:index:${PRODUCTION_DATABASE.name}`;
