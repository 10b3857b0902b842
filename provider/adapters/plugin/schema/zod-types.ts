/**
 * A zod type in the package schema's words: a primitive, a list, a map, `Any`, a union
 * (`oneOf`), or a reference to a named object or enum type, which is added to the package's
 * `types` once (the name comes from the declaration's `named()`, see `kit/fields/type-facts.ts`).
 * What wraps a type says whether it may be absent, its default, and whether it is secret or plain.
 */
import type { z } from "zod";
import { tokenOf as token } from "../kinds";
import { type DocSource, described } from "./docs";
import { wordsAsNumbers } from "./number-forms";
import type { ComplexTypeSpec, PropertySpec, TypeSpec } from "./spec";
import { defOf, unwrap } from "./unwrap";

/** True for a number type whose checks say it is whole. */
function isWhole(def: Record<string, unknown>): boolean {
  const formats = [
    def.format,
    ...((def.checks as { _zod: { def: { format?: unknown } } }[] | undefined) ?? []).map(
      (c) => c._zod.def.format,
    ),
  ];
  return formats.some((f) => typeof f === "string" && /int/.test(f));
}

/** Where a type is met: the doc subject and the path of property names to it. */
export interface Place {
  /** The doc subject (see `docs.ts`). */
  subject: string;
  /** Property names from the subject's root. */
  path: readonly string[];
  /** Within a function's result: a number-or-words union is its number (`./number-forms.ts`). */
  result?: boolean;
}

/** The named types met so far, and how to describe a zod type with them. */
export class TypeCatalog {
  /** The named types, by token. */
  readonly types: Record<string, ComplexTypeSpec> = {};
  /** The declaration of each object type, by name. */
  private readonly objects = new Map<string, z.ZodType>();

  constructor(private readonly docs: DocSource) {}

  /** The schema's reference to `type` (its wrappers looked through), met at `place`. */
  typeOf(type: z.ZodType, place: Place): TypeSpec {
    const { core, facts } = unwrap(type);
    const def = defOf(core);
    const where = `${place.subject} ${place.path.join(".") || "(root)"}`;
    switch (def.type) {
      case "string":
      case "template_literal":
        return { type: "string" };
      case "number":
        return { type: facts.integer || isWhole(def) ? "integer" : "number" };
      case "boolean":
        return { type: "boolean" };
      case "literal": {
        if (facts.name) return this.enumRef(facts.name, core, def.values as string[]);
        const kinds = new Set((def.values as unknown[]).map((v) => typeof v));
        if (kinds.size === 1 && ["string", "number", "boolean"].includes([...kinds][0]))
          return { type: [...kinds][0] as "string" | "number" | "boolean" };
        throw new Error(`${where}: a literal of mixed or unusual kinds has no schema type`);
      }
      case "enum":
        return facts.name
          ? this.enumRef(facts.name, core, Object.values(def.entries as Record<string, string | number>))
          : { type: "string" };
      case "array":
        return { type: "array", items: this.typeOf(def.element as z.ZodType, place) };
      case "record":
        return { type: "object", additionalProperties: this.typeOf(def.valueType as z.ZodType, place) };
      case "unknown":
      case "any":
        return { $ref: "pulumi.json#/Any" };
      case "object":
        if (!facts.name)
          throw new Error(`${where}: a nested object needs a name for the schema: named("...", ...)`);
        return this.objectRef(facts.name, core, place);
      case "union": {
        if (place.result && wordsAsNumbers(core)) return { type: "integer" };
        const options = def.options as z.ZodType[];
        // Go's generator reads a oneOf that holds an enum as a "relaxed enum", a value of the
        // enum's element type: beside a member of another type (a size that is a whole number or
        // "shared") a Go program could then give only text. Such an enum is written as its plain
        // element type, so that each language's SDK takes every member.
        const mixed = new Set(options.map(primitiveKind)).size > 1;
        return {
          oneOf: options.map((option) => {
            const kind = mixed ? enumKind(option) : undefined;
            return kind ? { type: kind } : this.typeOf(option, place);
          }),
        };
      }
      default:
        throw new Error(`${where}: zod type ${def.type} has no schema type`);
    }
  }

  /** The property spec of `type` at `place`: its type, description, secret, default, plain. */
  propertyOf(type: z.ZodType, place: Place, options: { input?: boolean } = {}): PropertySpec {
    const { fallback, facts } = unwrap(type);
    const spec = this.typeOf(type, place);
    return {
      ...spec,
      ...this.describedAt(type, place),
      ...(facts.secret ? { secret: true } : {}),
      ...(options.input && facts.plain ? { plain: true } : {}),
      // A union's default is left to the provider (its Check fills it in): Go's generator cannot
      // write one (it emits `pulumi.(false)`, which does not compile).
      ...(options.input && isPrimitive(fallback) && !("oneOf" in spec) ? { default: fallback } : {}),
    };
  }

  /** The description of the field of `type` at `place`; in a result, what each word reads as. */
  private describedAt(type: z.ZodType, place: Place): ReturnType<typeof described> {
    const doc = described(this.docs.field(place.subject, place.path));
    const words = place.result ? wordsAsNumbers(type) : undefined;
    if (!words) return doc;
    const reads = [...words].map(([word, n]) => `\`"${word}"\` reads \`${n}\``).join(", ");
    return { ...doc, description: `${doc.description ?? ""} In this result ${reads}.`.trim() };
  }

  /** The properties of object `shape` at `place`, and those always there. */
  objectOf(shape: Record<string, z.ZodType>, place: Place, options: { input?: boolean } = {}) {
    const properties: Record<string, PropertySpec> = {};
    const required: string[] = [];
    for (const [name, field] of Object.entries(shape)) {
      properties[name] = this.propertyOf(field, { ...place, path: [...place.path, name] }, options);
      const { omittable, absent } = unwrap(field);
      if (!omittable && !absent) required.push(name);
    }
    return { properties, ...(required.length > 0 ? { required } : {}) };
  }

  /** Adds the named type `name` (once; another declaration under the same name must be the same). */
  private add(name: string, spec: ComplexTypeSpec): { $ref: string } {
    const key = token(name);
    const before = this.types[key];
    if (before && JSON.stringify(before) !== JSON.stringify(spec))
      throw new Error(`two different types are named ${name}: give one another name`);
    this.types[key] = spec;
    return { $ref: `#/types/${key}` };
  }

  /** The reference to the enum `name` of `values`, declared by `core`. */
  private enumRef(name: string, core: z.ZodType, values: (string | number)[]): { $ref: string } {
    return this.add(name, {
      ...described(this.docs.declaration(core)),
      type: typeof values[0] === "number" ? "number" : "string",
      enum: values.map((value) => ({ value })),
    } as ComplexTypeSpec);
  }

  /** The reference to the object type `name`, its fields described from `place` on. */
  private objectRef(name: string, core: z.ZodType, place: Place): { $ref: string } {
    // The same declaration met again is described once.
    if (this.objects.get(name) === core) return { $ref: `#/types/${token(name)}` };
    this.objects.set(name, core);
    const shape = (core as unknown as { shape: Record<string, z.ZodType> }).shape;
    const { description } = described(this.docs.declaration(core));
    return this.add(name, {
      ...(description ? { description } : {}),
      type: "object",
      ...this.objectOf(shape, place, { input: true }),
    });
  }
}

/** The kind of value `type` holds: a JavaScript primitive's type name, or its zod kind for the rest. */
function primitiveKind(type: z.ZodType): string {
  const def = defOf(unwrap(type).core);
  if (def.type === "literal" || def.type === "enum") {
    const values = def.type === "literal" ? (def.values as unknown[]) : Object.values(def.entries as object);
    return [...new Set(values.map((v) => typeof v))].join("|");
  }
  return def.type;
}

/** The element type of `type` when it is a named enum (a named literal too), in the schema's words. */
function enumKind(type: z.ZodType): "string" | "number" | undefined {
  const { core, facts } = unwrap(type);
  const kind = primitiveKind(core);
  return facts.name &&
    (kind === "string" || kind === "number") &&
    ["literal", "enum"].includes(defOf(core).type)
    ? kind
    : undefined;
}

/** True for a value the schema's `default` can hold. */
function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}
