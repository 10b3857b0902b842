/**
 * The operations of the API in one table: the 34 of the spec (the seed, api-spec.md) and the 6 the
 * vendor's current document adds (`origin`), each with its name, id (the client's method name and
 * the emulator's handler key), method, path template, request schema, success body, success status
 * (docs/api.md#statuses), retry class, and the dialects that serve it. The client, the emulator's
 * routes, its OpenAPI documents and the conformance suite are all driven by it. What each published
 * version says of each field: versions.ts.
 */
import type { z } from "zod";
import type { Dialect } from "./dialects";
import { type OperationSpec, type PathParam } from "./operation-spec";
import { AUTH_OPERATIONS } from "./operation-rows/auth";
import { NETWORK_OPERATIONS } from "./operation-rows/network";
import { REPLICA_SET_OPERATIONS } from "./operation-rows/replica-sets";
import { SERVICE_OPERATIONS } from "./operation-rows/services";
import { VENDOR_OPERATIONS } from "./operation-rows/vendor";
import { LENIENT_BODIES, STRICT_BODIES, type ResponseBody } from "./records";

export type { OperationSpec, PathParam, RetryClass } from "./operation-spec";

const TABLE = {
  ...AUTH_OPERATIONS,
  ...SERVICE_OPERATIONS,
  ...REPLICA_SET_OPERATIONS,
  ...NETWORK_OPERATIONS,
  ...VENDOR_OPERATIONS,
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
