/**
 * The number form of a union of a number and words that stand as numbers (a size: a whole number,
 * or `"shared"`, which stands as 0), for the plugin's function results. Pulumi's Python generator
 * checks every field of a function's result with `isinstance` and writes `dict` for a union, so a
 * result field that is a number or a word fails for every value. In the package schema such a field
 * of a function's result is the number, and the plugin's Invoke gives each word as its number: one
 * rule for both (the classes' functions keep the word).
 */
import type { z } from "zod";
import { defOf, unwrap } from "./unwrap";

/**
 * The numbers the words of union `type` stand as, when it is a number or such words (and nothing
 * else); `undefined` for any other type.
 */
export function wordsAsNumbers(type: z.ZodType): ReadonlyMap<string, number> | undefined {
  const { core } = unwrap(type);
  const def = defOf(core);
  if (def.type !== "union") return undefined;
  const words = new Map<string, number>();
  let numbers = 0;
  for (const option of (def.options as z.ZodType[] | undefined) ?? []) {
    const inner = unwrap(option);
    const kind = defOf(inner.core);
    const { standsAs } = inner.facts;
    if (kind.type === "number") numbers++;
    else if (kind.type === "literal" && standsAs !== undefined)
      for (const value of (kind.values as unknown[] | undefined) ?? []) words.set(String(value), standsAs);
    else return undefined;
  }
  return numbers > 0 && words.size > 0 ? words : undefined;
}

/** `value`, of type `type`, with each word of a number-or-words union given as its number. */
export function inNumberForm(type: z.ZodType, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  const words = wordsAsNumbers(type);
  if (words) return typeof value === "string" && words.has(value) ? words.get(value) : value;
  const { core } = unwrap(type);
  const def = defOf(core);
  if (def.type === "array" && Array.isArray(value) && def.element)
    return value.map((item) => inNumberForm(def.element as z.ZodType, item));
  if (def.type === "object" && typeof value === "object" && !Array.isArray(value)) {
    const shape = (core as unknown as { shape: Record<string, z.ZodType> }).shape;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, field]) => [
        key,
        shape[key] ? inNumberForm(shape[key], field) : field,
      ]),
    );
  }
  return value;
}
