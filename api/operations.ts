/**
 * The 34 operations of the API in one table: the spec's name, the id (the client's method name and
 * the emulator's handler key), method, path template, request schema, success body, success status
 * (docs/api.md#statuses) and retry class. The client, the emulator's routes and the conformance
 * suite are all driven by it.
 */
import type { z } from "zod";
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
  /** The spec's name of the operation, e.g. `Get a Service`. */
  readonly name: string;
  /** HTTP method. */
  readonly method: "GET" | "POST" | "DELETE";
  /** Path below `{base_url}`, with the spec's placeholders: `/projects/{project_id}/services`. */
  readonly path: string;
  /** Schema of the request body; absent when the operation takes none. */
  readonly request?: z.ZodType;
  /** Kind of the success body (see {@link LENIENT_BODIES}). */
  readonly response: ResponseBody;
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

const TABLE = {
  getAuthInfo: {
    name: "Get Authentication Info",
    method: "GET",
    path: "/auth/info",
    response: "authInfo",
    status: 200,
    retry: "idempotent",
  },
  identify: {
    name: "Identify a user",
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
    method: "POST",
    path: "/analytics/track",
    request: req.TrackRequestSchema,
    response: "analyticsResult",
    status: 200,
    retry: "create",
  },
  listServices: {
    name: "List All Services",
    method: "GET",
    path: SERVICES,
    response: "serviceList",
    status: 200,
    retry: "idempotent",
  },
  createService: {
    name: "Create a Service",
    method: "POST",
    path: SERVICES,
    request: req.CreateServiceRequestSchema,
    response: "service",
    status: 202,
    retry: "create",
  },
  getService: {
    name: "Get a Service",
    method: "GET",
    path: SERVICE,
    response: "service",
    status: 200,
    retry: "idempotent",
  },
  deleteService: {
    name: "Delete a Service",
    method: "DELETE",
    path: SERVICE,
    response: "none",
    status: 202,
    retry: "idempotent",
  },
  startService: {
    name: "Start a Service",
    method: "POST",
    path: `${SERVICE}/start`,
    response: "service",
    status: 202,
    retry: "action",
  },
  stopService: {
    name: "Stop a Service",
    method: "POST",
    path: `${SERVICE}/stop`,
    response: "service",
    status: 202,
    retry: "action",
  },
  resizeService: {
    name: "Resize a Service",
    method: "POST",
    path: `${SERVICE}/resize`,
    request: req.ResizeServiceRequestSchema,
    response: "serviceOrNone",
    status: 202,
    retry: "action",
  },
  updatePassword: {
    name: "Update Service Password",
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
    method: "POST",
    path: `${SERVICE}/setEnvironment`,
    request: req.SetEnvironmentRequestSchema,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  setHA: {
    name: "Change HA Configuration for a Service",
    method: "POST",
    path: `${SERVICE}/setHA`,
    request: req.SetHaRequestSchema,
    response: "service",
    status: 202,
    retry: "action",
  },
  enablePooler: {
    name: "Enable Connection Pooler for a Service",
    method: "POST",
    path: `${SERVICE}/enablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  disablePooler: {
    name: "Disable Connection Pooler for a Service",
    method: "POST",
    path: `${SERVICE}/disablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  forkService: {
    name: "Fork a Service",
    method: "POST",
    path: `${SERVICE}/forkService`,
    request: req.ForkServiceRequestSchema,
    response: "service",
    status: 202,
    retry: "create",
  },
  attachToVpc: {
    name: "Attach Service to VPC",
    method: "POST",
    path: `${SERVICE}/attachToVPC`,
    request: req.VpcAttachmentRequestSchema,
    response: "actionResult",
    status: 202,
    retry: "action",
  },
  detachFromVpc: {
    name: "Detach Service from VPC",
    method: "POST",
    path: `${SERVICE}/detachFromVPC`,
    request: req.VpcAttachmentRequestSchema,
    response: "actionResult",
    status: 202,
    retry: "action",
  },
  listReplicaSets: {
    name: "Get Read Replica Sets",
    method: "GET",
    path: REPLICA_SETS,
    response: "replicaSetList",
    status: 200,
    retry: "idempotent",
  },
  createReplicaSet: {
    name: "Create a Read Replica Set",
    method: "POST",
    path: REPLICA_SETS,
    request: req.CreateReplicaSetRequestSchema,
    response: "replicaSet",
    status: 202,
    retry: "create",
  },
  deleteReplicaSet: {
    name: "Delete a Read Replica Set",
    method: "DELETE",
    path: REPLICA_SET,
    response: "acknowledgement",
    status: 202,
    retry: "idempotent",
  },
  resizeReplicaSet: {
    name: "Resize a Read Replica Set",
    method: "POST",
    path: `${REPLICA_SET}/resize`,
    request: req.ResizeReplicaSetRequestSchema,
    response: "actionResultOrNone",
    status: 202,
    retry: "action",
  },
  enableReplicaSetPooler: {
    name: "Enable Connection Pooler for a Read Replica",
    method: "POST",
    path: `${REPLICA_SET}/enablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  disableReplicaSetPooler: {
    name: "Disable Connection Pooler for a Read Replica",
    method: "POST",
    path: `${REPLICA_SET}/disablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  setReplicaSetEnvironment: {
    name: "Set Environment for a Read Replica",
    method: "POST",
    path: `${REPLICA_SET}/setEnvironment`,
    request: req.SetEnvironmentRequestSchema,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  listVpcs: {
    name: "List All VPCs",
    method: "GET",
    path: VPCS,
    response: "vpcList",
    status: 200,
    retry: "idempotent",
  },
  createVpc: {
    name: "Create a VPC",
    method: "POST",
    path: VPCS,
    request: req.CreateVpcRequestSchema,
    response: "vpc",
    status: 201,
    retry: "create",
  },
  getVpc: {
    name: "Get a VPC",
    method: "GET",
    path: VPC,
    response: "vpc",
    status: 200,
    retry: "idempotent",
  },
  renameVpc: {
    name: "Rename a VPC",
    method: "POST",
    path: `${VPC}/rename`,
    request: req.RenameVpcRequestSchema,
    response: "vpc",
    status: 200,
    retry: "action",
  },
  deleteVpc: {
    name: "Delete a VPC",
    method: "DELETE",
    path: VPC,
    response: "none",
    status: 204,
    retry: "idempotent",
  },
  listPeerings: {
    name: "List VPC Peerings",
    method: "GET",
    path: PEERINGS,
    response: "peeringList",
    status: 200,
    retry: "idempotent",
  },
  createPeering: {
    name: "Create a VPC Peering",
    method: "POST",
    path: PEERINGS,
    request: req.CreatePeeringRequestSchema,
    response: "peering",
    status: 201,
    retry: "create",
  },
  getPeering: {
    name: "Get a VPC Peering",
    method: "GET",
    path: PEERING,
    response: "peering",
    status: 200,
    retry: "idempotent",
  },
  deletePeering: {
    name: "Delete a VPC Peering",
    method: "DELETE",
    path: PEERING,
    response: "none",
    status: 204,
    retry: "idempotent",
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

/** The 34 operations of the spec, by id. */
export const OPERATIONS = Object.fromEntries(
  Object.entries(TABLE).map(([id, spec]) => [id, { ...spec, id, params: pathParams(spec.path) }]),
) as unknown as { readonly [Id in OperationId]: Operation<Id> };

/** Every operation id, in the table's order (auth and analytics, services, replica sets, VPCs, peerings). */
export const OPERATION_IDS = Object.keys(TABLE) as OperationId[];

/** One value per path parameter of an operation, in the order of its template. */
export type PathArgs<Id extends OperationId> = ParamTuple<Table[Id]["path"]>;
type ParamTuple<P extends string> = P extends `${string}{${string}}${infer Rest}`
  ? [string, ...ParamTuple<Rest>]
  : [];

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

/** The schema of an operation's success body in the lenient (client) or strict (conformance) reading. */
export function responseSchema(id: OperationId, reading: "lenient" | "strict"): z.ZodType {
  const kind = OPERATIONS[id].response;
  return reading === "lenient" ? LENIENT_BODIES[kind] : STRICT_BODIES[kind];
}

/** The path of an operation with its parameters filled in, in template order, each URL-encoded. */
export function fillPath(path: string, values: readonly string[]): string {
  let index = 0;
  return path.replace(/\{\w+\}/g, () => encodeURIComponent(values[index++]));
}
