/**
 * Adopting an existing resource with Pulumi's `import` resource option, when the engine cannot
 * do it itself (the dynamic face: Pulumi's dynamic provider host calls `read` without the
 * serialized provider and fails, pulumi/pulumi#16175, so the resource classes hand the id over as
 * a hidden input and `create` adopts the record instead of creating one). Like Pulumi's import,
 * adoption fails when the program differs from the resource, listing each difference.
 */
import type { DetailedDiffResult } from "../fields/diff";
import { stateOf } from "../hidden";

function show(value: unknown): string {
  return value === undefined ? "(not set)" : JSON.stringify(value);
}

/** A resource as a read finds it: its id and outputs, or nothing when it does not exist. */
export interface Found {
  /** Its Pulumi id; absent when it does not exist. */
  id?: string;
  /** Its outputs. */
  props?: Record<string, unknown>;
}

/**
 * Reads the resource `importId` with `read` and returns it as a create's result. Throws when it
 * does not exist or when the program's `inputs` differ from it under `compare` (the resource's
 * diff). Inputs no record shows (`unobservable`: a password, the settings only the stack keeps)
 * may differ: the next `up` records them (the password with its call).
 */
export async function adoptImported(
  read: (id: string, props: Record<string, unknown>) => Promise<Found>,
  compare: (olds: Record<string, unknown>, news: Record<string, unknown>) => Partial<DetailedDiffResult>,
  kind: string,
  importId: string,
  inputs: Record<string, unknown>,
  unobservable: readonly string[],
): Promise<{ id: string; outs: Record<string, unknown> }> {
  const found = await read(importId, { projectId: inputs.projectId });
  if (!found.id || !found.props) throw new Error(`cannot import ${kind} "${importId}": it does not exist`);
  const props = found.props;
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
