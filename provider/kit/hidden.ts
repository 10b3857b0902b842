/**
 * Hidden inputs: properties the resource classes add beside the program's own inputs, which
 * the provider reads but diff ignores and the API never sees. This is the one place that
 * names them.
 */
import { PROVIDER_INPUT } from "../pulumi-contract/provider-text";
import { withoutUndefined } from "./outputs";

/** The serialized provider, which Pulumi's dynamic provider host adds to inputs and outputs. */
export { PROVIDER_INPUT };

/** The id to adopt, from the `import` resource option (see `adopt.ts`). */
export const IMPORT_INPUT = "__importId";

/** `true` when the program gave no `name` and the class generated one (see `naming.ts`). */
export const AUTO_NAMED_INPUT = "__autoNamed";

/**
 * The program's name of the resource (`db`), which Pulumi does not hand to a dynamic provider:
 * the line a preview prints names the resource with it (see `preview.ts`).
 */
export const RESOURCE_NAME_INPUT = "__resourceName";

/** What a preview line calls the resource: its program name, else (older programs) its record's name or id. */
export function resourceNameOf(
  news: Record<string, unknown>,
  olds: Record<string, unknown>,
  id: string,
): string {
  const name = news[RESOURCE_NAME_INPUT];
  return typeof name === "string" ? name : String(olds.name ?? id);
}

/** The `customTimeouts` option in milliseconds, which Pulumi does not hand to a dynamic provider. */
export const TIMEOUTS_INPUT = "__timeouts";

/** Hidden output: the `projectId` input as the program gave it (absent when it gave none). */
export const PROJECT_INPUT = "__projectIdInput";

/**
 * Hidden output: per input that replaces, the value the API reports in words the provider does
 * not know (`{ serviceType: "SOMETHING_NEW" }`), while the output keeps the program's value, so
 * the preview names it and only a change of the program replaces (invariant I6).
 */
export const API_WORDS_OUTPUT = "__apiWords";

/** Every hidden input: check keeps them, diff ignores them. */
export const HIDDEN_INPUTS: ReadonlySet<string> = new Set([
  PROVIDER_INPUT,
  IMPORT_INPUT,
  AUTO_NAMED_INPUT,
  RESOURCE_NAME_INPUT,
  TIMEOUTS_INPUT,
]);

/** True when the class generated the resource's name (so a record of that name is ours). */
export function isAutoNamed(inputs: Record<string, unknown>): boolean {
  return inputs[AUTO_NAMED_INPUT] === true;
}

/**
 * The state to report for outputs `outs`, without undefined members. Carries what later
 * calls see only through the outputs: the timeouts input (delete gets only the outputs, and
 * `customTimeouts.delete` must travel there), and whether the program named the project, so
 * a refresh can give back the program's inputs without a project it never set; and the program's
 * name of the resource, so a delete knows which resource of the run it is (`holds.ts`). `carrier` is
 * the inputs (create, update) or, for `read`, the old outputs, whose `projectId` is the
 * resolved project, never the program's.
 */
export function stateOf(
  outs: object,
  carrier: Record<string, unknown>,
  from: "inputs" | "outputs" = "inputs",
): Record<string, unknown> {
  const projectInput =
    PROJECT_INPUT in carrier || from === "outputs" ? carrier[PROJECT_INPUT] : carrier.projectId;
  return withoutUndefined({
    ...outs,
    [TIMEOUTS_INPUT]: carrier[TIMEOUTS_INPUT],
    [PROJECT_INPUT]: projectInput,
    [RESOURCE_NAME_INPUT]: carrier[RESOURCE_NAME_INPUT],
  }) as Record<string, unknown>;
}
