/**
 * What a published version takes as a request body, from the facts api/ records per operation
 * row: `current` (the vendor's current document) is the row's `vendorRequest` where that document
 * is stricter than the seed, else its `request`; `specEra` (the seed's and the spec-era document's
 * bodies) is the row's `request`, which takes a whole number as a JSON number or a string of
 * digits: the spec-era document typed the resize sizes integers, the one difference left out (W1).
 */
import type { z } from "zod";
import { OPERATIONS, type OperationId } from "../../api/operations";
import { describeIssues } from "../../api/requests";

/** A published version of the API. */
export type Version = "current" | "specEra";

/** Why `version` refuses `body` as the body of `op`; undefined when it takes it. */
export function requestFacts(version: Version, op: OperationId, body: unknown): string | undefined {
  const row = OPERATIONS[op] as { request?: z.ZodType; vendorRequest?: z.ZodType };
  const schema = version === "current" ? (row.vendorRequest ?? row.request) : row.request;
  if (!schema) return body === undefined ? undefined : "takes no body, but one was sent";
  const parsed = schema.safeParse(body);
  return parsed.success ? undefined : describeIssues(parsed.error);
}
