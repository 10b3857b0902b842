/**
 * A zod type seen through its wrappers (optional, default, nullable, readonly, pipe, lazy): the type
 * inside, and what the wrappers said of it. What the package schema's writers read of a zod type.
 */
import type { z } from "zod";
import { type TypeFacts, typeFactsOf } from "../../../kit/fields/type-facts";

/** A type with what its wrappers say. */
export interface Unwrapped {
  /** The type inside the wrappers. */
  core: z.ZodType;
  /** A program may leave it out. */
  omittable: boolean;
  /** It may be absent from an output. */
  absent: boolean;
  /** The value an absent input means. */
  fallback?: unknown;
  /** The facts of every layer, outermost last. */
  facts: TypeFacts;
}

/** The zod definition of `type`: its kind and parts. */
export function defOf(type: z.ZodType): Record<string, unknown> & { type: string } {
  return (type as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
}

/** `type` without its optional, default, nullable and readonly wrappers, and what they said. */
export function unwrap(type: z.ZodType): Unwrapped {
  const zod = (type as unknown as { _zod: { optin?: string; optout?: string } })._zod;
  const found: Unwrapped = {
    core: type,
    omittable: zod.optin !== undefined,
    absent: zod.optout === "optional",
    facts: {},
  };
  for (let t = type; ;) {
    found.facts = { ...typeFactsOf(t), ...found.facts };
    const def = defOf(t);
    if (def.type === "default" || def.type === "prefault") found.fallback ??= def.defaultValue;
    if (
      ["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "catch"].includes(def.type)
    )
      t = def.innerType as z.ZodType;
    else if (def.type === "pipe") t = def.in as z.ZodType;
    else if (def.type === "lazy") t = (def.getter as () => z.ZodType)();
    else return { ...found, core: t };
  }
}
