/**
 * Input validation shared by the resources' `check`: zod issues become one Pulumi check
 * failure per bad property, and values unknown during preview are never reported.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { HIDDEN_INPUTS } from "./hidden";

/** What the engine sends for a value that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when `value` is, or contains, a value unknown during preview. */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

/**
 * Validates `news` with `schema`. Returns the parsed inputs (defaults filled in, unknown
 * values passed through untouched, hidden inputs kept) and one failure per bad property.
 */
export function checkInputs<T extends z.ZodType>(
  schema: T,
  news: Record<string, unknown>,
): { inputs: Record<string, unknown>; failures: pulumi.dynamic.CheckFailure[] } {
  const result = schema.safeParse(news);
  if (result.success) {
    const inputs: Record<string, unknown> = { ...(result.data as Record<string, unknown>) };
    for (const key of Object.keys(news)) if (HIDDEN_INPUTS.has(key)) inputs[key] = news[key];
    return { inputs, failures: [] };
  }
  // One failure per property: several problems with one value are joined in its reason.
  const reasons = new Map<string, string[]>();
  for (const issue of result.error.issues) {
    const property = issue.path.length ? String(issue.path[0]) : "(inputs)";
    if (isUnknown(news[property])) continue;
    const where = issue.path.length > 1 ? `${issue.path.map(String).join(".")}: ` : "";
    const list = reasons.get(property) ?? [];
    if (!list.includes(`${where}${issue.message}`)) list.push(`${where}${issue.message}`);
    reasons.set(property, list);
  }
  const failures = [...reasons].map(([property, list]) => ({ property, reason: list.join("; ") }));
  // Only unknowns failed: keep the inputs as given; create/update see them resolved.
  return { inputs: news, failures };
}
