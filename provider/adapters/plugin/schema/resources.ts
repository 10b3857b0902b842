/**
 * A resource of the package schema from its definition and field table: every input row an
 * input property (type, description, default, secret, `replaceOnChanges` for an input whose
 * change replaces), the inputs a program must give, every row a property of its outputs (an
 * input row by its output type), and the outputs always there.
 */
import type { AnyInputRow, FieldTable, ResourceDefinition, Row } from "../../../kit/fields/field-table";
import { type DocSource, SUBJECTS, described } from "./docs";
import type { PropertySpec, ResourceSpec } from "./spec";
import { unwrap } from "./unwrap";
import type { TypeCatalog } from "./zod-types";

/** True when a change of `row` replaces the resource. */
export function replacesOnChange(row: AnyInputRow): boolean {
  return "replace" in row.change;
}

/** A row's type as an output. */
function outputTypeOf(row: Row) {
  return row.role === "input" ? row.outputType : row.type;
}

/** The resource spec of `def`, its named types added to `catalog`. */
export function resourceSpec(
  def: ResourceDefinition<FieldTable, string>,
  catalog: TypeCatalog,
  docs: DocSource,
): ResourceSpec {
  const subject = SUBJECTS.resource(def.kind);
  const rows = Object.entries(def.fields);
  const inputProperties: Record<string, PropertySpec> = {};
  const requiredInputs: string[] = [];
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const [name, row] of rows) {
    const place = { subject, path: [name] };
    const facts = {
      ...(row.secret ? { secret: true } : {}),
      ...(row.role === "input" && replacesOnChange(row) ? { replaceOnChanges: true } : {}),
    };
    if (row.role === "input") {
      inputProperties[name] = { ...catalog.propertyOf(row.type, place, { input: true }), ...facts };
      if (!unwrap(row.type).omittable && !("generated" in row)) requiredInputs.push(name);
    }
    properties[name] = { ...catalog.propertyOf(outputTypeOf(row), place), ...facts };
    if (!unwrap(outputTypeOf(row)).absent) required.push(name);
  }
  return {
    ...described(docs.field(subject, [])),
    inputProperties,
    requiredInputs,
    properties,
    required,
  };
}
