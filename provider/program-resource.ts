/**
 * The base class of every resource class a program constructs, on both faces (the dynamic
 * classes, `adapters/dynamic/register.ts`; the native classes, `adapters/plugin/construct/classes.ts`):
 * it registers without Pulumi's per-promise debug stacks (`pulumi-contract/debug-stacks.ts`) and
 * remembers the resource, so an input of another resource that follows it finds it
 * (`program-links.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import { skipDebugStacks, watchRegistration } from "./pulumi-contract/debug-stacks";
import type { FieldTable } from "./kit/fields/field-table";
import { rememberResource } from "./program-links";
import type { ArgsOf, OutputProps } from "./program-types";

/** A resource of this package registered by a program: `super(kind, type, name, props, opts)`. */
export abstract class ProgramResource extends pulumi.CustomResource {
  /**
   * Registers the resource of `kind` (a registry key) as `type`, with `props` (inputs and the
   * output names) and `opts`.
   */
  protected constructor(
    kind: string,
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
    rememberResource(kind, this);
  }
}
watchRegistration(ProgramResource.prototype);

/**
 * A resource class of this package: `new Service(name, args, opts)`, its args and properties
 * those of its field table `F` (with the rows' docs).
 */
export type ProgramClass<F extends FieldTable> = new (
  name: string,
  args: ArgsOf<F>,
  opts?: pulumi.CustomResourceOptions,
) => ProgramResource & OutputProps<F>;
