/**
 * The native classes: each registers the type `mdb:index:<typeName>` with the engine (so the
 * plugin `mdb` serves it), the program's args as inputs and every row of its table as an output,
 * the table's secret rows secret, as a generated SDK's class does, and as the dynamic classes do
 * without Pulumi's per-promise debug stacks (`../../../program-resource.ts`). Rows marked `fromId`
 * are the resource's id, known during preview. An input that follows another resource of the
 * program (a read replica set's password) does so as in the dynamic classes (`program-links.ts`).
 * Each has its dynamic type token as an alias, so a stack the dynamic classes made moves over
 * with no replacement. The plugin builds a component's children with them (`component.ts`), and
 * a Node.js program constructs them from `pulumi-managed-db/native`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { FieldTable, ResourceDefinition } from "../../../kit/fields/field-table";
import { specOf } from "../../../kit/spec";
import { type ProgramClass, ProgramResource, withOutputs } from "../../../program-resource";
import type { ArgsOf } from "../../../program-types";
import { dynamicTypeToken, nativeToken } from "../../../type-tokens";

/** The native class of the resource `def` declares (its args and properties those of its table). */
export function nativeClass<F extends FieldTable, P extends string>(
  def: ResourceDefinition<F, P>,
): ProgramClass<F> {
  const spec = specOf(def);
  const type = nativeToken(spec.typeName);
  const alias = { type: dynamicTypeToken(spec.typeName) };
  class NativeResource extends ProgramResource {
    constructor(name: string, args: ArgsOf<F>, opts?: pulumi.CustomResourceOptions) {
      super(spec, type, name, withOutputs(spec, { ...args }), {
        ...opts,
        // A stack whose resources the dynamic classes made keeps each as it is.
        aliases: [...(opts?.aliases ?? []), alias],
        additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...spec.secretOutputs],
      });
    }
  }
  Object.defineProperty(NativeResource, "name", { value: spec.typeName });
  return NativeResource as unknown as ProgramClass<F>;
}
