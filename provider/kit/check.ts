/**
 * Input validation shared by the resources' `check`: zod issues become one Pulumi check
 * failure per bad property, in the kit's wording (`messages.ts`); a property the resource does
 * not know fails too, suggesting the closest known one; values unknown during preview are
 * never reported. No API call: this is the part of check that needs nothing but the program.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { HIDDEN_INPUTS } from "./hidden";
import { safeParseInputs } from "./messages";
import { didYouMean } from "./suggest";

/** What the engine sends a dynamic provider for a value not known yet (during preview): Pulumi's own constant. */
export const UNKNOWN: string = pulumi.runtime.unknownValue;

/** True when `value` is, or contains, a value unknown during preview. */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

/** What {@link checkInputs} reads of a resource besides its schema, for messages. */
export interface CheckFacts {
  /** The class name, e.g. `Service`. */
  typeName: string;
  /** Output names that are not inputs: giving one is refused as such. */
  outputNames?: readonly string[];
}

/** The inputs `schema` declares (its object shape), or none when it is not an object schema. */
export function inputNames(schema: z.ZodType): string[] {
  const shape = (schema as { shape?: unknown }).shape;
  return shape && typeof shape === "object" ? Object.keys(shape) : [];
}

/** One failure per property of `news` that is neither an input of the resource nor a hidden one. */
function unknownProperties(
  known: string[],
  news: Record<string, unknown>,
  facts: CheckFacts,
): pulumi.dynamic.CheckFailure[] {
  const outputs = new Set(facts.outputNames ?? []);
  return Object.keys(news)
    .filter((key) => !known.includes(key) && !HIDDEN_INPUTS.has(key))
    .map((property) => ({
      property,
      reason: outputs.has(property)
        ? `is an output of ${facts.typeName}, not an input`
        : `is not an input of ${facts.typeName}${didYouMean(property, known)}`,
    }));
}

/**
 * Validates `news` with `schema`. Returns the parsed inputs (defaults filled in, unknown
 * values passed through untouched, hidden inputs kept) and one failure per bad property:
 * each property `schema` does not declare, and each whose value breaks a rule.
 */
export function checkInputs<T extends z.ZodType>(
  schema: T,
  news: Record<string, unknown>,
  facts: CheckFacts,
): { inputs: Record<string, unknown>; failures: pulumi.dynamic.CheckFailure[] } {
  const known = inputNames(schema);
  const failures = known.length > 0 ? unknownProperties(known, news, facts) : [];
  const result = safeParseInputs(schema, news);
  if (result.success && failures.length === 0) {
    const inputs: Record<string, unknown> = { ...(result.data as Record<string, unknown>) };
    for (const key of Object.keys(news)) if (HIDDEN_INPUTS.has(key)) inputs[key] = news[key];
    return { inputs, failures };
  }
  // One failure per property: several problems with one value are joined in its reason.
  const reasons = new Map<string, string[]>();
  for (const issue of result.success ? [] : result.error.issues) {
    const property = issue.path.length ? String(issue.path[0]) : "(inputs)";
    if (isUnknown(news[property])) continue;
    const where = issue.path.length > 1 ? `${issue.path.map(String).join(".")}: ` : "";
    const list = reasons.get(property) ?? [];
    if (!list.includes(`${where}${issue.message}`)) list.push(`${where}${issue.message}`);
    reasons.set(property, list);
  }
  failures.push(...[...reasons].map(([property, list]) => ({ property, reason: list.join("; ") })));
  // Only unknowns failed: keep the inputs as given; create/update see them resolved.
  return { inputs: news, failures };
}
