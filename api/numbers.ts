/**
 * Whole numbers in request bodies (docs/api.md#numbers): a value within one of the service's limits,
 * in the JSON form the dialect takes (a number, a string of digits, or either), and the sizes that
 * may be `"shared"` (docs/api.md#shared-resources). Each parser carries its JSON Schema
 * (json-forms.ts), so the OpenAPI document states the same rule: bounds, step, pattern.
 */
import { z } from "zod";
import { SHARED, type Shared } from "./enums";
import {
  digitsPattern,
  integerSchema,
  whenRule,
  withJsonRule,
  withJsonSchema,
  type JsonSchema,
} from "./json-forms";
import { describeRange, inRange, type WholeRange } from "./limits";

/** The number a JSON number or a string of digits stands for; NaN for anything else. */
function wholeValue(value: number | string): number {
  return typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : NaN;
}

/**
 * The JSON forms a whole number may take on the wire (docs/api.md#numbers): `either` (a number or
 * a string of digits, what the seed dialect takes), `string` (a string of digits only, where the
 * vendor's current document types the field a string) or `number` (where it types it an integer).
 */
export type NumberForm = "either" | "string" | "number";

/**
 * A whole number within `range`, in the JSON `form` given (docs/api.md#numbers). The parsed value
 * is a number; a bad value gets one message, naming the rule, with `hint` after it when given.
 */
export function wholeNumber(range: WholeRange, hint?: string, form: NumberForm = "either") {
  // Refusing "shared", it only ever yields numbers.
  return sizeInput(range, "refuse", hint, form) as z.ZodType<number, number | string>;
}

/**
 * A size of create service or fork: a whole number within `range` (as {@link wholeNumber}), or
 * `"shared"` for a shared-resource service (docs/api.md#shared-resources), kept as `"shared"`.
 */
export function sizeOrShared(range: WholeRange, form: NumberForm = "either") {
  return sizeInput(range, "accept", undefined, form);
}

const FORM_WORDS: Record<NumberForm, string> = {
  either: "as a number or a string of digits",
  string: "as a string of digits",
  number: "as a JSON number",
};

/**
 * A whole number within `range`, or `"shared"` when `shared` is "accept". Where it is refused, a
 * `"shared"` gets a message of its own: create and fork take it, so a client may well send it.
 */
function sizeInput(
  range: WholeRange,
  shared: "accept" | "refuse",
  hint?: string,
  form: NumberForm = "either",
) {
  const numbers = `${describeRange(range)}, ${FORM_WORDS[form]}`;
  const rule = `must be ${numbers}${shared === "accept" ? `, or "${SHARED}"` : ""}${hint ? ` (${hint})` : ""}`;
  const refusal = `"${SHARED}" is taken by create service and fork only; here it must be ${numbers}`;
  const json =
    form === "string"
      ? z.string({ error: rule })
      : form === "number"
        ? z.number({ error: rule })
        : z.union([z.number(), z.string()], { error: rule });
  const parsed = (json as z.ZodType<number | string>).transform((value, ctx): number | Shared => {
    if (value === SHARED && shared === "accept") return SHARED;
    const n = typeof value === "string" && form === "number" ? NaN : wholeValue(value);
    if (inRange(n, range)) return n;
    ctx.addIssue({ code: "custom", message: value === SHARED ? refusal : rule, input: value });
    return z.NEVER;
  });
  return withJsonSchema(parsed, numberJson(range, form, shared === "accept", rule));
}

/** The JSON Schema of {@link sizeInput}: what the document says the field takes, and the rule in words. */
function numberJson(range: WholeRange, form: NumberForm, shared: boolean, rule: string): JsonSchema {
  const digits: JsonSchema = { type: "string", pattern: digitsPattern(range, shared ? [SHARED] : []) };
  const description = rule.replace(/^must be /, "");
  if (form === "string") return { ...digits, description };
  if (form === "number" && !shared) return { ...integerSchema(range), description };
  return { anyOf: [integerSchema(range), digits], description };
}

/**
 * Requires `"shared"` for both sizes or for neither: a service shares CPU and memory together, and
 * a size left out would otherwise take a dedicated default. The message names the other field.
 */
function sharedTogetherCheck(
  body: { cpu_millis?: number | Shared; memory_gbs?: number | Shared },
  ctx: z.RefinementCtx,
) {
  const cpu = body.cpu_millis === SHARED;
  const memory = body.memory_gbs === SHARED;
  if (cpu === memory) return;
  const [field, other] = cpu ? ["memory_gbs", "cpu_millis"] : ["cpu_millis", "memory_gbs"];
  ctx.addIssue({
    code: "custom",
    path: [field],
    message: `must be "${SHARED}" too when ${other} is "${SHARED}" (a service shares both or neither)`,
  });
}

/**
 * `body` with the "shared together" rule: `"shared"` for both sizes or for neither, in the parser
 * and in the document.
 */
export function sharedTogether<
  T extends z.ZodType<{ cpu_millis?: number | Shared; memory_gbs?: number | Shared }>,
>(body: T) {
  return withJsonRule(
    withJsonRule(
      body.superRefine(sharedTogetherCheck),
      whenRule("cpu_millis", [SHARED], {
        required: ["memory_gbs"],
        properties: { memory_gbs: { enum: [SHARED] } },
      }),
    ),
    whenRule("memory_gbs", [SHARED], {
      required: ["cpu_millis"],
      properties: { cpu_millis: { enum: [SHARED] } },
    }),
  );
}

/** The JSON Schema of a whole number in `form` that equals `n` (`exact`) or exceeds it. */
function valueSchema(n: number, form: NumberForm, exact: boolean): JsonSchema {
  const integer: JsonSchema = exact ? { enum: [n] } : { type: "integer", minimum: n + 1 };
  const digits: JsonSchema = { type: "string", pattern: exact ? `^0*${n}$` : digitsPattern({ min: n + 1 }) };
  if (form === "number") return integer;
  if (form === "string") return digits;
  return { anyOf: [integer, digits] };
}

/**
 * `body` refusing `upper` above `lower` when both are given (400 naming `upper`), in the parser and
 * in the document (one rule per value `lower` may take in `range`). With one of them given, the
 * other is the stored one: that check is the service's.
 */
export function notAbove<T extends z.ZodType<Record<string, unknown>>>(
  body: T,
  lower: string,
  upper: string,
  range: WholeRange & { max: number },
  form: NumberForm,
) {
  let schema = body.superRefine((value, ctx) => {
    const [low, high] = [value[lower], value[upper]];
    if (typeof low === "number" && typeof high === "number" && high > low)
      ctx.addIssue({ code: "custom", path: [upper], message: `must not exceed ${lower} (${high} > ${low})` });
  });
  for (let n = range.min; n < range.max; n++) {
    schema = withJsonRule(schema, {
      not: {
        required: [lower, upper],
        properties: { [lower]: valueSchema(n, form, true), [upper]: valueSchema(n, form, false) },
      },
    });
  }
  return schema;
}
