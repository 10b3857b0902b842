/**
 * What an update or a replacement of a resource will call, gathered when the provider diffs
 * it: the same plan `up` runs (`ResourceOps.plan`), from the last observed outputs to the
 * program's inputs; for a replacement, the create, the calls that follow it and the delete.
 * `preview.ts` puts the result in words.
 */
import type { DetailedDiffResult } from "../fields/diff";
import { isUnknown } from "../fields/check";
import { type ChangeDescription, type PlannedCall, acceptedEarlierNote, callText, change } from "./lines";
import { acceptedCalls } from "../hidden";
import type { CheckContext, Props, ResourceOps, ResourceSpec } from "../spec";
import { stepCall } from "../lifecycle/steps";
import { createdOutputs } from "../fields/field-table";

/** What {@link previewCalls} needs besides the spec and ops. */
export interface PreviewFacts {
  /** What the line calls the resource: its program name (`db`). */
  name: string;
  /** The last observed outputs (the state). */
  olds: Props;
  /** The program's inputs, checked; values unknown during preview are the UNKNOWN marker. */
  news: Props;
  /** The diff of `olds` and `news`. */
  diff: DetailedDiffResult;
  /** The inputs parsed, defaults filled in. */
  parse(raw: Props): unknown;
  /** Read-only access to the API for {@link CallWords.created}, made only when one asks. */
  lookups(): Promise<CheckContext>;
  /** Why it is replaced, when not for the inputs `diff.replaces` names (Pulumi's own replacement). */
  reasons?: string[];
}

/**
 * The calls the update (or replacement) the diff found will make, in order. Inputs whose value
 * is known only during `up` keep their observed value here and are listed as pending.
 */
export async function previewCalls<I, O, R, P extends string>(
  spec: ResourceSpec<P>,
  ops: ResourceOps<I, O, R, P>,
  { name, olds, news, diff, parse, lookups, reasons: given }: PreviewFacts,
): Promise<ChangeDescription> {
  const secret = new Set(spec.secretOutputs);
  const changed = Object.keys(diff.detailedDiff).filter((p) => p in spec.diffRules);
  const pending = changed.filter((p) => isUnknown(news[p]));
  const known: Props = { ...news };
  for (const p of pending) known[p] = olds[p];
  const want = parse(known) as I;
  const base = {
    name,
    label: spec.label,
    runs: ops.calls.runs,
    calls: [] as PlannedCall[],
    recorded: [] as string[],
  };

  if (diff.replaces.length > 0) {
    const reasons =
      given ??
      diff.replaces.map((p) =>
        p in spec.diffRules
          ? `${p} ${change(olds[p], news[p], secret.has(p))}: ${spec.diffRules[p].why ?? "cannot change in place"}`
          : `the API reports it ${String(olds[p])}`,
      );
    const fresh = ops.calls.created
      ? await ops.calls.created(want, lookups)
      : (createdOutputs(spec.def, want as never) as unknown as O);
    const create = [ops.calls.create(want), ...(ops.plan?.(fresh, want) ?? []).map(stepCall)];
    const remove = ops.calls.remove(olds);
    return {
      ...base,
      pending: [],
      // A protected old one never gets here: the diff fails first (`protection.ts`).
      replace: { reasons, create, remove, deleteFirst: diff.deleteBeforeReplace === true },
    };
  }

  const have = olds as O;
  const calls = (ops.plan?.(have, want) ?? []).map(stepCall);
  const recorded = changed
    .filter((p) => spec.diffRules[p].stackOnly && !pending.includes(p))
    .map((p) => `${p} ${change(olds[p] ?? spec.diffRules[p].default, news[p], secret.has(p))}`);
  const notes = earlierCallNotes(olds, calls);
  return { ...base, calls, recorded, pending, ...(notes.length > 0 && { notes }) };
}

/**
 * What the line says of the calls an earlier run left accepted (`hidden.ts`, ACCEPTED_OUTPUT),
 * whose wait `up` finishes before anything else: those among the `planned` calls are sent again
 * only if the API has not applied them; the others (the create, or a call the API has applied)
 * are only waited for.
 */
export function earlierCallNotes(olds: Props, planned: readonly PlannedCall[]): string[] {
  const earlier = acceptedCalls(olds);
  const plannedWords = planned.map(callText);
  const operation = (words: string) => words.split(" ", 1)[0];
  const awaited = earlier.filter((words) => !plannedWords.includes(words)).map(operation);
  const resent = planned.filter((call) => earlier.includes(callText(call))).map((call) => call.op);
  return [
    ...(awaited.length > 0 ? [acceptedEarlierNote(awaited, false)] : []),
    ...(resent.length > 0 ? [acceptedEarlierNote(resent)] : []),
  ];
}

/**
 * The line of a resource whose inputs did not change but whose state names calls an earlier
 * run left accepted: a partial state, which the engine updates to finish the job (no API call,
 * the wait only); undefined for any other.
 */
export function settlingOnly<P extends string>(
  spec: ResourceSpec<P>,
  runs: boolean,
  name: string,
  olds: Props,
): ChangeDescription | undefined {
  const notes = earlierCallNotes(olds, []);
  if (notes.length === 0) return undefined;
  return { name, label: spec.label, runs, calls: [], recorded: [], pending: [], notes };
}

/**
 * The description of a replacement Pulumi makes of its own accord (a replaceOnChanges resource
 * option) of a resource whose diff found only changes it makes in place: the engine checks it
 * again as a new resource, and the line says what `up` will do instead of the calls the diff
 * listed. `deleteFirst`: the diff answered deleteBeforeReplace.
 */
export function pulumiReplacement<I, O, R, P extends string>(
  spec: ResourceSpec<P>,
  ops: ResourceOps<I, O, R, P>,
  facts: Omit<PreviewFacts, "diff" | "reasons"> & { deleteFirst: boolean },
): Promise<ChangeDescription> {
  const diff: DetailedDiffResult = {
    changes: true,
    replaces: ["id"],
    stables: [],
    detailedDiff: {},
    deleteBeforeReplace: facts.deleteFirst,
  };
  const reasons = ["by Pulumi, as the replaceOnChanges resource option asks, instead of the calls above"];
  return previewCalls(spec, ops, { ...facts, diff, reasons });
}
