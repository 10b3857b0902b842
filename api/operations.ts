/**
 * The operations of the API in one table: the 34 of the spec (the seed, api-spec.md) and the 6 the
 * vendor's current document adds (`origin`), each with its name, id (the client's method name and
 * the emulator's handler key), method, path template, request schema, success body, success status
 * (docs/api.md#statuses), retry class, and the dialects that serve it. The client, the emulator's
 * routes, its OpenAPI documents and the conformance suite are all driven by it. What each published
 * version says of each field: versions.ts.
 */
import type { z } from "zod";
import { DIALECTS, type Dialect, type Origin } from "./dialects";
import { LENIENT_BODIES, STRICT_BODIES, type ResponseBody } from "./records";
import * as req from "./requests";

/** A path parameter of the API; all are required strings. */
export type PathParam = "project_id" | "service_id" | "replica_set_id" | "vpc_id" | "peering_id";

/**
 * How a request may be repeated after a failure that leaves its outcome unknown
 * (docs/api.md#retries):
 * - `idempotent`: reads and deletes; sending it twice has the effect of sending it once.
 * - `action`: a change to an existing resource that converges (start, resize, setEnvironment, ...):
 *   a repeat finds the change made or under way. Retried like `idempotent`.
 * - `create`: makes something new each time (creates, fork, track): repeated only when it surely
 *   was not processed (429, connection refused); otherwise the caller looks before creating again.
 */
export type RetryClass = "idempotent" | "action" | "create";

/** One row of the table. */
export interface OperationSpec {
  /** The spec's name of the operation, e.g. `Get a Service` (the vendor's summary for its additions). */
  readonly name: string;
  /** `spec`: one of the seed's 34 operations; `vendor`: an addition of the vendor's current document. */
  readonly origin: Origin;
  /** The emulator dialects that serve it (docs/api.md#dialects); a dialect without it answers 404. */
  readonly dialects: readonly Dialect[];
  /** HTTP method. */
  readonly method: "GET" | "POST" | "DELETE";
  /** Path below `{base_url}`, with the spec's placeholders: `/projects/{project_id}/services`. */
  readonly path: string;
  /**
   * Schema of the request body, as the seed dialect takes it (sizes as numbers or strings of
   * digits); absent when the operation takes none.
   */
  readonly request?: z.ZodType;
  /**
   * Schema of the request body as the vendor's current document types it, where stricter than
   * {@link request} (CURRENT_REQUESTS): what the `vendor` dialect validates with. Whatever it accepts,
   * `request` accepts.
   */
  readonly vendorRequest?: z.ZodType;
  /** Schema of the query string, for operations that take one (service logs); absent otherwise. */
  readonly query?: z.ZodType;
  /** Kind of the success body, as a client reads it in every version (see {@link LENIENT_BODIES}). */
  readonly response: ResponseBody;
  /**
   * The kind each dialect answers, where the dialects differ and {@link response} is the union a
   * client reads (renameVpc, delete replica set).
   */
  readonly answers?: { readonly [D in Dialect]: ResponseBody };
  /** HTTP status of success. */
  readonly status: 200 | 201 | 202 | 204;
  /** How a failed request may be repeated. */
  readonly retry: RetryClass;
  /** Body fields that hold secrets: never logged, removed from any error text. */
  readonly secrets?: readonly string[];
}

const SERVICES = "/projects/{project_id}/services";
const SERVICE = `${SERVICES}/{service_id}`;
const REPLICA_SETS = `${SERVICE}/replicaSets`;
const REPLICA_SET = `${REPLICA_SETS}/{replica_set_id}`;
const VPCS = "/projects/{project_id}/vpcs";
const VPC = `${VPCS}/{vpc_id}`;
const PEERINGS = `${VPC}/peerings`;
const PEERING = `${PEERINGS}/{peering_id}`;

/** Served by both dialects. */
const BOTH: readonly Dialect[] = DIALECTS;
/** Served by the vendor dialect only. */
const VENDOR_ONLY: readonly Dialect[] = ["vendor"];

const TABLE = {
  getAuthInfo: {
    name: "Get Authentication Info",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: "/auth/info",
    response: "authInfo",
    status: 200,
    retry: "idempotent",
  },
  identify: {
    name: "Identify a user",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: "/analytics/identify",
    request: req.IdentifyRequestSchema,
    response: "analyticsResult",
    status: 200,
    retry: "idempotent",
  },
  // An event counts once: never repeated blindly.
  track: {
    name: "Track an Analytics Event",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: "/analytics/track",
    request: req.TrackRequestSchema,
    response: "analyticsResult",
    status: 200,
    retry: "create",
  },
  listServices: {
    name: "List All Services",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: SERVICES,
    response: "serviceList",
    status: 200,
    retry: "idempotent",
  },
  createService: {
    name: "Create a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: SERVICES,
    request: req.CreateServiceRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.createService,
    response: "service",
    status: 202,
    retry: "create",
  },
  getService: {
    name: "Get a Service",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: SERVICE,
    response: "service",
    status: 200,
    retry: "idempotent",
  },
  deleteService: {
    name: "Delete a Service",
    origin: "spec",
    dialects: BOTH,
    method: "DELETE",
    path: SERVICE,
    response: "none",
    status: 202,
    retry: "idempotent",
  },
  startService: {
    name: "Start a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/start`,
    response: "service",
    status: 202,
    retry: "action",
  },
  stopService: {
    name: "Stop a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/stop`,
    response: "service",
    status: 202,
    retry: "action",
  },
  resizeService: {
    name: "Resize a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/resize`,
    request: req.ResizeServiceRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.resizeService,
    response: "serviceOrNone",
    status: 202,
    retry: "action",
  },
  updatePassword: {
    name: "Update Service Password",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/updatePassword`,
    request: req.UpdatePasswordRequestSchema,
    response: "none",
    status: 204,
    retry: "action",
    secrets: ["password"],
  },
  setServiceEnvironment: {
    name: "Set Environment for a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/setEnvironment`,
    request: req.SetEnvironmentRequestSchema,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  setHA: {
    name: "Change HA Configuration for a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/setHA`,
    request: req.SetHaRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.setHA,
    response: "service",
    status: 202,
    retry: "action",
  },
  enablePooler: {
    name: "Enable Connection Pooler for a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/enablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  disablePooler: {
    name: "Disable Connection Pooler for a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/disablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  forkService: {
    name: "Fork a Service",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/forkService`,
    request: req.ForkServiceRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.forkService,
    response: "service",
    status: 202,
    retry: "create",
  },
  attachToVpc: {
    name: "Attach Service to VPC",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/attachToVPC`,
    request: req.VpcAttachmentRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.attachToVpc,
    response: "actionResult",
    status: 202,
    retry: "action",
  },
  detachFromVpc: {
    name: "Detach Service from VPC",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/detachFromVPC`,
    request: req.VpcAttachmentRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.detachFromVpc,
    response: "actionResult",
    status: 202,
    retry: "action",
  },
  listReplicaSets: {
    name: "Get Read Replica Sets",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: REPLICA_SETS,
    response: "replicaSetList",
    status: 200,
    retry: "idempotent",
  },
  createReplicaSet: {
    name: "Create a Read Replica Set",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: REPLICA_SETS,
    request: req.CreateReplicaSetRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.createReplicaSet,
    response: "replicaSet",
    status: 202,
    retry: "create",
  },
  deleteReplicaSet: {
    name: "Delete a Read Replica Set",
    origin: "spec",
    dialects: BOTH,
    method: "DELETE",
    path: REPLICA_SET,
    response: "acknowledgement",
    answers: { seed: "codeMessage", vendor: "none" },
    status: 202,
    retry: "idempotent",
  },
  resizeReplicaSet: {
    name: "Resize a Read Replica Set",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${REPLICA_SET}/resize`,
    request: req.ResizeReplicaSetRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.resizeReplicaSet,
    response: "actionResultOrNone",
    status: 202,
    retry: "action",
  },
  enableReplicaSetPooler: {
    name: "Enable Connection Pooler for a Read Replica",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${REPLICA_SET}/enablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  disableReplicaSetPooler: {
    name: "Disable Connection Pooler for a Read Replica",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${REPLICA_SET}/disablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  setReplicaSetEnvironment: {
    name: "Set Environment for a Read Replica",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${REPLICA_SET}/setEnvironment`,
    request: req.SetEnvironmentRequestSchema,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  listVpcs: {
    name: "List All VPCs",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: VPCS,
    response: "vpcList",
    status: 200,
    retry: "idempotent",
  },
  createVpc: {
    name: "Create a VPC",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: VPCS,
    request: req.CreateVpcRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.createVpc,
    response: "vpc",
    status: 201,
    retry: "create",
  },
  getVpc: {
    name: "Get a VPC",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: VPC,
    response: "vpc",
    status: 200,
    retry: "idempotent",
  },
  renameVpc: {
    name: "Rename a VPC",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${VPC}/rename`,
    request: req.RenameVpcRequestSchema,
    response: "vpcOrMessage",
    answers: { seed: "vpc", vendor: "actionResult" },
    status: 200,
    retry: "action",
  },
  deleteVpc: {
    name: "Delete a VPC",
    origin: "spec",
    dialects: BOTH,
    method: "DELETE",
    path: VPC,
    response: "none",
    status: 204,
    retry: "idempotent",
  },
  listPeerings: {
    name: "List VPC Peerings",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: PEERINGS,
    response: "peeringList",
    status: 200,
    retry: "idempotent",
  },
  createPeering: {
    name: "Create a VPC Peering",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: PEERINGS,
    request: req.CreatePeeringRequestSchema,
    response: "peering",
    status: 201,
    retry: "create",
  },
  getPeering: {
    name: "Get a VPC Peering",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: PEERING,
    response: "peering",
    status: 200,
    retry: "idempotent",
  },
  deletePeering: {
    name: "Delete a VPC Peering",
    origin: "spec",
    dialects: BOTH,
    method: "DELETE",
    path: PEERING,
    response: "none",
    status: 204,
    retry: "idempotent",
  },
  // The vendor's additions (current document d7201d6); renameService is served in both dialects.
  renameService: {
    name: "Rename a Service",
    origin: "vendor",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/rename`,
    request: req.RenameServiceRequestSchema,
    response: "service",
    status: 200,
    retry: "action",
  },
  listProjects: {
    name: "List projects accessible to the authenticated caller",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "GET",
    path: "/projects",
    response: "projectList",
    status: 200,
    retry: "idempotent",
  },
  getServiceLogs: {
    name: "Get service logs",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "GET",
    path: `${SERVICE}/logs`,
    query: req.ServiceLogsQuerySchema,
    response: "serviceLogs",
    status: 200,
    retry: "idempotent",
  },
  listServiceMetricSeries: {
    name: "List available metric series",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "GET",
    path: `${SERVICE}/metrics/available-series`,
    response: "metricSeriesNames",
    status: 200,
    retry: "idempotent",
  },
  // A read sent as POST (its filters go in a body): repeating it is harmless.
  getServiceMetricSeries: {
    name: "Get a metric series",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "POST",
    path: `${SERVICE}/metrics/series`,
    request: req.MetricSeriesRequestSchema,
    response: "metricSeriesList",
    status: 200,
    retry: "idempotent",
  },
  // Revokes a refresh token; with none (API keys) it clears server-side session state, best-effort.
  logout: {
    name: "Log out and revoke refresh token",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "POST",
    path: "/auth/logout",
    request: req.LogoutRequestSchema,
    response: "none",
    status: 204,
    retry: "idempotent",
    secrets: ["refresh_token"],
  },
} as const satisfies Record<string, OperationSpec>;

type Table = typeof TABLE;

/** The id of an operation: `getService`, `createReplicaSet`, ... */
export type OperationId = keyof Table;

/** An operation of the table, with its id and the path parameters of its template, in order. */
export type Operation<Id extends OperationId = OperationId> = Table[Id] & {
  readonly id: Id;
  readonly params: readonly PathParam[];
};

/** The path parameters of a template, in order: `/a/{x}/b/{y}` gives `["x", "y"]`. */
export function pathParams(path: string): PathParam[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as PathParam);
}

/** Every operation, by id: the spec's 34 and the vendor's additions. */
export const OPERATIONS = Object.fromEntries(
  Object.entries(TABLE).map(([id, spec]) => [id, { ...spec, id, params: pathParams(spec.path) }]),
) as unknown as { readonly [Id in OperationId]: Operation<Id> };

/**
 * Every operation id, in the table's order (auth and analytics, services, replica sets, VPCs,
 * peerings, then the vendor's additions).
 */
export const OPERATION_IDS = Object.keys(TABLE) as OperationId[];

/** The ids of the spec's 34 operations (origin `spec`), in the table's order. */
export const SPEC_OPERATION_IDS = OPERATION_IDS.filter((id) => OPERATIONS[id].origin === "spec");

/** The ids of the vendor's additions (origin `vendor`), in the table's order. */
export const VENDOR_OPERATION_IDS = OPERATION_IDS.filter((id) => OPERATIONS[id].origin === "vendor");

/** The ids of the operations a dialect serves, in the table's order. */
export function operationIdsOf(dialect: Dialect): OperationId[] {
  return OPERATION_IDS.filter((id) => (OPERATIONS[id].dialects as readonly Dialect[]).includes(dialect));
}

/** The kind of success body operation `id` answers with in `dialect`. */
export function answerKind(id: OperationId, dialect: Dialect): ResponseBody {
  const op: OperationSpec = OPERATIONS[id];
  return op.answers?.[dialect] ?? op.response;
}

/**
 * The schema of a request body of operation `id` as `dialect` validates it: the current document's
 * where it is stricter (vendor), else the seed's; undefined when the operation takes no body.
 */
export function requestSchema(id: OperationId, dialect: Dialect): z.ZodType | undefined {
  const op: OperationSpec = OPERATIONS[id];
  return (dialect === "vendor" ? op.vendorRequest : undefined) ?? op.request;
}

/** One value per path parameter of an operation, in the order of its template. */
export type PathArgs<Id extends OperationId> = ParamTuple<Table[Id]["path"]>;
type ParamTuple<P extends string> = P extends `${string}{${string}}${infer Rest}`
  ? [string, ...ParamTuple<Rest>]
  : [];

/** The query of an operation as a caller writes it (`undefined` when it takes none). */
export type QueryOf<Id extends OperationId> = Table[Id] extends { query: infer S extends z.ZodType }
  ? z.input<S>
  : undefined;

/** The request body of an operation as a caller writes it (`undefined` when it takes none). */
export type RequestOf<Id extends OperationId> = Table[Id] extends { request: infer S extends z.ZodType }
  ? z.input<S>
  : undefined;

/** The request body of an operation after parsing (`undefined` when it takes none). */
export type ParsedRequestOf<Id extends OperationId> = Table[Id] extends { request: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** The success body of an operation, in the lenient reading. */
export type ResponseOf<Id extends OperationId> = z.output<(typeof LENIENT_BODIES)[Table[Id]["response"]]>;

/**
 * The schema of an operation's success body in the lenient (client) or strict (conformance) reading.
 * Given a dialect, the strict reading takes only what that dialect answers (renameVpc: the VPC in
 * `seed`, `{message}` in `vendor`); without one, what any version answers.
 */
export function responseSchema(id: OperationId, reading: "lenient" | "strict", dialect?: Dialect): z.ZodType {
  if (reading === "lenient") return LENIENT_BODIES[OPERATIONS[id].response];
  return STRICT_BODIES[dialect ? answerKind(id, dialect) : OPERATIONS[id].response];
}

/** The path of an operation with its parameters filled in, in template order, each URL-encoded. */
export function fillPath(path: string, values: readonly string[]): string {
  let index = 0;
  return path.replace(/\{\w+\}/g, () => encodeURIComponent(values[index++]));
}
