/**
 * What every resource class hands to `pulumi.dynamic.Resource`: the program's inputs plus
 * the hidden ones the provider needs (a generated name, the id to adopt for `import`, the
 * `customTimeouts`), every output name registered, and the options without `import`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { IMPORT_INPUT, takeImport } from "./adopt";
import { autoName } from "./naming";
import { TIMEOUTS_INPUT, timeoutsInput } from "./timeouts";

/** Properties and options for `super(...)` of a resource class. */
export function registration(
  resourceName: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
  settings: {
    /** Output names that are not inputs, registered so the class fields resolve. */
    outputs: string[];
    /** Whether a missing `name` is generated (see {@link autoName}). */
    autoName: boolean;
  },
): { props: Record<string, unknown>; opts: pulumi.CustomResourceOptions | undefined } {
  const { opts: rest, importId } = takeImport(opts);
  const props: Record<string, unknown> = { ...args };
  if (importId !== undefined) props[IMPORT_INPUT] = importId;
  if (settings.autoName && props.name === undefined) {
    props.name = autoName(resourceName);
    props.__autoNamed = true;
  }
  props[TIMEOUTS_INPUT] = timeoutsInput(rest?.customTimeouts);
  for (const out of settings.outputs) if (!(out in props)) props[out] = undefined;
  return { props, opts: rest };
}
