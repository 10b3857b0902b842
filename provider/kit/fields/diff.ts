/**
 * Diff shared by the resources: compares desired inputs with the last observed outputs
 * (so drift and half-finished updates show), property by property, and says which
 * properties force a replacement.
 */
import { API_WORDS_OUTPUT, withoutNewFollows } from "../hidden";
import { UNKNOWN, isUnknown } from "./check";

/** How a change of one input is carried out. */
export interface DiffRule {
  /** `replace` when the API cannot change it in place. */
  change: "update" | "replace";
  /** Value the property has when the input is absent (so absent and default do not differ). */
  default?: unknown;
  /** Custom equality, e.g. to compare only the parts of an object that matter. */
  equals?: (desired: unknown, observed: unknown) => boolean;
  /** Why a change replaces the resource, for the preview line. Default: `cannot change in place`. */
  why?: string;
  /** A change is only recorded in the stack: no API call carries it (see `settings.ts`). */
  stackOnly?: boolean;
  /** For an in-place input: true when this particular change cannot be made in place (`why` says why). */
  replaceIf?: (desired: unknown, observed: unknown) => boolean;
  /**
   * For an input whose change can replace: false for an observed value in words the provider
   * does not know (a type or region the API added, or no value at all), which never replaces
   * (invariant I6, docs/recovery.md). Absent: every value is known.
   */
  known?: (observed: unknown) => boolean;
}

/** A value the API reports for an input that replaces, in words the provider does not know. */
export interface UnknownWord {
  /** The input. */
  property: string;
  /** What the API reports (undefined: nothing). */
  value: unknown;
}

/** Kinds of a property diff, as Pulumi's `detailedDiff` names them. */
export type PropertyDiffKind =
  "ADD" | "DELETE" | "UPDATE" | "ADD_REPLACE" | "DELETE_REPLACE" | "UPDATE_REPLACE";

/** A diff result with the detail the engine's gRPC interface knows. */
export interface DetailedDiffResult {
  /** True when anything differs (an update or a replacement follows). */
  changes: boolean;
  /** The resource is deleted before its replacement is created (otherwise after). */
  deleteBeforeReplace: boolean;
  /** Per property: what kind of change. */
  detailedDiff: Record<string, { kind: PropertyDiffKind; inputDiff: boolean }>;
  /** Outputs that stay the same whatever happens (ids). */
  stables: string[];
  /** Properties that force a replacement. */
  replaces: string[];
  /** Observed values in words the provider does not know, which were not compared (never replace). */
  unknownWords?: UnknownWord[];
}

/** Structural equality of JSON-like values, ignoring key order and undefined members. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return (
      ka.length === kb.length &&
      ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return false;
}

/**
 * Compares `news` (desired inputs) with `olds` (last observed outputs) under `rules`.
 * A value unknown during preview counts as a change. Properties without a rule are ignored.
 * An observed value its rule does not know (`DiffRule.known`) never replaces: a replace-only
 * input is then left alone (listed in `unknownWords`), an in-place one is compared as usual.
 */
export function diffByRules(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  rules: Record<string, DiffRule>,
  stables: string[],
): DetailedDiffResult {
  const detailedDiff: DetailedDiffResult["detailedDiff"] = {};
  const replaces: string[] = [];
  const unknownWords: UnknownWord[] = [];
  for (const [prop, rule] of Object.entries(rules)) {
    const desired = news[prop] ?? rule.default;
    const observed = olds[prop] ?? rule.default;
    const unknown = isUnknown(news[prop]) || news[prop] === UNKNOWN;
    const same = !unknown && (rule.equals ? rule.equals(desired, observed) : deepEqual(desired, observed));
    if (same) continue;
    const strange = rule.known !== undefined && !rule.known(observed);
    if (strange && rule.change === "replace") {
      unknownWords.push({ property: prop, value: observed });
      continue;
    }
    const base: "ADD" | "DELETE" | "UPDATE" =
      observed === undefined ? "ADD" : desired === undefined ? "DELETE" : "UPDATE";
    if (rule.change === "replace" || (!strange && rule.replaceIf?.(desired, observed))) {
      replaces.push(prop);
      detailedDiff[prop] = { kind: `${base}_REPLACE`, inputDiff: true };
    } else {
      detailedDiff[prop] = { kind: base, inputDiff: true };
    }
  }
  const changes = Object.keys(detailedDiff).length > 0;
  return {
    changes,
    replaces,
    stables,
    detailedDiff,
    deleteBeforeReplace: false,
    ...(unknownWords.length > 0 ? { unknownWords } : {}),
  };
}

/**
 * Outputs in the provider's words (I6): an input that replaces, whose observed value in `outs`
 * its rule does not know (or that the record does not show), keeps the value of `words` (the
 * program's inputs, or the old state on a refresh) when that one is known; what the API said is
 * kept apart under API_WORDS_OUTPUT, for the preview's warning.
 */
export function inProgramWords<O extends object>(
  rules: Record<string, DiffRule>,
  outs: O,
  words: Record<string, unknown>,
): O {
  const out = outs as Record<string, unknown>;
  const api: Record<string, unknown> = {};
  for (const [prop, rule] of Object.entries(rules)) {
    if (rule.change !== "replace" || !rule.known || rule.known(out[prop])) continue;
    const theirs = words[prop];
    if (theirs === undefined || !rule.known(theirs)) continue;
    if (out[prop] !== undefined) api[prop] = out[prop];
    out[prop] = theirs;
  }
  return (Object.keys(api).length > 0 ? { ...out, [API_WORDS_OUTPUT]: api } : out) as O;
}

/**
 * `projectId` of every resource: unset means "the configured project", so only a project
 * given and different from the one in use replaces the resource.
 */
export const PROJECT_DIFF_RULE: DiffRule = {
  change: "replace",
  equals: (d, o) => d === undefined || d === o,
  why: "a resource cannot move to another project",
};

/** What {@link diffResource} reads of a resource spec. */
export interface DiffFacts {
  /** Diff rules, per input. */
  diffRules: Record<string, DiffRule>;
  /** Outputs that never change in place (ids). */
  stables: string[];
  /** A status the API reports for a failed terminal state: a resource seen in it is replaced. */
  failedStatus?: string;
  /** Replacements delete the old resource first. */
  deleteBeforeReplace?: boolean;
}

/**
 * Diff of a resource: desired inputs `news` against the last observed outputs `olds` under
 * its rules. A resource observed in its failed terminal state cannot be repaired in place,
 * so it is replaced, deleting it first (the new one may take the same name or peer).
 */
export function diffResource(
  facts: DiffFacts,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): DetailedDiffResult {
  const result = diffByRules(olds, withoutNewFollows(olds, news), facts.diffRules, facts.stables);
  if (facts.failedStatus === undefined || olds.status !== facts.failedStatus)
    return { ...result, deleteBeforeReplace: facts.deleteBeforeReplace === true };
  return {
    ...result,
    changes: true,
    replaces: [...result.replaces, "status"],
    detailedDiff: { ...result.detailedDiff, status: { kind: "UPDATE_REPLACE", inputDiff: false } },
    deleteBeforeReplace: true,
  };
}
