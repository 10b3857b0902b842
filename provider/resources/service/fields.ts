/**
 * `Service`, declared: its field table (every input and output once; the row's doc comment is
 * its documentation) and its facts. Type, region and fork source replace it; name, sizes, HA,
 * environment, password, pooler, VPC and pause change in place by the calls each row names
 * (`plan.ts` makes them).
 */
import { z } from "zod";
import {
  CPU_MILLIS,
  MEMORY_GBS,
  SHARED,
  canonicalServiceType,
  isSharedSpec,
  sameServiceType,
} from "../../client/constants";
import type { Service as ServiceRecord } from "../../client/schemas";
import { isPausedRecord, vpcEndpointOf, vpcIdOf } from "../../client/readings";
import { pgEnvShape } from "../../kit/fields/connection";
import { type InputsOf, type OutputsOf, type ResourceDefinition, rowsOf } from "../../kit/fields/field-table";
import { endpointOf, endpointShape } from "../../kit/fields/outputs";
import {
  DATABASE_NAME_ROW,
  DELETION_PROTECTION_ROW,
  PROJECT_ID_ROW,
  USERNAME_ROW,
} from "../../kit/fields/rows";
import {
  environmentField,
  flagField,
  haReplicasField,
  nonEmpty,
  passwordField,
  resourceName,
  sizeOrShared,
} from "../../kit/fields/rules";
import {
  type ForkFrom,
  finalForkField,
  forkFromField,
  forkedFromShape,
  haReplicasShape,
  replicaSetRefShape,
  resourceShape,
  serviceTypeField,
  vpcEndpointShape,
} from "./shapes";

export type { FinalForkOptions, ForkFrom, ResourceOutput } from "./shapes";

const { input, name, output, setting } = rowsOf<ServiceRecord>();

/** A size as the service shows it: `"shared"` when it runs on shared resources (both sizes 0). */
function sizeOf(r: ServiceRecord, size: "cpu_millis" | "memory_gbs"): number | typeof SHARED {
  const spec = r.resources?.[0]?.spec;
  if (spec && isSharedSpec(spec)) return SHARED;
  return spec?.[size] ?? 0;
}

/** Two service types are one when they are the same word or synonyms (TIMESCALEDB is TIMESERIESDB). */
function sameType(desired: unknown, observed: unknown): boolean {
  return typeof desired === "string" && typeof observed === "string"
    ? sameServiceType(desired, observed)
    : desired === observed;
}

/** A dedicated size becomes `"shared"`: the API resizes only to dedicated sizes, so this replaces. */
const toShared = (desired: unknown, observed: unknown) =>
  desired === SHARED && observed !== SHARED && observed !== undefined;

/** How a size changes: resizeService, except back to shared resources. */
const RESIZE = {
  update: ["resizeService"],
  replaceIf: toShared,
  why: `the API resizes only to dedicated sizes, so a service becomes "${SHARED}" only by being created anew`,
} as const;

/** What the stack remembers of `forkFrom`, when it names the source the record shows. */
function rememberedFork(memory: Readonly<Record<string, unknown>>, sourceId: string | undefined) {
  const fork = memory.forkFrom as ForkFrom | undefined;
  return fork && fork.serviceId === sourceId
    ? { strategy: fork.strategy, targetTime: fork.targetTime }
    : { strategy: undefined, targetTime: undefined };
}

/** The field table of {@link Service}. */
export const SERVICE_FIELDS = {
  /** Id of the service. */
  serviceId: output(z.string(), { stable: true, fromId: true, read: (r) => r.service_id }),
  /** Project of the service. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId: PROJECT_ID_ROW,
  /**
   * Name of the service, 1 to 128 characters. Default: the Pulumi resource name plus a suffix derived from the
   * project, stack and resource name (stable, so a re-run finds a service an interrupted run
   * created). Change: in place (renameService), keeping the service's id and data; on a server
   * without renameService the update fails and says how to replace the service instead
   * (the `replaceOnChanges: ["name"]` resource option).
   */
  name: name(resourceName, { update: ["renameService"] }, { read: (r) => r.name }),
  /**
   * `TIMESERIESDB`, `POSTGRES` or `VECTOR`; `TIMESCALEDB`, the vendor's name of `TIMESERIESDB`, is
   * the same type (no change between the two). Change: replace.
   */
  serviceType: input(
    serviceTypeField,
    { replace: true },
    // Read in the seed's word, so a stack keeps one value whichever word the API answers.
    { read: (r) => canonicalServiceType(r.service_type), equals: sameType },
  ),
  /** Region code, e.g. `us-east-1`. Change: replace. */
  regionCode: input(nonEmpty, { replace: true }, { read: (r) => r.region_code }),
  /**
   * CPU in milli-cores: a multiple of 250 from 250 to 64000, or `"shared"` (with `memoryGbs`) for
   * shared CPU and memory instead of a dedicated allocation. Change: in place (resizeService);
   * from dedicated back to `"shared"`: replace.
   */
  cpuMillis: input(sizeOrShared(CPU_MILLIS), RESIZE, { read: (r) => sizeOf(r, "cpu_millis") }),
  /**
   * Memory in GiB: 1 to 1024, or `"shared"` (with `cpuMillis`). Change: in place (resizeService);
   * from dedicated back to `"shared"`: replace.
   */
  memoryGbs: input(sizeOrShared(MEMORY_GBS), RESIZE, { read: (r) => sizeOf(r, "memory_gbs") }),
  /** Number of HA replicas, 0..2. Default 0. Change: in place (setHA). */
  replicaCount: input(
    haReplicasField,
    { update: ["setHA"] },
    { read: (r) => r.ha_replicas?.replica_count ?? 0 },
  ),
  /** How many HA replicas are synchronous, 0..replicaCount. Default 0. Change: in place (setHA). */
  syncReplicaCount: input(
    haReplicasField,
    { update: ["setHA"] },
    { read: (r) => r.ha_replicas?.sync_replica_count ?? 0, created: () => 0 },
  ),
  /** `PROD` or `DEV`. Default `DEV`. Change: in place (setServiceEnvironment). */
  environment: input(
    environmentField,
    { update: ["setServiceEnvironment"] },
    { read: (r) => (r.metadata?.environment === "PROD" ? "PROD" : "DEV") },
  ),
  /** Password of the service (secret, 8+ characters). Default: keep the initial password. Change: in place (updatePassword). */
  // Removing the input stops managing the password; it does not unset it.
  password: input(
    passwordField.optional(),
    { update: ["updatePassword"] },
    // A new service has its initial password: updatePassword follows the create.
    { secret: true, equals: (d, o) => d === undefined || d === o, created: () => undefined },
  ),
  /** Whether the connection pooler is on. Default false. Change: in place (enablePooler / disablePooler). */
  connectionPooler: input(
    flagField(false),
    { update: ["enablePooler", "disablePooler"] },
    { read: (r) => !!r.connection_pooler, created: () => false },
  ),
  /**
   * VPC to attach the service to, in the service's region. Checked before anything is created
   * (at preview too, when the id is known): a VPC that does not exist or is in another region
   * fails. Change: in place (detachFromVpc old, attachToVpc new).
   */
  vpcId: input(
    nonEmpty.optional(),
    { update: ["detachFromVpc", "attachToVpc"] },
    { read: vpcIdOf, created: () => undefined },
  ),
  /** Whether the service is paused. Default false. Change: in place (stopService / startService). */
  paused: input(
    flagField(false),
    { update: ["stopService", "startService"] },
    { read: isPausedRecord, created: () => false },
  ),
  /**
   * Create the service as a fork of another, of the same type and region. Checked before
   * anything is created (at preview too, when the source's id is known): a source that does not
   * exist, is being deleted, or differs in type or region fails. Change: replace.
   */
  forkFrom: input(
    forkFromField.optional(),
    { replace: true },
    {
      read: (r) =>
        r.forked_from?.service_id
          ? ({ serviceId: r.forked_from.service_id, projectId: r.forked_from.project_id } as ForkFrom)
          : undefined,
      // Strategy and time only matter at creation; an imported fork knows only its source.
      equals: (d, o) => {
        const want = d as ForkFrom | undefined;
        const have = o as ForkFrom | undefined;
        if (!want || !have) return want === have;
        return (
          want.serviceId === have.serviceId &&
          (have.strategy === undefined || want.strategy === have.strategy) &&
          (have.targetTime === undefined || want.targetTime === have.targetTime)
        );
      },
    },
  ),
  /**
   * While true, deleting the service (`pulumi destroy`, a replacement, removing it from the
   * program) fails before any API call. Default false. Change: in place, no API call; to
   * delete a protected service, set it false and run `pulumi up` first. A destroy reaches it only
   * after deleting what depends on it and beside the rest: with Pulumi's option `protect: true`
   * on every resource of the stack, `pulumi destroy` refuses before it deletes anything.
   */
  deletionProtection: DELETION_PROTECTION_ROW,
  /**
   * Database user the connection outputs name. Default `tsdbadmin`, the user the service is
   * created with. Change: in place, no API call (only the URIs change).
   */
  username: USERNAME_ROW,
  /**
   * Database the connection outputs name. Default `tsdb`, the database the service is created
   * with. Change: in place, no API call (only the URIs change).
   */
  databaseName: DATABASE_NAME_ROW,
  /**
   * Fork the service before deleting it: `true`, or the fork's `{ name?, cpuMillis?, memoryGbs? }`.
   * The delete (`pulumi destroy`, a replacement, removing the service from the program) first
   * forks the last snapshot, waits until the fork is READY and prints its id, then deletes. The
   * fork is left outside the stack, like a final snapshot. Default false. Change: in place, no
   * API call; the value the last `pulumi up` recorded is the one a delete uses.
   */
  finalFork: setting(finalForkField),
  /** Status of the service (READY, PAUSED, ...). */
  status: output(z.string(), { read: (r) => r.status }),
  /** Creation time (ISO 8601). */
  created: output(z.string().optional(), { stable: true, read: (r) => r.created }),
  /** Host and port of the database. */
  endpoint: output(endpointShape.optional(), { read: (r) => endpointOf(r.endpoint) }),
  /** Host and port of the connection pooler, while enabled. */
  poolerEndpoint: output(endpointShape.optional(), {
    read: (r) => endpointOf(r.connection_pooler?.endpoint),
  }),
  /** VPC endpoint, while attached. */
  vpcEndpoint: output(vpcEndpointShape.optional(), {
    read: (r) => {
      const vpc = vpcEndpointOf(r);
      return vpc ? { host: vpc.host, port: vpc.port, vpcId: vpc.vpc_id } : undefined;
    },
  }),
  /** Compute allocated. */
  resources: output(z.array(resourceShape), {
    read: (r) =>
      (r.resources ?? []).map((x) => ({
        id: x.id,
        cpuMillis: x.spec.cpu_millis,
        memoryGbs: x.spec.memory_gbs,
        volumeType: x.spec.volume_type,
      })),
  }),
  /** HA configuration as the API reports it. */
  haReplicas: output(haReplicasShape.optional(), {
    read: (r) =>
      r.ha_replicas
        ? { replicaCount: r.ha_replicas.replica_count, syncReplicaCount: r.ha_replicas.sync_replica_count }
        : undefined,
  }),
  /**
   * Where a fork came from: the source's project and id as the API reports them, and the
   * strategy and target time the program forked with (the stack remembers them; the API does not).
   */
  forkedFrom: output(forkedFromShape.optional(), {
    read: (r, _ref, memory) =>
      r.forked_from
        ? {
            projectId: r.forked_from.project_id,
            serviceId: r.forked_from.service_id,
            isStandby: r.forked_from.is_standby,
            ...rememberedFork(memory, r.forked_from.service_id),
          }
        : undefined,
  }),
  /**
   * Read replica sets of the service: id and name of each. Their status and sizes change with
   * every resize, which the service's outputs would only show at its next read: see each
   * `ReadReplicaSet`, or `listReadReplicaSets`.
   */
  readReplicaSets: output(z.array(replicaSetRefShape), {
    read: (r) => (r.read_replica_sets ?? []).map((x) => ({ id: x.id, name: x.name })),
  }),
  /**
   * Password the service was created with (secret); only known for services this stack created.
   * Never changes after the create, so a preview of an update keeps it known (a replica set that
   * follows it shows no change).
   */
  initialPassword: output(z.string().optional(), { secret: true, stable: true }),
  /**
   * `postgres://USER:PASSWORD@HOST:PORT/DB?sslmode=require` to the service (secret), with the
   * current password: `password` when set, else the initial one. Undefined for a service
   * imported without `password` (the stack does not know its password).
   */
  connectionUri: output(z.string().optional(), { secret: true }),
  /** The same URI through the connection pooler, while it is on (secret). */
  poolerConnectionUri: output(z.string().optional(), { secret: true }),
  /** The same URI through the VPC endpoint, while the service is attached to a VPC (secret). */
  vpcConnectionUri: output(z.string().optional(), { secret: true }),
  /**
   * The libpq environment for the service's endpoint (secret): `PGHOST`, `PGPORT`, `PGUSER`,
   * `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE` (`require`). Undefined when `connectionUri` is.
   */
  pgEnv: output(pgEnvShape.optional(), { secret: true }),
};

/**
 * A managed database service. Waits until the service is READY (or PAUSED) before
 * reporting outputs. `password`, `initialPassword` and the connection outputs
 * (`connectionUri`, `poolerConnectionUri`, `vpcConnectionUri`, `pgEnv`) are secret outputs.
 */
export const SERVICE: ResourceDefinition<typeof SERVICE_FIELDS, "serviceId"> = {
  kind: "service",
  typeName: "Service",
  label: "service",
  summary: "A managed database service.",
  id: { label: "service", parts: ["serviceId"] },
  naming: "generated",
  fields: SERVICE_FIELDS,
  absentOutputs: (inputs) => [
    ...(inputs.connectionPooler === false ? ["poolerEndpoint", "poolerConnectionUri"] : []),
    ...(inputs.vpcId === undefined ? ["vpcEndpoint", "vpcConnectionUri"] : []),
  ],
  refine: (s, ctx) => {
    if ((s.cpuMillis === SHARED) !== (s.memoryGbs === SHARED))
      ctx.addIssue({
        code: "custom",
        path: [s.cpuMillis === SHARED ? "memoryGbs" : "cpuMillis"],
        message: `must be "${SHARED}" too: a service shares CPU and memory together`,
      });
    if (s.syncReplicaCount > s.replicaCount)
      ctx.addIssue({
        code: "custom",
        path: ["syncReplicaCount"],
        message: `must not exceed replicaCount (${s.replicaCount})`,
      });
  },
};

/** Inputs of a service after check. */
export type ServiceInputs = InputsOf<typeof SERVICE_FIELDS>;
/** Outputs of a service, as the provider reports them. */
export type ServiceOutputs = OutputsOf<typeof SERVICE_FIELDS>;
