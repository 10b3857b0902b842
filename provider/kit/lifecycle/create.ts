/**
 * Create once, never a duplicate. Before sending, the records a create could have made are
 * looked for: one an interrupted run made under a name the class generated is adopted (the
 * name encodes project, stack and resource), one named by the program is adopted only with
 * `mdb:adoptExisting`, else refused with advice (`adopt-existing.ts`). A create is never
 * blindly retried: after an ambiguous failure (the request may have been carried out), the
 * list is read again, and only a matching record that was not there before is taken. Once the
 * run is cancelled, nothing is sent.
 */
import { MdbApiError } from "../../client/errors";
import { type AdoptionCase, adoptOrRefuse } from "./adopt-existing";
import { refuseIfCancelled } from "./cancel";
import type { CreatePolicy, OpContext } from "../spec";

/**
 * How many times a create is sent at most. Each send after the first follows a look that found
 * nothing made, so more attempts never make a duplicate; they only ride out a longer run of
 * failures (at 25 % of requests failing, six in a row happen to one create in 4 000).
 */
export const CREATE_ATTEMPTS = 6;

/** What {@link createOnce} needs besides the policy. */
export interface CreateRequest<I, R, P extends string> {
  /** The resource's parents and project. */
  ctx: OpContext<P>;
  /** The checked inputs. */
  want: I;
  /** True when the class generated the name: a matching record is ours to adopt. */
  autoNamed: boolean;
  /** The record's own id. */
  recordId(record: R): string;
  /** The id `import` takes for the record, for the advice. */
  importId(record: R): string;
  /** Told when an existing record is adopted instead of created. */
  onAdopt?(record: R): void;
}

/** Of `records`, those a create with `want` would adopt or refuse: `same`, and `live`. */
export function liveMatches<I, R, P extends string>(
  policy: CreatePolicy<I, R, P>,
  records: R[],
  want: I,
): R[] {
  return records.filter((r) => policy.same(r, want) && (policy.live?.(r) ?? true));
}

/** What `adopt-existing.ts` judges of the create `request` that found the live records `found`. */
export function adoptionCase<I, R, P extends string>(
  policy: CreatePolicy<I, R, P>,
  request: CreateRequest<I, R, P>,
  found: R[],
): AdoptionCase<R> {
  const { ctx, want } = request;
  return {
    what: policy.what(want),
    identity: policy.identity,
    autoNamed: request.autoNamed,
    found,
    recordId: request.recordId,
    importId: request.importId,
    refusal: (record) => policy.refusal(record, want, ctx),
    otherwise: policy.otherwise,
    adoptExisting: ctx.adoptExisting,
    settingsOrigin: ctx.settingsOrigin,
    anyLanguage: ctx.anyLanguage,
    log: ctx.log,
  };
}

/** Sends the create under `policy` and returns the new (or adopted) record. */
export async function createOnce<I, R, P extends string>(
  policy: CreatePolicy<I, R, P>,
  request: CreateRequest<I, R, P>,
): Promise<R> {
  const { ctx, want, recordId } = request;
  const what = policy.what(want);
  const before = await policy.list(ctx, want);
  const same = before.filter((r) => policy.same(r, want));
  const live = liveMatches(policy, before, want);
  if (live.length > 0) {
    const adopted = adoptOrRefuse(adoptionCase(policy, request, live));
    request.onAdopt?.(adopted);
    return adopted;
  }
  if (same.length > 0 && policy.ignored) ctx.log(policy.ignored(same, want, ctx));
  const known = new Set(before.map(recordId));
  for (let attempt = 1; ; attempt++) {
    refuseIfCancelled(ctx.signal, `sending the create of ${what}`);
    try {
      return await policy.send(ctx, want);
    } catch (error) {
      if (!(error instanceof MdbApiError) || attempt >= CREATE_ATTEMPTS) throw error;
      if (!error.ambiguous) {
        if (await policy.retryRefused?.(error, ctx, want)) continue;
        throw error;
      }
      ctx.log(`create of ${what} met ${error.code}; checking whether it was created`);
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      // This look is not cancelled: a record the create made is recorded, even after a Ctrl-C.
      const looking = { ...ctx, api: ctx.api?.withSignal?.(undefined) ?? ctx.api };
      const made = (await policy.list(looking, want)).find(
        (r) => policy.same(r, want) && !known.has(recordId(r)),
      );
      if (made) return made;
    }
  }
}
