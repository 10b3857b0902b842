/**
 * The JSON Schema of request rules zod's own conversion cannot see (docs/api.md#openapi), so that
 * the OpenAPI document states every rule the server enforces: a schema tagged here gets this JSON
 * Schema instead of (or besides) what `z.toJSONSchema` makes of it. The rules: whole numbers within
 * a range as JSON numbers (bounds, `multipleOf`) or strings of digits (a `pattern`), and refinements
 * across fields (at least one field, `"shared"` sizes together, PITR's `target_time`).
 */
import type { z } from "zod";
import type { WholeRange } from "./limits";

/** A JSON Schema (OpenAPI 3.0 dialect) object. */
export type JsonSchema = Record<string, unknown>;

/** What the document states for a tagged schema: its whole JSON Schema, and rules added to it. */
interface JsonForm {
  schema?: JsonSchema;
  rules: JsonSchema[];
}

const FORMS = new WeakMap<z.ZodType, JsonForm>();

function formOf(schema: z.ZodType): JsonForm {
  const form = FORMS.get(schema) ?? { rules: [] };
  FORMS.set(schema, form);
  return form;
}

/** Tags `schema`: the document states `json` for it, in place of zod's conversion. Returns `schema`. */
export function withJsonSchema<T extends z.ZodType>(schema: T, json: JsonSchema): T {
  formOf(schema).schema = json;
  return schema;
}

/** Tags `schema` with one more rule (an `allOf` entry) zod's conversion leaves out. Returns `schema`. */
export function withJsonRule<T extends z.ZodType>(schema: T, rule: JsonSchema): T {
  formOf(schema).rules.push(rule);
  return schema;
}

/** The `override` of `z.toJSONSchema` that applies the tags: pass it whenever a document is made. */
export function applyJsonForms(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const form = FORMS.get(ctx.zodSchema as z.ZodType);
  if (!form) return;
  if (form.schema) {
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    Object.assign(ctx.jsonSchema, structuredClone(form.schema));
  }
  if (form.rules.length > 0) {
    const allOf = (ctx.jsonSchema.allOf as JsonSchema[] | undefined) ?? [];
    ctx.jsonSchema.allOf = [...allOf, ...structuredClone(form.rules)];
  }
}

/** At least one of `fields` is present (the object takes no other field, so any present one counts). */
export function atLeastOneRule(fields: readonly string[]): JsonSchema {
  return { anyOf: fields.map((field) => ({ required: [field] })) };
}

/** When `field` is present and one of `values`, `then` holds too. */
export function whenRule(field: string, values: readonly string[], then: JsonSchema): JsonSchema {
  return { anyOf: [{ not: { required: [field], properties: { [field]: { enum: values } } } }, then] };
}

/** A regular expression class of the digits `from` to `to`. */
function digitClass(from: number, to: number): string {
  return from === to ? String(from) : `[${from}-${to}]`;
}

/** Alternatives matching the decimal strings from `low` to `high`, both of the same length. */
function sameLength(low: string, high: string): string[] {
  if (low === high) return [low];
  if (low[0] === high[0]) return sameLength(low.slice(1), high.slice(1)).map((p) => low[0] + p);
  const rest = low.length - 1;
  const any = rest > 0 ? `[0-9]${rest > 1 ? `{${rest}}` : ""}` : "";
  const out: string[] = [];
  let from = Number(low[0]);
  let to = Number(high[0]);
  if (!/^0*$/.test(low.slice(1))) {
    out.push(...sameLength(low.slice(1), "9".repeat(rest)).map((p) => low[0] + p));
    from++;
  }
  const highTail = !/^9*$/.test(high.slice(1));
  if (highTail) to--;
  if (from <= to) out.push(digitClass(from, to) + any);
  if (highTail) out.push(...sameLength("0".repeat(rest), high.slice(1)).map((p) => high[0] + p));
  return out;
}

/** Alternatives matching the canonical decimal strings (no leading zero) of `min` to `max`. */
function spanAlternatives(min: number, max: number): string[] {
  const out: string[] = [];
  for (let digits = String(min).length; digits <= String(max).length; digits++) {
    const low = Math.max(min, digits === 1 ? 0 : 10 ** (digits - 1));
    const high = Math.min(max, 10 ** digits - 1);
    if (low <= high) out.push(...sameLength(String(low), String(high)));
  }
  return out;
}

/** Alternatives for the values of `range` (bounded), steps included. */
function rangeAlternatives(range: WholeRange & { max: number }): string[] {
  const { min, max, step } = range;
  if (step === undefined || step === 1) return spanAlternatives(min, max);
  // A step dividing a power of ten: the last `digits` digits take a few values, the rest a span.
  const digits = String(step).length;
  const unit = 10 ** digits;
  if (unit % step !== 0 || min % step !== 0) {
    const values: string[] = [];
    for (let n = min; n <= max; n += step) values.push(String(n));
    return values;
  }
  const tails = Array.from({ length: unit / step }, (_, i) => String(i * step).padStart(digits, "0"));
  const [qMin, qMax] = [Math.floor(min / unit), Math.floor(max / unit)];
  const values = (q: number) => {
    const within = tails.filter((t) => q * unit + Number(t) >= min && q * unit + Number(t) <= max);
    return within.map((t) => (q === 0 ? String(Number(t)) : `${q}${t}`));
  };
  const out = values(qMin);
  if (qMax - qMin > 1) {
    const middle = spanAlternatives(qMin + 1, qMax - 1);
    out.push(`(?:${middle.join("|")})(?:${tails.join("|")})`);
  }
  if (qMax > qMin) out.push(...values(qMax));
  return out;
}

/**
 * A regular expression (anchored) of the strings of digits whose value lies in `range`, leading
 * zeros allowed, as the server reads them (`"0250"` is 250); `extra` adds whole alternatives.
 */
export function digitsPattern(range: WholeRange, extra: readonly string[] = []): string {
  if (range.max === undefined) {
    if (range.step !== undefined) throw new Error("digitsPattern: an unbounded range with a step");
    // Unbounded: at least `min`, as the span up to the next power of ten or any longer string.
    const digits = String(range.min).length;
    const longer = `[1-9][0-9]{${digits},}`;
    const alternatives = rangeAlternatives({ ...range, max: 10 ** digits - 1 });
    return `^(?:0*(?:${[...alternatives, longer].join("|")})${extra.map((e) => `|${e}`).join("")})$`;
  }
  const alternatives = rangeAlternatives({ ...range, max: range.max });
  return `^(?:0*(?:${alternatives.join("|")})${extra.map((e) => `|${e}`).join("")})$`;
}

/** A whole number of `range` as a JSON number: integer, bounds, and the step when it is one. */
export function integerSchema(range: WholeRange): JsonSchema {
  return {
    type: "integer",
    minimum: range.min,
    ...(range.max !== undefined ? { maximum: range.max } : {}),
    ...(range.step !== undefined && range.min % range.step === 0 ? { multipleOf: range.step } : {}),
  };
}
