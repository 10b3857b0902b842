/**
 * Hidden properties the kit keeps beside a resource's own inputs and outputs, in both faces:
 * diff ignores them and the API never sees them. Each adapter keeps its own beside these (the
 * dynamic face's are in `adapters/dynamic/hidden.ts`); this is the one place that names the kit's.
 */
import { PROVIDER_INPUT } from "../pulumi-contract/provider-text";
import { withoutUndefined } from "./fields/outputs";

/** `true` when the program gave no `name` and one was generated (see `fields/naming.ts`). */
export const AUTO_NAMED_INPUT = "__autoNamed";

/**
 * The inputs the program left out that a class filled in from another resource of the program
 * (`ResourceDefinition.follows`: a read replica set's password), as a list of names. A state
 * written before the follow has no such input; diff lets the filled-in value arrive without an
 * update (see {@link withoutNewFollows}), so an upgrade previews no change.
 */
export const FOLLOWED_INPUT = "__followed";

/** Hidden output: the `projectId` input as the program gave it (absent when it gave none). */
export const PROJECT_INPUT = "__projectIdInput";

/**
 * Hidden output: per input that replaces, the value the API reports in words the provider does
 * not know (`{ serviceType: "SOMETHING_NEW" }`), while the output keeps the program's value, so
 * the preview names it and only a change of the program replaces (invariant I6).
 */
export const API_WORDS_OUTPUT = "__apiWords";

/**
 * Hidden output: the calls of a create or an update that the API accepted and whose wait the run
 * did not see end (cut off by Ctrl-C, a time limit or an outage), in their preview words
 * (`resizeService 1000m/4GB → 2000m/8GB`). Only a partial state has it, so that the next preview
 * says `up` waits for such a call rather than sending it again (`preview/calls.ts`); the state a
 * finished update or a refresh writes has none.
 */
export const ACCEPTED_OUTPUT = "__acceptedCalls";

/** The calls a state names under {@link ACCEPTED_OUTPUT} (none when it has none). */
export function acceptedCalls(state: Record<string, unknown>): string[] {
  const calls = state[ACCEPTED_OUTPUT];
  return Array.isArray(calls) ? calls.filter((call): call is string => typeof call === "string") : [];
}

/**
 * The hidden inputs of the dynamic classes (`adapters/dynamic/hidden.ts` says what each holds):
 * what Pulumi's dynamic provider host cannot hand a provider, which the native engine hands the
 * plugin itself. Users' states hold them, under these names, forever; a state moved from the
 * dynamic classes to the plugin by alias still carries them, which the plugin ignores and drops.
 */
export const DYNAMIC_FACE_INPUTS = {
  /** The serialized provider. */
  provider: PROVIDER_INPUT,
  /** The id to adopt, from the `import` resource option. */
  importId: "__importId",
  /** The program's name of the resource. */
  resourceName: "__resourceName",
  /** The `customTimeouts` option, in milliseconds. */
  timeouts: "__timeouts",
} as const;

/** `props` without the dynamic classes' hidden inputs (what a state moved from them carries). */
export function withoutDynamicFaceInputs(props: Record<string, unknown>): Record<string, unknown> {
  const names: readonly string[] = Object.values(DYNAMIC_FACE_INPUTS);
  return Object.fromEntries(Object.entries(props).filter(([key]) => !names.includes(key)));
}

/** The kit's hidden inputs: check keeps them, diff ignores them. */
export const HIDDEN_INPUTS: ReadonlySet<string> = new Set([AUTO_NAMED_INPUT, FOLLOWED_INPUT]);

/**
 * `news` without the inputs a class filled in by a follow (named in {@link FOLLOWED_INPUT}) that
 * `olds` has no value of: a state an earlier release wrote, before the follow. Such a value is
 * no change of the program's; it is recorded with the next update (or the next `up`'s same step).
 * A value the program gives itself, or a follow the state already holds, compares as usual.
 */
export function withoutNewFollows(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Record<string, unknown> {
  const followed = news[FOLLOWED_INPUT];
  if (!Array.isArray(followed)) return news;
  const fresh = followed.filter(
    (name) => typeof name === "string" && (olds[name] === undefined || olds[name] === null),
  );
  if (fresh.length === 0) return news;
  return Object.fromEntries(Object.entries(news).filter(([key]) => !fresh.includes(key)));
}

/** True when the resource's name was generated (so a record of that name is ours). */
export function isAutoNamed(inputs: Record<string, unknown>): boolean {
  return inputs[AUTO_NAMED_INPUT] === true;
}

/**
 * The state to report for outputs `outs`, without undefined members. Carries whether the
 * program named the project, so a refresh can give back the program's inputs without a project
 * it never set. `carrier` is the inputs (create, update) or, for `read`, the old outputs, whose
 * `projectId` is the resolved project, never the program's.
 */
export function stateOf(
  outs: object,
  carrier: Record<string, unknown>,
  from: "inputs" | "outputs" = "inputs",
): Record<string, unknown> {
  const projectInput =
    PROJECT_INPUT in carrier || from === "outputs" ? carrier[PROJECT_INPUT] : carrier.projectId;
  return withoutUndefined({ ...outs, [PROJECT_INPUT]: projectInput }) as Record<string, unknown>;
}
