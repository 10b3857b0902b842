/**
 * What both faces' resource classes do alike when a program constructs one (the dynamic classes,
 * `adapters/dynamic/register.ts`; the native classes, `adapters/plugin/construct/classes.ts`):
 * the inputs that follow another resource of the program and every output of the table go into
 * the registered properties ({@link withOutputs}); the base class registers them without Pulumi's
 * per-promise debug stacks (`pulumi-contract/debug-stacks.ts`), remembers the resource, so an
 * input of another resource that follows it finds it (`program-links.ts`), and makes the rows
 * marked `fromId` the resource's id, known while an update is previewed.
 */
import * as pulumi from "@pulumi/pulumi";
import { skipDebugStacks, watchRegistration } from "./pulumi-contract/debug-stacks";
import type { FieldTable } from "./kit/fields/field-table";
import type { ResourceSpec } from "./kit/spec";
import { applyFollows, rememberResource } from "./program-links";
import type { ArgsOf, OutputProps } from "./program-types";

/**
 * `props` (a copy of the program's args, with what a face adds) with the inputs that follow
 * another resource filled in when left out, and every output of `spec` registered (undefined
 * until the engine answers); returns `props`.
 */
export function withOutputs(spec: ResourceSpec, props: Record<string, unknown>): Record<string, unknown> {
  applyFollows(props, spec.follows);
  for (const out of spec.registered) if (!(out in props)) props[out] = undefined;
  return props;
}

/** A resource of this package registered by a program: `super(spec, type, name, props, opts)`. */
export abstract class ProgramResource extends pulumi.CustomResource {
  /** Registers the resource of `spec` as `type`, with `props` ({@link withOutputs}) and `opts`. */
  protected constructor(
    spec: ResourceSpec,
    type: string,
    name: string,
    props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions,
  ) {
    const restoreStacks = skipDebugStacks();
    try {
      super(type, name, props, opts);
    } finally {
      restoreStacks();
    }
    rememberResource(spec.kind, this);
    for (const field of spec.fromId) (this as unknown as Record<string, unknown>)[field] = this.id;
  }
}
watchRegistration(ProgramResource.prototype);

/**
 * A resource class of this package: `new Service(name, args, opts)`, its args and properties
 * those of its field table `F` (with the rows' docs). `A` is the args' exported type
 * (`ServiceArgs`, one object type over {@link ArgsOf}) and `I` its instances' (`Service`), which a
 * user's compiler and editor then name instead of printing the table's type.
 */
export type ProgramClass<F extends FieldTable, A = ArgsOf<F>, I = ProgramResource & OutputProps<F>> = new (
  name: string,
  args: A,
  opts?: pulumi.CustomResourceOptions,
) => I;
