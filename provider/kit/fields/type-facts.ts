/**
 * What a type says beyond the checks zod makes, for the package schema and the docs: the name
 * of a nested object or enum type, a secret value, a whole number, a value a program gives
 * plainly (never as an Output). Kept in a registry of our own (zod's `register`), beside the
 * type: the rows and declarations stay the one place a field is described. Each helper marks a
 * copy, so a shared rule (`nonEmpty`) is never marked for every table that uses it.
 *
 * Descriptions are not facts: they are the doc comments of the rows and of the objects' fields
 * (docs/architecture.md, "Adding an input").
 */
import { z } from "zod";

/** The facts a type may carry. */
export interface TypeFacts {
  /** Name of an object or enum type in the package schema: `ForkFrom` is `mdb:index:ForkFrom`. */
  name?: string;
  /** The value is secret: the schema marks it, the engine keeps it encrypted. */
  secret?: true;
  /** A whole number (`integer` in the schema), where the checks do not say so themselves. */
  integer?: true;
  /** Given as it is, never as an Output: it decides what the program declares. */
  plain?: true;
  /**
   * Of a word that stands beside a number in a union (a size's `"shared"`): the number it reads
   * as where a field must have one type, a function's result in the package schema (Pulumi's
   * Python SDK checks each field of a result with `isinstance`, and a union fails every value).
   */
  standsAs?: number;
}

/** The facts of every marked type. */
export const TYPE_FACTS = z.registry<TypeFacts>();

/** A type-level mark of a plain value (see {@link plain}); never set at run time. */
export interface PlainMark {
  /** Carries the mark only. */
  readonly __plain?: true;
}

/** A copy of `type` carrying `facts` besides those it had. */
function marked<Z extends z.ZodType>(type: Z, facts: TypeFacts): Z {
  const copy = type.clone() as Z;
  TYPE_FACTS.add(copy, { ...TYPE_FACTS.get(type), ...facts });
  return copy;
}

/** `type`, named `name` in the package schema (an object or an enum). */
export function named<Z extends z.ZodType>(name: string, type: Z): Z {
  return marked(type, { name });
}

/** `type`, secret (for declarations without a row: a row says `secret` itself). */
export function secret<Z extends z.ZodType>(type: Z): Z {
  return marked(type, { secret: true });
}

/** `type`, a whole number. */
export function integer<Z extends z.ZodType>(type: Z): Z {
  return marked(type, { integer: true });
}

/** `type`, given plainly by a program: its args type does not take an Output for it. */
export function plain<Z extends z.ZodType>(type: Z): Z & PlainMark {
  return marked(type, { plain: true }) as Z & PlainMark;
}

/** `word`, read as `value` where a field must have one type (see {@link TypeFacts.standsAs}). */
export function standsAs<Z extends z.ZodType>(value: number, word: Z): Z {
  return marked(word, { standsAs: value });
}

/** The facts of `type` itself (not of what it wraps). */
export function typeFactsOf(type: z.ZodType): TypeFacts {
  return TYPE_FACTS.get(type) ?? {};
}
