/**
 * What the client sends beyond what the API's request schemas require (docs/api.md#requests):
 * the live API takes sizes as strings of digits (or `"shared"`) and needs both sizes on every
 * resize, a fork strategy on every fork and a region on every VPC create, where the emulator and
 * the spec-era document are more lenient. The client holds itself to the stricter rule, so what
 * it sends is taken by every version.
 */
import type { OperationId } from "../../api/operations";

/** The wire rule of one operation: fields it requires, fields sent as strings of digits. */
export interface WireRule {
  /** Body fields (snake_case) the client always sends: a call without one is refused before sending. */
  readonly required?: readonly string[];
  /** Body fields (snake_case) sent as strings of digits (`"1000"`); `"shared"` stays as it is. */
  readonly digits?: readonly string[];
  /**
   * The operation that reads the record when the answer is not the record (an answer without
   * `id`, e.g. `{message}`), called with the same path parameters: the method always returns it.
   */
  readonly readBack?: OperationId;
}

const SIZES = ["cpu_millis", "memory_gbs"] as const;

/** The operations with a wire rule, by id. */
export const WIRE_RULES = {
  createService: { digits: SIZES },
  forkService: { digits: SIZES, required: ["fork_strategy"] },
  resizeService: { digits: SIZES, required: SIZES },
  resizeReplicaSet: { digits: SIZES, required: SIZES },
  createVpc: { required: ["region_code"] },
  // The current API answers `{message}` where the spec-era one answered the VPC.
  renameVpc: { readBack: "getVpc" },
} as const satisfies Partial<Record<OperationId, WireRule>>;

/** Operations whose body has fields the client requires. */
export type WireRules = typeof WIRE_RULES;

/** The wire rule of operation `id`, or none. */
export function wireRuleOf(id: OperationId): WireRule {
  return (WIRE_RULES as Partial<Record<OperationId, WireRule>>)[id] ?? {};
}

/** The required fields of `rule` that `body` lacks (undefined or null counts as missing). */
export function missingFields(rule: WireRule, body: Record<string, unknown>): string[] {
  return (rule.required ?? []).filter((field) => body[field] === undefined || body[field] === null);
}

/** True when `answer` is a record (it has an `id`), not a message about one. */
export function isRecord(answer: unknown): boolean {
  return typeof answer === "object" && answer !== null && "id" in answer;
}

/** `body` (already validated) with the rule's size fields as strings of digits. */
export function onTheWire(rule: WireRule, body: unknown): unknown {
  if (!rule.digits || typeof body !== "object" || body === null) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of rule.digits)
    if (typeof out[field] === "number") out[field] = String(out[field] as number);
  return out;
}
