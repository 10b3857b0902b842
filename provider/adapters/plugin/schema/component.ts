/**
 * The package schema's component from its declaration: its arguments as inputs (defaults,
 * secrets and plain values as declared), its registered outputs as properties.
 */
import type { z } from "zod";
import { type DocSource, SUBJECTS, described } from "./docs";
import type { ResourceSpec } from "./spec";
import type { TypeCatalog } from "./zod-types";

/** A component, declared: its arguments and the outputs it registers (zod objects). */
export interface ComponentDeclaration {
  /** Its name: the last part of its token `mdb:index:<name>`. */
  name: string;
  /** Its arguments. */
  args: z.ZodObject;
  /** The outputs it registers. */
  outputs: z.ZodObject;
}

/** The resource spec of `component` (`isComponent`), its named types added to `catalog`. */
export function componentSpec(
  component: ComponentDeclaration,
  catalog: TypeCatalog,
  docs: DocSource,
): ResourceSpec {
  const inputs = catalog.objectOf(
    component.args.shape,
    { subject: SUBJECTS.componentArgs, path: [] },
    { input: true },
  );
  const outputs = catalog.objectOf(component.outputs.shape, { subject: SUBJECTS.componentOutputs, path: [] });
  return {
    ...described(docs.field(SUBJECTS.component, [])),
    isComponent: true,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required ?? [],
    properties: outputs.properties,
    required: outputs.required ?? [],
  };
}
