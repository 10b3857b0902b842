/**
 * `Service`: a managed database service, the resource class. Its parts live in `service/`:
 * args and schema (`args.ts`), diff rules and facts (`spec.ts`), record -> outputs
 * (`outputs.ts`), the update plan (`plan.ts`) and its API calls (`provider.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import type { PgEnv } from "../kit/connection";
import { legacyEntry } from "../kit/entry";
import { SpecResource } from "../kit/register";
import type {
  EndpointOutput,
  FinalForkOptions,
  ForkFromArgs,
  ResourceOutput,
  ServiceArgs,
} from "./service/args";
import { SERVICE_SPEC } from "./service/spec";

export type {
  EndpointOutput,
  FinalForkOptions,
  ForkFromArgs,
  ResourceOutput,
  ServiceArgs,
  ServiceInputs,
  ServiceOutputs,
} from "./service/args";
export { ServiceInputsSchema } from "./service/args";
export { SERVICE_DIFF_RULES, SERVICE_SPEC } from "./service/spec";
export { serviceOutputs } from "./service/outputs";
export { serviceConnection, type ServiceConnectionOutputs, type ServiceState } from "./service/connection";
export { planServiceUpdate, type ServiceStep } from "./service/plan";

/**
 * STATE CONTRACT (see `../kit/entry.ts`): stacks written by 0.1.0 load this module,
 * `dist/provider/resources/service`, and call its `impl`. Never move, rename or remove it.
 */
export const impl = legacyEntry("service");

/**
 * A managed database service. Waits until the service is READY (or PAUSED) before
 * reporting outputs. `password`, `initialPassword` and the connection outputs
 * (`connectionUri`, `poolerConnectionUri`, `vpcConnectionUri`, `pgEnv`) are secret outputs.
 */
export class Service extends SpecResource {
  /** Id of the service. */
  declare readonly serviceId: pulumi.Output<string>;
  /** Project of the service. */
  declare readonly projectId: pulumi.Output<string>;
  /** Name of the service. */
  declare readonly name: pulumi.Output<string>;
  /** TIMESERIESDB, POSTGRES or VECTOR. */
  declare readonly serviceType: pulumi.Output<string>;
  /** Region code. */
  declare readonly regionCode: pulumi.Output<string>;
  /** CPU in milli-cores, as allocated. */
  declare readonly cpuMillis: pulumi.Output<number>;
  /** Memory in GiB, as allocated. */
  declare readonly memoryGbs: pulumi.Output<number>;
  /** Number of HA replicas. */
  declare readonly replicaCount: pulumi.Output<number>;
  /** Number of synchronous HA replicas. */
  declare readonly syncReplicaCount: pulumi.Output<number>;
  /** PROD or DEV. */
  declare readonly environment: pulumi.Output<string>;
  /** Password set through this resource (secret), if any. */
  declare readonly password: pulumi.Output<string | undefined>;
  /** Whether the connection pooler is on. */
  declare readonly connectionPooler: pulumi.Output<boolean>;
  /** VPC the service is attached to. */
  declare readonly vpcId: pulumi.Output<string | undefined>;
  /** Whether the service is paused. */
  declare readonly paused: pulumi.Output<boolean>;
  /** Fork source, as given. */
  declare readonly forkFrom: pulumi.Output<ForkFromArgs | undefined>;
  /** Status of the service (READY, PAUSED, ...). */
  declare readonly status: pulumi.Output<string>;
  /** Creation time (ISO 8601). */
  declare readonly created: pulumi.Output<string | undefined>;
  /** Host and port of the database. */
  declare readonly endpoint: pulumi.Output<EndpointOutput | undefined>;
  /** Host and port of the connection pooler, while enabled. */
  declare readonly poolerEndpoint: pulumi.Output<EndpointOutput | undefined>;
  /** VPC endpoint, while attached. */
  declare readonly vpcEndpoint: pulumi.Output<{ host?: string; port?: number; vpcId?: string } | undefined>;
  /** Compute allocated. */
  declare readonly resources: pulumi.Output<ResourceOutput[]>;
  /** HA configuration as the API reports it. */
  declare readonly haReplicas: pulumi.Output<
    { replicaCount?: number; syncReplicaCount?: number } | undefined
  >;
  /** Where a fork came from, as the API reports it. */
  declare readonly forkedFrom: pulumi.Output<
    { projectId?: string; serviceId?: string; isStandby?: boolean } | undefined
  >;
  /** Read replica sets of the service. */
  declare readonly readReplicaSets: pulumi.Output<
    Array<{ id: string; name: string; status: string; nodes: number }>
  >;
  /** Password the service was created with (secret); only known for services this stack created. */
  declare readonly initialPassword: pulumi.Output<string | undefined>;
  /** Whether deletes are refused (see {@link ServiceArgs.deletionProtection}). */
  declare readonly deletionProtection: pulumi.Output<boolean>;
  /** Database user the connection outputs name (`tsdbadmin` unless set). */
  declare readonly username: pulumi.Output<string>;
  /** Database the connection outputs name (`tsdb` unless set). */
  declare readonly databaseName: pulumi.Output<string>;
  /** Whether a delete forks the service first (see {@link ServiceArgs.finalFork}). */
  declare readonly finalFork: pulumi.Output<boolean | FinalForkOptions>;
  /**
   * `postgres://USER:PASSWORD@HOST:PORT/DB?sslmode=require` to the service (secret), with the
   * current password: `password` when set, else the initial one. Undefined for a service
   * imported without `password` (the stack does not know its password).
   */
  declare readonly connectionUri: pulumi.Output<string | undefined>;
  /** The same URI through the connection pooler, while it is on (secret). */
  declare readonly poolerConnectionUri: pulumi.Output<string | undefined>;
  /** The same URI through the VPC endpoint, while the service is attached to a VPC (secret). */
  declare readonly vpcConnectionUri: pulumi.Output<string | undefined>;
  /**
   * The libpq environment for the service's endpoint (secret): `PGHOST`, `PGPORT`, `PGUSER`,
   * `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE` (`require`). Undefined when `connectionUri` is.
   */
  declare readonly pgEnv: pulumi.Output<PgEnv | undefined>;

  constructor(name: string, args: ServiceArgs, opts?: pulumi.CustomResourceOptions) {
    super(SERVICE_SPEC, name, args, opts);
    // The service id never changes in place. Taken from the resource id, it stays known while
    // an update is previewed, so resources that use it do not show a spurious replacement.
    this.serviceId = this.id;
  }
}
