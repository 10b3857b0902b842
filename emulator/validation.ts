/**
 * Request body and query parsing of the emulator (API and admin routes): a bad one is answered 400
 * INVALID_REQUEST with one `field: message` per offending field. The API's request schemas and the
 * limits they enforce are api/requests.ts.
 */
import type { z } from "zod";
import { describeIssues } from "../api/requests";
import { ApiError } from "./errors";

/**
 * Parses a request body, or throws 400 INVALID_REQUEST naming each offending field.
 * An absent body (no content) is parsed as `{}` when `emptyIsObject`, for bodies whose fields are
 * all optional; otherwise it fails as `(body): ...`.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, emptyIsObject = false): T {
  const result = schema.safeParse(body === undefined && emptyIsObject ? {} : body);
  if (!result.success) throw new ApiError(400, "INVALID_REQUEST", describeIssues(result.error));
  return result.data;
}

/**
 * Parses a query string (as fastify read it: repeated keys as arrays), or throws 400
 * INVALID_REQUEST naming each offending parameter.
 */
export function parseQuery<T>(schema: z.ZodType<T>, query: unknown): T {
  const result = schema.safeParse({ ...(query as object) });
  if (!result.success) throw new ApiError(400, "INVALID_REQUEST", describeIssues(result.error));
  return result.data;
}
