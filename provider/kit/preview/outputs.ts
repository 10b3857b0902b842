/**
 * The outputs a preview reports for a create or an update it does not make (the native engine
 * asks the plugin for them; Pulumi's dynamic provider host never does, and the engine then makes
 * the same guess). What is known stays known, so a dependent resource shows no spurious change:
 * the program's inputs, and on an update the outputs that never change in place (ids, the
 * `stables` of the field table) and the inputs the program leaves out (the state's values), and
 * null for an output the checked inputs say the resource has none of (`ResourceDefinition`'s
 * absent outputs). Every other output is unknown until `up` reads the API.
 */
import { UNKNOWN } from "../fields/check";
import { withoutUndefined } from "../fields/outputs";
import { HIDDEN_INPUTS } from "../hidden";
import type { Props, ResourceSpec } from "../spec";

/** The rows of `spec` that are outputs only. */
function outputOnly(spec: ResourceSpec): string[] {
  return [...spec.stables, ...spec.outputNames, ...spec.fromId].filter(
    (name, i, all) => all.indexOf(name) === i && !spec.inputNames.includes(name),
  );
}

/**
 * The outputs of the resource of `spec` that checked inputs `news` would have, as a preview can
 * tell them: after a create when `olds` is absent, else after an update of the resource whose
 * last outputs are `olds`.
 */
export function previewOutputs(spec: ResourceSpec, news: Props, olds?: Props): Props {
  const outs: Props = {};
  for (const name of spec.inputNames) {
    const value = news[name] !== undefined ? news[name] : olds?.[name];
    if (value !== undefined) outs[name] = value;
  }
  // Outputs the inputs say the resource has none of (a pooler endpoint while the pooler is off):
  // null at a preview, as in the state.
  const absent = new Set(spec.absentOutputs?.(news) ?? []);
  for (const name of outputOnly(spec)) {
    if (olds && spec.stables.includes(name) && olds[name] !== undefined) outs[name] = olds[name];
    else outs[name] = absent.has(name) || news[name] === null ? null : UNKNOWN;
  }
  for (const name of HIDDEN_INPUTS) delete outs[name];
  return withoutUndefined(outs);
}
