/**
 * Whether a request body agrees with what a published version of the vendor's document says of
 * the operation (api/versions.ts, the facts per operation and field): every field it sends is one
 * the version lists, of the JSON type it gives, and every field it requires is sent. The one
 * difference left out, as agreed (W1): the spec-era document typed the resize sizes integers,
 * and the client sends them as the current document does, strings of digits.
 */
import type { OperationId } from "../../api/operations";
import { OPERATION_VERSIONS, type WireType } from "../../api/versions";

/** A published vendor document: `specEra` (dc9c8fe) or `current` (d7201d6). */
export type VendorVersion = "specEra" | "current";

const RESIZES: readonly OperationId[] = ["resizeService", "resizeReplicaSet"];

/** True when `value` is of the JSON type `type`. */
function ofType(type: WireType, value: unknown): boolean {
  switch (type) {
    case "digits":
      return typeof value === "string" && /^[0-9]+$/.test(value);
    case "size":
      return typeof value === "string" && (/^[0-9]+$/.test(value) || value === "shared");
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "date-time":
      return typeof value === "string" && !Number.isNaN(Date.parse(value));
    default:
      return typeof value === "string";
  }
}

/** What `version` has against `body` as the body of `op`: one line per problem (none: it agrees). */
export function disagreements(version: VendorVersion, op: OperationId, body: unknown): string[] {
  const facts = OPERATION_VERSIONS[op][version];
  if (facts === null) return [`the ${version} document has no ${op}`];
  const fields = facts.request;
  if (fields === undefined) return body === undefined ? [] : ["a body, where the operation takes none"];
  if (fields === "not shown") return [];
  const sent = (body ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, value] of Object.entries(sent)) {
    const fact = fields[field];
    if (!fact) problems.push(`${field}: not a field of the ${version} document`);
    else if (version === "specEra" && RESIZES.includes(op) && field !== "nodes") continue;
    else if (!ofType(fact.type, value))
      problems.push(`${field}: ${JSON.stringify(value)} is not ${fact.type}`);
  }
  for (const [field, fact] of Object.entries(fields))
    if (fact.required && sent[field] === undefined) problems.push(`${field}: required, not sent`);
  return problems;
}
