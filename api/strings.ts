/**
 * Text fields of requests whose rule must read the same in JavaScript (the server, the client) and
 * in any JSON Schema tool (the OpenAPI document, docs/api.md#openapi): lengths in characters (code
 * points, as JSON Schema counts them, not UTF-16 units), digits as `[0-9]` (a tool's `\d` may take
 * other scripts' digits), whitespace as the exact set JavaScript's `\s` holds.
 */
import { z } from "zod";
import { withJsonSchema } from "./json-forms";
import type { WholeRange } from "./limits";

/** The characters JavaScript's `\s` matches, as a regular expression class body. */
const WHITESPACE = "\\t-\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
/** Text with at least one character that is not whitespace (unanchored, as JSON Schema reads it). */
export const NOT_BLANK = `[^${WHITESPACE}]`;

/** Number of characters of `text`, counting code points. */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Text of `range` characters (code points): `empty` is the message below one character, else
 * `must be at least MIN characters`; `must be at most MAX characters` above the top.
 */
export function textOfLength(range: WholeRange, empty?: string) {
  const below = range.min === 1 && empty ? empty : `must be at least ${range.min} characters`;
  const text = z
    .string()
    .refine((s) => characters(s) >= range.min, below)
    .refine(
      (s) => range.max === undefined || characters(s) <= range.max,
      `must be at most ${range.max} characters`,
    );
  return withJsonSchema(text, {
    type: "string",
    minLength: range.min,
    ...(range.max !== undefined ? { maxLength: range.max } : {}),
  });
}

/** A string of digits (`[0-9]`, one or more), with `message` when it is not one. */
export function digitsText(message: string) {
  return z.string().regex(/^[0-9]+$/, message);
}

/** Text that is not blank (some character other than whitespace). */
export function notBlankText() {
  return z.string().regex(new RegExp(NOT_BLANK), "must not be blank");
}

/**
 * An ISO 8601 date-time with an offset (`Z`, `+02:00`), as zod checks it; the document states
 * zod's own pattern with its digits spelt `[0-9]`.
 */
export function dateTimeInput() {
  const schema = z.iso.datetime({ offset: true });
  const { pattern } = z.toJSONSchema(schema) as { pattern: string };
  return withJsonSchema(schema, {
    type: "string",
    format: "date-time",
    pattern: pattern.replace(/\\d/g, "[0-9]"),
  });
}
