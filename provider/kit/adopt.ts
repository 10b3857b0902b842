/**
 * Adopting an existing resource with Pulumi's `import` resource option.
 *
 * Pulumi's dynamic provider host cannot serve `import` (it calls `read` without the
 * serialized provider and fails: pulumi/pulumi#16175). So each resource class takes the
 * `import` option out of the options and hands the id to the provider as a hidden input;
 * `create` then adopts the existing resource instead of creating one. Like Pulumi's import,
 * adoption fails when the program differs from the resource, listing each difference.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { DetailedDiffResult } from "./diff";
import { IMPORT_INPUT, stateOf } from "./hidden";

/** Options without `import`, and the id it named. */
export function takeImport(opts: pulumi.CustomResourceOptions | undefined): {
  opts: pulumi.CustomResourceOptions | undefined;
  importId?: pulumi.Input<string>;
} {
  if (!opts || opts.import === undefined) return { opts };
  const { import: importId, ...rest } = opts;
  return { opts: rest, importId };
}

function show(value: unknown): string {
  return value === undefined ? "(not set)" : JSON.stringify(value);
}

/**
 * When `inputs` carry an id to adopt, reads that resource with `impl.read` and returns it as
 * the create result; otherwise returns undefined. Throws when it does not exist or when the
 * program's inputs differ from it under `compare` (the resource's diff). Inputs no record shows
 * (`unobservable`: a password, the settings only the stack keeps) may differ: the next `up`
 * records them (the password with its call).
 */
export async function adoptIfImported(
  impl: Pick<Required<pulumi.dynamic.ResourceProvider>, "read">,
  compare: (olds: Record<string, unknown>, news: Record<string, unknown>) => Partial<DetailedDiffResult>,
  kind: string,
  inputs: Record<string, unknown>,
  unobservable: readonly string[],
): Promise<pulumi.dynamic.CreateResult | undefined> {
  const importId = inputs[IMPORT_INPUT];
  if (typeof importId !== "string" || importId === "") return undefined;
  const found = await impl.read(importId, { projectId: inputs.projectId });
  if (!found.id || !found.props) throw new Error(`cannot import ${kind} "${importId}": it does not exist`);
  const props = found.props as Record<string, unknown>;
  const diff = compare(props, inputs);
  const differing = Object.keys(diff.detailedDiff ?? {}).filter((p) => !unobservable.includes(p));
  if (differing.length > 0) {
    const detail = differing
      .map((p) => `${p}: program ${show(inputs[p])}, found ${show(props[p])}`)
      .join("; ");
    throw new Error(
      `cannot import ${kind} "${importId}": the program differs from it (${detail}). ` +
        "Change the program to match, import, then change it",
    );
  }
  return { id: found.id, outs: stateOf(props, inputs) };
}
