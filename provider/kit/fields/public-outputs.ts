/**
 * A resource's outputs without its secrets, as one object type: what the functions return of a
 * record (`getService`, `listVpcs`, ...). Made from the field table, so a row added to a table
 * is in the functions' results, their types and the package schema at once.
 */
import { z } from "zod";
import type { FieldTable, OutputTypeOf, ResourceDefinition, SecretMark } from "./field-table";
import { named } from "./type-facts";

/** The object shape of table `F`'s rows that are not secret, each of its output type. */
export type PublicShape<F extends FieldTable> = {
  [K in keyof F as F[K] extends SecretMark ? never : K]: OutputTypeOf<F[K]>;
};

/** The object type of `def`'s outputs without secrets, named `name` in the package schema. */
export function publicOutputs<F extends FieldTable, P extends string>(
  name: string,
  def: ResourceDefinition<F, P>,
): z.ZodObject<PublicShape<F>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, row] of Object.entries(def.fields as FieldTable))
    if (!row.secret) shape[key] = row.role === "input" ? row.outputType : row.type;
  return named(name, z.object(shape)) as unknown as z.ZodObject<PublicShape<F>>;
}
