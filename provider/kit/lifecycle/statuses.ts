/**
 * What a wait makes of the status a look found, declared per wait as a table: the status it
 * waits for, those the resource passes through on its way there, and the failed ones. Any other
 * status (UNSTABLE, a word the provider does not know, a settled status other than the awaited
 * one) is unexpected: the wait names it with the reason the API gives, and fails after a bounded
 * time in it (`wait.ts`), rather than sitting out its whole time limit.
 */
import type { PollVerdict } from "./wait";

/** A record with a status, as every awaited record is. */
export interface StatusRecord {
  /** The status the API reports. */
  status: string;
}

/** How one wait reads a status. */
export interface StatusRules<R extends StatusRecord> {
  /** The status awaited: the wait is done when the record shows it. */
  settled: string;
  /** Statuses on the way to {@link settled}: the wait goes on, showing them. */
  inProgress: readonly string[];
  /** Failed statuses, each with what to say (the reason is {@link apiReason} of the record). */
  failed?: Readonly<Record<string, (record: R) => string>>;
}

/** {@link StatusRules.failed} for `statuses` that each fail a wait with what `say` says. */
export function failing<R extends StatusRecord>(
  statuses: readonly string[],
  say: (record: R) => string,
): Record<string, (record: R) => string> {
  return Object.fromEntries(statuses.map((status) => [status, say]));
}

/**
 * The reason the API gives for a record's status: its `error_message` quoted when it has one, else
 * that it gives none. Any record may carry it (replica sets, peerings, services while UNSTABLE).
 */
export function apiReason(record: object): string {
  const message = (record as { error_message?: unknown }).error_message;
  return typeof message === "string" && message.trim() !== ""
    ? `the API says: ${JSON.stringify(message.trim())}`
    : "the API gives no reason";
}

/** The judge of a wait that reads statuses by `rules` (see the module comment). */
export function judgeStatus<R extends StatusRecord>(rules: StatusRules<R>): (record: R) => PollVerdict {
  return (record) => {
    if (record.status === rules.settled) return { done: true };
    const failed = rules.failed?.[record.status];
    if (failed) return { failed: failed(record) };
    if (rules.inProgress.includes(record.status)) return { done: false, state: record.status };
    return { done: false, state: record.status, unexpected: apiReason(record) };
  };
}

/**
 * Where a record's status stands when a read finds it: `settled` (nothing under way, a failed
 * terminal status included: the next `up` deals with it), `changing` (a create or change still
 * under way) or `leaving` (being deleted).
 */
export type RecordPhase = "settled" | "changing" | "leaving";

/**
 * The phase of `status` for a resource that settles in `settled` and is deleted through
 * `leaving`; any other status is `changing`.
 */
export function phaseOf(status: string, settled: readonly string[], leaving: readonly string[]): RecordPhase {
  if (settled.includes(status)) return "settled";
  return leaving.includes(status) ? "leaving" : "changing";
}
