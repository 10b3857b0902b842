/**
 * Taken: a new resource whose identity a record already in the API has (a name the program chose,
 * a peering to the same peer), which its create would refuse without `mdb:adoptExisting`
 * (`adopt-existing.ts`). Check says so at preview, in the create's own words, so that `up` does
 * not make the program's other resources and then stop half-way on this one. The create still
 * looks again before it sends (a record made since then, or adopted with the switch).
 */
import { type CheckFailure, isUnknown } from "../fields/check";
import type { IdShape } from "../fields/ids";
import type { CreatePolicy, Props } from "../spec";
import { refusalOf } from "./adopt-existing";
import { type CreateRequest, adoptionCase, liveMatches } from "./create";
import type { RunHolds } from "./holds";
import type { DetailedDiffResult } from "../fields/diff";

/** The lists a run's checks read, per collection: one call each, however many resources ask. */
const runLists = new WeakMap<RunHolds, Map<string, Promise<unknown[]>>>();

/** `load`'s list of the collection `key`, read once per run (a failed read is read again next time). */
function listOnce<R>(holds: RunHolds, key: string, load: () => Promise<R[]>): Promise<R[]> {
  let lists = runLists.get(holds);
  if (!lists) runLists.set(holds, (lists = new Map()));
  let list = lists.get(key) as Promise<R[]> | undefined;
  if (!list) {
    list = load();
    lists.set(key, list);
    list.catch(() => lists.delete(key));
  }
  return list;
}

/**
 * The failure of a resource to be created (`olds` empty) whose create `request` would refuse the
 * live records of its identity (`policy.same`) that its collection holds now: one a name the
 * program chose (or a peering) matches while the switch is off, or more than one. Undefined when
 * the create would make or adopt it, when it already has a state, or while any of its identity or
 * its parent's id is unknown (a preview of a new parent). A parent this run created (`shape.parent`)
 * holds only what this run made, which twins compare: nothing is asked. `holds` is the run:
 * outside a host there is none and nothing is asked.
 */
export async function takenFailure<I, R, P extends string>(
  holds: RunHolds | undefined,
  policy: CreatePolicy<I, R, P> | undefined,
  request: CreateRequest<I, R, P>,
  olds: Props,
  shape: IdShape<P> & { kind: string; name: string | undefined },
): Promise<CheckFailure | undefined> {
  const { ctx, want } = request;
  const key = policy?.key;
  if (!holds || !policy || !key || Object.keys(olds).length > 0) return undefined;
  // Adopted at up, where the adoption is said: a generated name is the stack's own, the switch vouches.
  if (request.autoNamed || ctx.adoptExisting) return undefined;
  if ([...key.of(want), ...Object.values(ctx.ref)].some(isUnknown)) return undefined;
  const { parent } = shape;
  if (parent && holds.holdsOf(parent, String(ctx.ref[shape.parts[0]])).some((h) => h.how === "created"))
    return undefined;
  const records = await listOnce(holds, JSON.stringify(["taken", policy.identity, ctx.ref]), () =>
    policy.list(ctx, want),
  );
  // The record this resource's own diff held in this run is its old half, which Pulumi is
  // replacing (a replaceOnChanges option; `--replace` runs no diff, see OWN_RECORD): the
  // replacement deletes it first (replacedInPlaceOfItself), so it takes nothing from the new one.
  const own = (record: R) =>
    holds
      .holdsOf(shape.kind, request.importId(record))
      .some((h) => h.how === "managed" && h.by !== undefined && h.by === shape.name);
  const found = liveMatches(policy, records, want).filter((record) => !own(record));
  if (found.length === 0) return undefined;
  const reason = refusalOf(adoptionCase(policy, request, found));
  if (reason === undefined) return undefined;
  return { property: key.property, reason: found.length === 1 ? `${reason}. ${OWN_RECORD}` : reason };
}

/**
 * What a check that finds one record adds for the case it cannot tell apart from a new resource:
 * `pulumi up --replace` or a tainted resource, which Pulumi checks as new (no old inputs) and
 * replaces without asking the provider, making the new record before deleting the old.
 */
const OWN_RECORD =
  "If that record is this resource's own (`pulumi up --replace`, or a resource `pulumi state taint` " +
  "marked: Pulumi replaces it without asking the provider, and the new record cannot be made beside " +
  "the old one), make it again in two steps: `pulumi destroy --target <its URN>`, then `pulumi up`";

/**
 * `diff` with `deleteBeforeReplace` set when the kit found no reason to replace the resource and
 * its identity's own input (`policy.key.property`: a name) stays: a replacement would then be
 * Pulumi's (a replaceOnChanges option; `pulumi up --replace` asks for no diff), and its new record
 * could not be made beside the old one, whose identity it has (a create finds the old record and
 * refuses it, or takes it back, which is no replacement). So the old one goes first, as the program asked: its
 * delete (deletion protection, a final fork) runs before the create. The engine reads the flag
 * only when it replaces, and a `deleteBeforeReplace` resource option overrides it.
 */
export function replacedInPlaceOfItself<I, R, P extends string>(
  policy: CreatePolicy<I, R, P> | undefined,
  olds: Props,
  news: Props,
  diff: DetailedDiffResult,
): DetailedDiffResult {
  const property = policy?.key?.property;
  // With no change the engine never replaces for an option (replaceOnChanges acts on changes).
  if (!property || !diff.changes || diff.deleteBeforeReplace || diff.replaces.length > 0) return diff;
  const kept =
    olds[property] !== undefined && !isUnknown(news[property]) && news[property] === olds[property];
  return kept ? { ...diff, deleteBeforeReplace: true } : diff;
}
