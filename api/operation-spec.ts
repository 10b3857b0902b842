/**
 * What a row of the operation table (api/operations.ts) is made of, and the path templates and
 * dialect sets the rows share.
 */
import type { z } from "zod";
import { DIALECTS, type Dialect, type Origin } from "./dialects";
import type { ResponseBody } from "./records";

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

/** Path template. */
export const SERVICES = "/projects/{project_id}/services";
/** Path template. */
export const SERVICE = `${SERVICES}/{service_id}`;
/** Path template. */
export const REPLICA_SETS = `${SERVICE}/replicaSets`;
/** Path template. */
export const REPLICA_SET = `${REPLICA_SETS}/{replica_set_id}`;
/** Path template. */
export const VPCS = "/projects/{project_id}/vpcs";
/** Path template. */
export const VPC = `${VPCS}/{vpc_id}`;
/** Path template. */
export const PEERINGS = `${VPC}/peerings`;
/** Path template. */
export const PEERING = `${PEERINGS}/{peering_id}`;

/** Served by both dialects. */
export const BOTH: readonly Dialect[] = DIALECTS;
/** Served by the vendor dialect only. */
export const VENDOR_ONLY: readonly Dialect[] = ["vendor"];
