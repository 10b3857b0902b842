/**
 * Resource options the dynamic provider host does not hand to a provider, which the resource
 * classes pass as hidden inputs instead (`hidden.ts`): the `import` option (the host cannot serve
 * it, pulumi/pulumi#16175: `create` adopts the record instead) and `customTimeouts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { type Timeouts, parseDuration } from "../../kit/lifecycle/timeouts";

/** Options without `import`, and the id it named. */
export function takeImport(opts: pulumi.CustomResourceOptions | undefined): {
  opts: pulumi.CustomResourceOptions | undefined;
  importId?: pulumi.Input<string>;
} {
  if (!opts || opts.import === undefined) return { opts };
  const { import: importId, ...rest } = opts;
  return { opts: rest, importId };
}

/** Pulumi's `customTimeouts` option as the hidden input carries it, in milliseconds (unreadable ones left out). */
export function timeoutsInput(custom?: {
  create?: string;
  update?: string;
  delete?: string;
}): Partial<Timeouts> {
  const out: Partial<Timeouts> = {};
  for (const key of ["create", "update", "delete"] as const) {
    const ms = parseDuration(custom?.[key]);
    if (ms !== undefined) out[key] = ms;
  }
  return out;
}
