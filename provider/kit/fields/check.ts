/**
 * Input validation shared by the resources' `check`: zod issues become one Pulumi check
 * failure per bad property, in the kit's wording (`messages.ts`); a property the resource does
 * not know fails too, suggesting the closest known one; values unknown during preview are
 * never reported. No API call: this is the part of check that needs nothing but the program.
 *
 * Values never printed: Pulumi's engine prints a failure that names a property with the value
 * the program gave it (`property password value {&{{short}}} has a problem: ...`, its
 * `issueCheckFailures`), secrets included. So a failure about a secret input, or about a
 * property the resource does not know (a misspelt `pasword` is likely a secret), is handed to
 * the engine as a failure of the resource, naming the property in its reason: the engine then
 * has no value to print ({@link withoutPrintedValues}). So is a failure about an object's field
 * or about an object as a whole (`forkFrom`), which the engine would print as a Go map.
 */
import type { z } from "zod";
import { UNKNOWN as UNKNOWN_VALUE } from "../../pulumi-contract/sentinels";
import { HIDDEN_INPUTS } from "../hidden";
import { safeParseInputs } from "../messages/input-errors";
import { didYouMean } from "../messages/suggest";

/** What the engine sends a provider for a value not known yet (during preview): Pulumi's own constant. */
export const UNKNOWN: string = UNKNOWN_VALUE;

/** One problem with the inputs: the property it is about (`""`: the resource as a whole) and why. */
export interface CheckFailure {
  /** The input's name; empty for a failure of the resource as a whole. */
  property: string;
  /** What is wrong, as a rule that follows the property's name (`must be at least 8 characters`). */
  reason: string;
}

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
  /** Secret rows (the field table's `secret`): a failure about one never lets its value be printed. */
  secretOutputs?: readonly string[];
  /** Input names, when `schema` is not a plain object (a refined one): a failure of another property never lets its value be printed. */
  inputNames?: readonly string[];
  /**
   * Inputs the program gave as secrets (`pulumi.secret(...)`), whatever the table says of them:
   * a failure about one never lets its value be printed either. Only the plugin knows them (the
   * engine hands it secrets as such); Pulumi's dynamic provider host never says.
   */
  secretInputs?: Iterable<string>;
}

/**
 * `failures` as the engine may print them without a secret: a failure about a secret input (a
 * secret row of the table, or an input the program gave as a secret) or about a property that
 * is not an input becomes a failure of the resource whose reason names the property (`property
 * password (secret) must be at least 8 characters`), since the engine prints the program's value
 * beside any property a failure names. Others are kept as they are.
 */
export function withoutPrintedValues(failures: CheckFailure[], facts: CheckFacts): CheckFailure[] {
  const secret = new Set([...(facts.secretOutputs ?? []), ...(facts.secretInputs ?? [])]);
  const inputs = facts.inputNames ? new Set(facts.inputNames) : undefined;
  return failures.map(({ property, reason }) => {
    if (property === "") return { property, reason };
    if (secret.has(property)) return { property: "", reason: `property ${property} (secret) ${reason}` };
    if (inputs && !inputs.has(property)) return { property: "", reason: `property ${property} ${reason}` };
    return { property, reason };
  });
}

/**
 * The failure about `path` (`forkFrom.targetTime`, `cpuMillis`), whose top property holds
 * `value`. A failure inside an object, or about an object or a list, is the resource's, naming
 * the path: the engine would print the whole value beside the property (a Go map dump,
 * `{map[serviceId:{...}]}`), or nothing at all for a nested path it cannot look up.
 */
function namedByPath(path: string, reason: string, value: unknown): CheckFailure {
  if (path === "" || (!path.includes(".") && (value === null || typeof value !== "object")))
    return { property: path, reason };
  return { property: "", reason: `property ${path} ${reason}` };
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
): CheckFailure[] {
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
): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const known = inputNames(schema);
  const failures = known.length > 0 ? unknownProperties(known, news, facts) : [];
  const result = safeParseInputs(schema, news);
  const printable = { ...facts, inputNames: facts.inputNames ?? (known.length > 0 ? known : undefined) };
  if (result.success && failures.length === 0) {
    const inputs: Record<string, unknown> = { ...(result.data as Record<string, unknown>) };
    for (const key of Object.keys(news)) if (HIDDEN_INPUTS.has(key)) inputs[key] = news[key];
    return { inputs, failures };
  }
  // One failure per property (or field of one): several problems with one value are joined.
  const reasons = new Map<string, string[]>();
  for (const issue of result.success ? [] : result.error.issues) {
    // An issue of no property (a rule across the inputs) is the resource's.
    const property = issue.path.length ? String(issue.path[0]) : "";
    if (isUnknown(news[property])) continue;
    const path = issue.path.map(String).join(".");
    const list = reasons.get(path) ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    reasons.set(path, list);
  }
  const secret = new Set(facts.secretOutputs ?? []);
  for (const [path, list] of reasons) {
    const top = path.split(".")[0];
    // A secret's failure is made the resource's below, with "(secret)" in its reason.
    failures.push(
      secret.has(top) && path === top
        ? { property: top, reason: list.join("; ") }
        : namedByPath(path, list.join("; "), news[top]),
    );
  }
  // Only unknowns failed: keep the inputs as given; create/update see them resolved.
  return { inputs: news, failures: withoutPrintedValues(failures, printable) };
}
