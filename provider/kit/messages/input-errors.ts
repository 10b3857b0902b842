/**
 * The wording of every input validation message, in one place: a zod error map that replaces
 * the library's default sentences (`Invalid input: expected string, received undefined`,
 * `Too small: expected number to be >=0`) with short rules that follow the property name, as
 * Pulumi prints them: `property cpuMillis ... has a problem: must be a number`. A message a
 * schema gives itself (e.g. a limit's rule) still wins over this map.
 */
import { z } from "zod";
import { didYouMean } from "./suggest";

/** What a value of each zod type must be, in words. */
const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  date: "a date",
};

/** True for a string that reads as a number (`"2000"`, ` 1.5 `): a program that quoted a number. */
export function isNumeral(value: unknown): value is string {
  return typeof value === "string" && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(value);
}

/** What a number given as text is told; it never quotes the value (which may be anyone's). */
export const NUMBER_NOT_TEXT = "must be a number, not text: write it without quotes";

/** The rule of a size bound: `at least 8 characters`, `at most 2`, `greater than 0`. */
function bound(
  kind: "least" | "most",
  issue: { origin: string; inclusive?: boolean },
  limit: number | bigint,
) {
  const unit = issue.origin === "string" ? " characters" : issue.origin === "array" ? " items" : "";
  if (issue.inclusive === false)
    return `must be ${kind === "least" ? "greater" : "less"} than ${limit}${unit}`;
  return `must be at ${kind} ${limit}${unit}`;
}

/** `A`, `A or B`, `one of A, B, C`. */
function oneOf(values: string[]): string {
  if (values.length <= 2) return values.join(" or ");
  return `one of ${values.join(", ")}`;
}

/** Properties an object schema knows, for the suggestion after an unknown one. */
function knownKeys(inst: unknown): string[] {
  const shape = (inst as { shape?: unknown } | undefined)?.shape;
  return shape && typeof shape === "object" ? Object.keys(shape) : [];
}

/** The kit's error map: one short rule per issue, `is required` for a missing value. */
export const inputErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value"))
    return "is required";
  switch (issue.code) {
    case "invalid_type":
      if ((issue.expected === "number" || issue.expected === "int") && isNumeral(issue.input))
        return NUMBER_NOT_TEXT;
      return `must be ${EXPECTED[issue.expected] ?? `of type ${issue.expected}`}`;
    case "invalid_value":
      return `must be ${oneOf(issue.values.map(String))}`;
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1) return "must not be empty";
      return bound("least", issue, issue.minimum);
    case "too_big":
      return bound("most", issue, issue.maximum);
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_format":
      return issue.format === "datetime"
        ? "must be an ISO 8601 date-time"
        : `must be a valid ${issue.format}`;
    case "unrecognized_keys": {
      const keys = issue.keys.join(", ");
      const hint = issue.keys.length === 1 ? didYouMean(issue.keys[0], knownKeys(issue.inst)) : "";
      return `has no property ${keys}${hint}`;
    }
    case "invalid_union":
      return "matches none of the allowed forms";
    default:
      return "is invalid";
  }
};

/** Parses `value` with `schema`, in the kit's wording. */
export function safeParseInputs<T extends z.ZodType>(
  schema: T,
  value: unknown,
): z.ZodSafeParseResult<z.output<T>> {
  return schema.safeParse(value, { error: inputErrorMap });
}

/** Parses `value` with `schema`, in the kit's wording; throws a `ZodError` when it is invalid. */
export function parseInputs<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  return schema.parse(value, { error: inputErrorMap });
}
