/**
 * `ReadReplicaSet`: a set of read-only replicas of a service, the resource class. Its parts
 * live in `read-replica-set/`: args and schema (`args.ts`), diff rules and facts (`spec.ts`),
 * waits and the update plan (`plan.ts`), record -> outputs and its API calls (`provider.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import { legacyEntry } from "../kit/entry";
import type { EndpointOutput } from "../kit/outputs";
import { SpecResource } from "../kit/register";
import type { ReadReplicaSetArgs } from "./read-replica-set/args";
import { READ_REPLICA_SET_SPEC } from "./read-replica-set/spec";

export type {
  ReadReplicaSetArgs,
  ReadReplicaSetInputs,
  ReadReplicaSetOutputs,
} from "./read-replica-set/args";
export { ReadReplicaSetInputsSchema } from "./read-replica-set/args";
export { READ_REPLICA_SET_DIFF_RULES, READ_REPLICA_SET_SPEC } from "./read-replica-set/spec";
export { judgeReplicaSet, planReplicaSetUpdate, type ReplicaSetStep } from "./read-replica-set/plan";
export { replicaSetOutputs } from "./read-replica-set/provider";

/**
 * STATE CONTRACT (see `../kit/entry.ts`): stacks written by 0.1.0 load this module,
 * `dist/provider/resources/read-replica-set`, and call its `impl`. Never move, rename or remove it.
 */
export const impl = legacyEntry("read-replica-set");

/**
 * A read replica set of a service. Creation waits until the service is READY and the set is
 * active. The Pulumi id is `serviceId/replicaSetId`; import with that id (or
 * `projectId/serviceId/replicaSetId`).
 */
export class ReadReplicaSet extends SpecResource {
  /** Id of the set. */
  declare readonly replicaSetId: pulumi.Output<string>;
  /** Id of the service it replicates. */
  declare readonly serviceId: pulumi.Output<string>;
  /** Project of the service. */
  declare readonly projectId: pulumi.Output<string>;
  /** Name of the set. */
  declare readonly name: pulumi.Output<string>;
  /** creating, active, resizing, deleting or error. */
  declare readonly status: pulumi.Output<string>;
  /** Number of nodes, as observed. */
  declare readonly nodes: pulumi.Output<number>;
  /** CPU per node in milli-cores, as observed. */
  declare readonly cpuMillis: pulumi.Output<number>;
  /** Memory per node in GiB, as observed. */
  declare readonly memoryGbs: pulumi.Output<number>;
  /** PROD or DEV. */
  declare readonly environment: pulumi.Output<string>;
  /** Whether the connection pooler is on. */
  declare readonly connectionPooler: pulumi.Output<boolean>;
  /** Host and port of the set. */
  declare readonly endpoint: pulumi.Output<EndpointOutput | undefined>;
  /** Host and port of the connection pooler, while enabled. */
  declare readonly poolerEndpoint: pulumi.Output<EndpointOutput | undefined>;
  /** Database user `connectionUri` names (`tsdbadmin` unless set). */
  declare readonly username: pulumi.Output<string>;
  /** Database `connectionUri` names (`tsdb` unless set). */
  declare readonly databaseName: pulumi.Output<string>;
  /**
   * `postgres://USER:PASSWORD@HOST:PORT/DB?sslmode=require` to the set's read-only endpoint
   * (secret), with the service's credentials; undefined unless `password` is given.
   */
  declare readonly connectionUri: pulumi.Output<string | undefined>;

  constructor(name: string, args: ReadReplicaSetArgs, opts?: pulumi.CustomResourceOptions) {
    super(READ_REPLICA_SET_SPEC, name, args, opts);
  }
}
