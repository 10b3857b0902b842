/**
 * The package schema's functions (invokes `mdb:index:<name>`) from their declarations
 * (`functions/declarations.ts`): arguments as inputs (a union of objects, "exactly one of these",
 * as one object whose fields are required only when every member requires them), the result as
 * outputs (a list under the declaration's `listKey`).
 */
import type { z } from "zod";
import type { FunctionDeclaration } from "../../../functions/declarations";
import { type DocSource, SUBJECTS, described } from "./docs";
import type { FunctionSpec, ObjectTypeSpec, PropertySpec } from "./spec";
import { tokenOf as token } from "../kinds";
import { defOf, unwrap } from "./unwrap";
import type { TypeCatalog } from "./zod-types";

/** The object members of `type`: itself, or each member of a union. */
function members(type: z.ZodType): Record<string, z.ZodType>[] {
  const { core } = unwrap(type);
  const def = defOf(core);
  if (def.type === "union") return ((def.options as z.ZodType[] | undefined) ?? []).flatMap(members);
  if (def.type === "object") return [(core as unknown as { shape: Record<string, z.ZodType> }).shape];
  throw new Error(`a function's arguments must be an object or a union of objects, not ${def.type}`);
}

/** The inputs of arguments `args`: the fields of every member (a field `undefined` in a member is absent there). */
function inputsOf(args: z.ZodType, subject: string, catalog: TypeCatalog): ObjectTypeSpec {
  const shapes = members(args).map((shape) =>
    Object.fromEntries(
      Object.entries(shape).filter(([, field]) => defOf(unwrap(field).core).type !== "undefined"),
    ),
  );
  const properties: Record<string, PropertySpec> = {};
  for (const shape of shapes) {
    const { properties: own } = catalog.objectOf(shape, { subject, path: [] }, { input: true });
    Object.assign(properties, own);
  }
  const required = Object.keys(properties).filter((name) =>
    shapes.every((shape) => shape[name] !== undefined && !unwrap(shape[name]).omittable),
  );
  return { properties, ...(required.length > 0 ? { required } : {}) };
}

/** The outputs of `declaration`'s result: its object, or its list under `listKey`. */
function outputsOf(declaration: FunctionDeclaration, subject: string, catalog: TypeCatalog, docs: DocSource) {
  const { core } = unwrap(declaration.result);
  const def = defOf(core);
  if (def.type === "array") {
    if (!declaration.listKey) throw new Error(`${subject}: a function returning a list needs a listKey`);
    const items = def.element as z.ZodType;
    return {
      properties: {
        [declaration.listKey]: {
          ...catalog.typeOf(core, { subject, path: [], result: true }),
          ...described(docs.declaration(unwrap(items).core)),
        },
      },
      required: [declaration.listKey],
    };
  }
  return catalog.objectOf((core as unknown as { shape: Record<string, z.ZodType> }).shape, {
    subject,
    path: [],
    result: true,
  });
}

/** The function specs of `functions`, by token, their named types added to `catalog`. */
export function functionSpecs(
  functions: Readonly<Record<string, FunctionDeclaration>>,
  catalog: TypeCatalog,
  docs: DocSource,
): Record<string, FunctionSpec> {
  const specs: Record<string, FunctionSpec> = {};
  for (const [name, declaration] of Object.entries(functions)) {
    specs[token(name)] = {
      ...described(docs.field(SUBJECTS.function(name), [])),
      ...(declaration.args
        ? { inputs: inputsOf(declaration.args, SUBJECTS.functionArgs(name), catalog) }
        : {}),
      outputs: outputsOf(declaration, SUBJECTS.functionResult(name), catalog, docs),
    };
  }
  return specs;
}
