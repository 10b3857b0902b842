/**
 * Deletes the API refuses (409) because something else still uses the resource: a VPC with
 * peerings or attached services. Waiting makes sense only while those blockers are themselves
 * being deleted; one that is not (a peering or service this run does not delete) will not go
 * away by waiting, so after a short grace the delete fails naming it and what to do, rather
 * than sitting out the delete timeout.
 */

/** Something that keeps a resource from being deleted. */
export interface Blocker {
  /** What it is, for messages: `peering pcx-1 (active, to account 1234, ...)`. */
  what: string;
  /** True while it is itself being deleted: it will go, so the delete waits for it. */
  deleting: boolean;
}

/**
 * How long, in milliseconds, a delete is retried while blockers that are not being deleted
 * remain: 10 s, room for a list that lags behind a delete that just finished.
 */
export const BLOCKED_GRACE_MS = 10_000;

/** What a refused delete does next. */
export type BlockedVerdict =
  /** Try again; `state` says why, for progress lines. */
  | { wait: string }
  /** Give up: these blockers are not being deleted. */
  | { fail: Blocker[] };

/**
 * The verdict on a delete refused because of `blockers`, refused for `refusedForMs` so far:
 * fail once the grace has passed and some blocker is not being deleted, else wait. With no
 * blocker found (the refusal is settling) it waits; the delete timeout still bounds it.
 */
export function judgeBlocked(
  blockers: Blocker[],
  refusedForMs: number,
  graceMs: number = BLOCKED_GRACE_MS,
): BlockedVerdict {
  const staying = blockers.filter((b) => !b.deleting);
  if (staying.length > 0 && refusedForMs >= graceMs) return { fail: staying };
  if (blockers.length === 0) return { wait: "still in use" };
  const going = blockers.filter((b) => b.deleting);
  const parts = [
    staying.length ? `still used by ${list(staying)}` : "",
    going.length ? `${staying.length ? "and " : "still used by "}${list(going)}, being deleted` : "",
  ];
  return { wait: parts.filter(Boolean).join(" ") };
}

/** The error of a delete that blockers not being deleted keep from succeeding. */
export function blockedError(what: string, staying: Blocker[], advice: string, apiMessage: string): Error {
  return new Error(
    `cannot delete ${what}: it is used by ${list(staying)}, which ${staying.length > 1 ? "are" : "is"} ` +
      `not being deleted (the API answers: ${apiMessage}). ${advice} (or adopt them into the stack), ` +
      "then run the command again",
  );
}

function list(blockers: Blocker[]): string {
  const names = blockers.map((b) => b.what);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
}
