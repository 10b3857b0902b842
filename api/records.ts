/**
 * The records the API answers with, in two readings (docs/api.md#readings):
 *
 * - lenient, for clients: unknown fields are kept and unknown enum strings accepted, so a newer API
 *   does not break an older client;
 * - strict, for conformance: a field the spec does not document fails, except the emulator's
 *   documented extensions ({@link EMULATOR_EXTENSIONS}), and enums take only their listed values.
 *
 * Both readings come from one definition per record, so they cannot drift apart.
 */
import { z } from "zod";
import {
  ENVIRONMENTS,
  PEERING_STATUSES,
  RECORD_SERVICE_TYPES,
  REPLICA_SET_STATUSES,
  SERVICE_STATUSES,
} from "./enums";

/** Accepts one of the known values, or any other string the API may add later. */
function lenientEnum<T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]);
}

/** How a record schema treats what the spec does not list: object keys and enum values. */
interface Reading {
  object: typeof z.looseObject;
  oneOf: typeof lenientEnum;
}

const LENIENT: Reading = { object: z.looseObject, oneOf: lenientEnum };
// Typed as the lenient reading on purpose: whatever the strict reading accepts, the lenient one
// accepts too, so one static type serves both.
const STRICT: Reading = {
  object: z.strictObject as unknown as typeof z.looseObject,
  oneOf: z.enum as unknown as typeof lenientEnum,
};

/**
 * Fields the emulator adds to records beyond the spec (docs/api.md#extensions). Both readings know
 * them; the strict reading accepts no other undocumented field.
 */
export const EMULATOR_EXTENSIONS = {
  /** A read replica set in `error` says why. */
  readReplicaSet: {
    error_message: z.string().optional().meta({
      description: "Emulator extension: why the read replica set is in `error`. Present only then.",
      "x-mdb-extension": true,
    }),
  },
  /**
   * An UNSTABLE service says why: the word the vendor's document uses for a failed peering, and
   * this API for a replica set in `error`.
   */
  service: {
    error_message: z.string().optional().meta({
      description:
        "Emulator extension: why the service is UNSTABLE (with --databases, the reason its PostgreSQL server failed). Present only while UNSTABLE.",
      "x-mdb-extension": true,
    }),
  },
} as const;

const int = z.number().int();

/** A VPC endpoint as records carry it. */
type VpcEndpointValue = { host?: string; port?: number; vpc_id?: string } & Record<string, unknown>;

/**
 * The normalisation of a service record (see `Service` in recordSchemas): one VPC endpoint under
 * both names, and `paused` always set (typed optional so records written by hand, in tests, need
 * not state it).
 */
function normaliseService<
  T extends {
    status: string;
    paused?: boolean;
    vpc_endpoint?: VpcEndpointValue | null;
    vpcEndpoint?: VpcEndpointValue | null;
  },
>(service: T): T & { paused?: boolean; vpc_endpoint?: VpcEndpointValue; vpcEndpoint?: VpcEndpointValue } {
  const endpoint = service.vpc_endpoint ?? service.vpcEndpoint ?? undefined;
  const normalised = {
    ...service,
    paused: service.paused ?? (service.status === "PAUSED" || service.status === "PAUSING"),
    vpc_endpoint: endpoint,
    vpcEndpoint: endpoint,
  };
  if (!endpoint) {
    delete normalised.vpc_endpoint;
    delete normalised.vpcEndpoint;
  }
  return normalised;
}

/** Every record and answer shape of the API, in one reading. */
function recordSchemas(read: Reading) {
  const Endpoint = read.object({ host: z.string(), port: int });
  const Metadata = read.object({ environment: read.oneOf(ENVIRONMENTS).optional() });
  const ConnectionPooler = read.object({ endpoint: Endpoint.optional() });
  // Both sizes are SHARED_SIZE (0) for a shared-resource service: integers in either case.
  const Resource = read.object({
    id: z.string(),
    spec: read.object({ cpu_millis: int, memory_gbs: int, volume_type: z.string().optional() }),
  });
  const ReadReplicaSet = read.object({
    id: z.string(),
    name: z.string(),
    status: read.oneOf(REPLICA_SET_STATUSES),
    nodes: int,
    cpu_millis: int,
    memory_gbs: int,
    metadata: Metadata.optional(),
    endpoint: Endpoint.optional(),
    connection_pooler: ConnectionPooler.optional(),
    ...EMULATOR_EXTENSIONS.readReplicaSet,
  });
  // The seed does not show the fields of `vpcEndpoint`; the current document lists these three. Any
  // are accepted, in both readings.
  const VpcEndpoint = z.looseObject({
    host: z.string().optional(),
    port: int.optional(),
    vpc_id: z.string().optional(),
  });
  const ForkedFrom = read.object({
    project_id: z.string().optional(),
    service_id: z.string().optional(),
    is_standby: z.boolean().optional(),
  });
  const HaReplicas = read.object({
    sync_replica_count: int.optional(),
    replica_count: int.optional(),
  });
  // The current document's resource usage of a service (every field nullable).
  const ServiceMetrics = read.object({
    memory_mb: int.nullable().optional(),
    storage_mb: int.nullable().optional(),
    milli_cpu: int.nullable().optional(),
  });
  // A service as every version answers it (docs/api.md#dialects): `service_type` TIMESERIESDB or
  // TIMESCALEDB (one type, see canonicalServiceType); `paused` (seed, spec-era) or none (current);
  // `vpcEndpoint` (seed, spec-era), `vpc_endpoint` (current) or both (current, with the deprecated
  // name). The parsed record is normalised so that readers see one answer whatever was sent:
  // `vpc_endpoint` and `vpcEndpoint` both hold the endpoint sent under either name (absent when none
  // or null), and `paused` is always a boolean, derived from the status (PAUSED or PAUSING) when
  // the answer has none.
  const Service = read
    .object({
      service_id: z.string(),
      project_id: z.string(),
      name: z.string(),
      region_code: z.string(),
      service_type: read.oneOf(RECORD_SERVICE_TYPES),
      created: z.string().optional(),
      initial_password: z.string().optional(),
      paused: z.boolean().optional(),
      status: read.oneOf(SERVICE_STATUSES),
      resources: z.array(Resource).optional(),
      metrics: ServiceMetrics.nullable().optional(),
      metadata: Metadata.optional(),
      endpoint: Endpoint.optional(),
      vpc_endpoint: VpcEndpoint.nullable().optional(),
      vpcEndpoint: VpcEndpoint.nullable().optional(),
      forked_from: ForkedFrom.nullable().optional(),
      ha_replicas: HaReplicas.nullable().optional(),
      connection_pooler: ConnectionPooler.nullable().optional(),
      read_replica_sets: z.array(ReadReplicaSet).nullable().optional(),
      ...EMULATOR_EXTENSIONS.service,
    })
    .transform(normaliseService);
  const Vpc = read.object({ id: z.string(), name: z.string(), cidr: z.string(), region_code: z.string() });
  const VpcPeering = read.object({
    id: z.string(),
    peer_account_id: z.string(),
    peer_region_code: z.string(),
    peer_vpc_id: z.string(),
    provisioned_id: z.string().nullable().optional(),
    status: read.oneOf(PEERING_STATUSES),
    error_message: z.string().nullable().optional(),
  });
  const ActionResult = read.object({ message: z.string() });
  // renameVpc: the VPC (seed, spec-era) or `{message}` (current). The VPC is tried first: it
  // carries no `message`, and a `{message}` carries none of its required fields.
  const VpcOrMessage = z.union([Vpc, ActionResult]);
  const Project = read.object({ id: z.string(), name: z.string() });
  const ServiceLogEntry = read.object({ timestamp: z.string(), message: z.string(), severity: z.string() });
  // Service logs (current document only): `logs` (deprecated, lines) and `entries` (structured);
  // `last_cursor` or its deprecated alias `lastCursor`, read as `last_cursor`.
  const ServiceLogs = read
    .object({
      logs: z.array(z.string()),
      entries: z.array(ServiceLogEntry).optional(),
      last_cursor: z.string().optional(),
      lastCursor: z.string().optional(),
    })
    .transform((body) => {
      const cursor = body.last_cursor ?? body.lastCursor;
      return cursor === undefined ? body : { ...body, last_cursor: cursor };
    });
  const MetricSeries = read.object({
    labels: z.record(z.string(), z.string()),
    data: z.array(read.object({ time: z.string(), value: z.number().nullable().optional() })),
  });
  const AnalyticsResult = read.object({ status: z.string() });
  const ErrorBody = read.object({ code: z.string(), message: z.string() });
  const ApiKey = read.object({
    public_key: z.string(),
    name: z.string().optional(),
    created: z.string().optional(),
    project: read.object({ id: z.string(), name: z.string().optional(), plan_type: z.string().optional() }),
    issuing_user: read
      .object({ id: z.string().optional(), name: z.string().optional(), email: z.string().optional() })
      .optional(),
  });
  // `api_key` is the key's current name, `apiKey` its deprecated alias: either is read, and the
  // parsed value always has `apiKey`, so readers of the old name keep working.
  const AuthInfo = read
    .object({ type: z.string(), api_key: ApiKey.optional(), apiKey: ApiKey.optional() })
    .refine((info) => info.api_key !== undefined || info.apiKey !== undefined, {
      message: "has neither api_key nor apiKey",
      path: ["api_key"],
    })
    .transform((info) => ({ ...info, apiKey: (info.apiKey ?? info.api_key)! }));
  return {
    Endpoint,
    Metadata,
    ConnectionPooler,
    Resource,
    ReadReplicaSet,
    VpcEndpoint,
    ForkedFrom,
    HaReplicas,
    ServiceMetrics,
    Service,
    Vpc,
    VpcPeering,
    ActionResult,
    VpcOrMessage,
    Project,
    ServiceLogEntry,
    ServiceLogs,
    MetricSeries,
    AnalyticsResult,
    ErrorBody,
    AuthInfo,
  };
}

/** Every record schema in the lenient reading, for clients. */
export const LENIENT_RECORDS = recordSchemas(LENIENT);
/** Every record schema in the strict reading, for conformance (typed like the lenient reading). */
export const STRICT_RECORDS = recordSchemas(STRICT);

/** The success bodies of the operations, by kind (docs/api.md#statuses), in one reading. */
function responseBodies(records: typeof LENIENT_RECORDS, strict: boolean) {
  return {
    /** No body. The lenient reading tolerates one and ignores it. */
    none: strict ? z.undefined() : z.unknown(),
    /**
     * Delete replica set: `{code, message}`, as the seed shows, or none, as the vendor's documents
     * show; both readings take both (conformance checks each dialect's own).
     */
    acknowledgement: records.ErrorBody.optional(),
    /** `{code, message}` as the seed dialect answers delete replica set. */
    codeMessage: records.ErrorBody,
    /**
     * The service record, as the current API answers service resize; the lenient reading tolerates
     * none, as the spec-era API answered (docs/api.md#statuses).
     */
    serviceOrNone: strict ? records.Service : records.Service.optional(),
    /**
     * `{message}`, as the current API answers replica set resize; the lenient reading tolerates
     * none, as the spec-era API answered.
     */
    actionResultOrNone: strict ? records.ActionResult : records.ActionResult.optional(),
    authInfo: records.AuthInfo,
    analyticsResult: records.AnalyticsResult,
    actionResult: records.ActionResult,
    service: records.Service,
    serviceList: z.array(records.Service),
    replicaSet: records.ReadReplicaSet,
    replicaSetList: z.array(records.ReadReplicaSet),
    vpc: records.Vpc,
    /** renameVpc: the VPC (seed, spec-era) or `{message}` (current), in both readings. */
    vpcOrMessage: records.VpcOrMessage,
    vpcList: z.array(records.Vpc),
    projectList: z.array(records.Project),
    serviceLogs: records.ServiceLogs,
    /** Names of the metric series of a service. */
    metricSeriesNames: z.array(z.string()),
    metricSeriesList: z.array(records.MetricSeries),
    peering: records.VpcPeering,
    peeringList: z.array(records.VpcPeering),
  };
}

/** Success bodies of the operations in the lenient reading (what the client parses). */
export const LENIENT_BODIES = responseBodies(LENIENT_RECORDS, false);
/** Success bodies of the operations in the strict reading (what conformance parses). */
export const STRICT_BODIES = responseBodies(STRICT_RECORDS, true);
/** The kind of success body of an operation: `service`, `none`, ... */
export type ResponseBody = keyof typeof LENIENT_BODIES;

/** Host and port of a service, pooler or replica set. */
export const EndpointSchema = LENIENT_RECORDS.Endpoint;
/** Host and port of a service, pooler or replica set. */
export type Endpoint = z.output<typeof EndpointSchema>;
/** Element of a service's `resources`: the compute allocated to it. */
export const ResourceSchema = LENIENT_RECORDS.Resource;
/** Element of a service's `resources`. */
export type Resource = z.output<typeof ResourceSchema>;
/** `connection_pooler` of a service or replica set, present while the pooler is enabled. */
export const ConnectionPoolerSchema = LENIENT_RECORDS.ConnectionPooler;
/** Environment metadata of a service or replica set. */
export const MetadataSchema = LENIENT_RECORDS.Metadata;
/** `vpc_endpoint` (and deprecated `vpcEndpoint`) of a service attached to a VPC. */
export const VpcEndpointSchema = LENIENT_RECORDS.VpcEndpoint;
/** `forked_from` of a forked service. */
export const ForkedFromSchema = LENIENT_RECORDS.ForkedFrom;
/** `ha_replicas` of a service. */
export const HaReplicasSchema = LENIENT_RECORDS.HaReplicas;
/** A read replica set record. */
export const ReadReplicaSetSchema = LENIENT_RECORDS.ReadReplicaSet;
/** A read replica set record. */
export type ReadReplicaSet = z.output<typeof ReadReplicaSetSchema>;
/** A service record. */
export const ServiceSchema = LENIENT_RECORDS.Service;
/** A service record. */
export type Service = z.output<typeof ServiceSchema>;
/** A project the credentials can reach (`GET /projects`, current document). */
export const ProjectSchema = LENIENT_RECORDS.Project;
/** A project the credentials can reach. */
export type Project = z.output<typeof ProjectSchema>;
/** Answer of service logs (current document): lines, structured entries and a cursor. */
export const ServiceLogsSchema = LENIENT_RECORDS.ServiceLogs;
/** Answer of service logs, read: `last_cursor` set from `lastCursor` when only that came. */
export type ServiceLogs = z.output<typeof ServiceLogsSchema>;
/** One labeled metric series of a service with its per-bucket points (current document, preview). */
export const MetricSeriesSchema = LENIENT_RECORDS.MetricSeries;
/** One labeled metric series of a service. */
export type MetricSeries = z.output<typeof MetricSeriesSchema>;
/** Resource usage of a service (`metrics`, current document). */
export const ServiceMetricsSchema = LENIENT_RECORDS.ServiceMetrics;
/** A VPC record. */
export const VpcSchema = LENIENT_RECORDS.Vpc;
/** A VPC record. */
export type Vpc = z.output<typeof VpcSchema>;
/** A VPC peering record. */
export const VpcPeeringSchema = LENIENT_RECORDS.VpcPeering;
/** A VPC peering record. */
export type VpcPeering = z.output<typeof VpcPeeringSchema>;
/** Answer of the actions that report a message (attach, pooler, environment). */
export const ActionResultSchema = LENIENT_RECORDS.ActionResult;
/** Answer of an action that reports a message. */
export type ActionResult = z.output<typeof ActionResultSchema>;
/** Answer of analytics identify and track. */
export const AnalyticsResultSchema = LENIENT_RECORDS.AnalyticsResult;
/** Answer of analytics identify and track. */
export type AnalyticsResult = z.output<typeof AnalyticsResultSchema>;
/** Body of every 4xx/5xx answer, and of delete replica set. */
export const ErrorBodySchema = LENIENT_RECORDS.ErrorBody;
/** Body of every error answer. */
export type ErrorBody = z.output<typeof ErrorBodySchema>;
/** Answer of `GET /auth/info`: who the credentials belong to, as `api_key` or `apiKey` or both. */
export const AuthInfoSchema = LENIENT_RECORDS.AuthInfo;
/** Answer of `GET /auth/info`, read: `apiKey` always set (from `api_key` when only that came). */
export type AuthInfo = z.output<typeof AuthInfoSchema>;
