/**
 * Deleting, shared by every resource: a 404 means already gone; a delete request is only
 * accepted, so the stack waits until the resource has disappeared before moving on (e.g. to
 * delete the VPC a peering used); and a delete refused because the resource is still in use
 * (409) can be tried again until the deadline, or, when its blockers can be looked at, only
 * while they are being deleted (`blockers.ts`).
 */
import type { BackoffPolicy } from "../../client/backoff";
import { MdbApiError } from "../../client/errors";
import type { Clock } from "../context";
import { goneOnDeleteLine } from "../messages/waits";
import { BLOCKED_GRACE_MS, type Blocker, blockedError, judgeBlocked } from "./blockers";
import { apiReason } from "./statuses";
import { type PollVerdict, WaitError, formatDuration, waitFor } from "./wait";

/** True when `error` is the API's 404: the resource does not exist (any more). */
export function isGone(error: unknown): boolean {
  return error instanceof MdbApiError && error.isNotFound;
}

/** Resolves to what `request` answers, or to undefined when the API answers 404. */
export async function unlessGone<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  }
}

/** How a delete refused with 409 because the resource is still in use is tried again. */
export interface WhileInUse {
  /** Schedule of the retries. */
  poll: BackoffPolicy;
  /** What the user should do when the deadline passes, e.g. `Detach the services ...`. */
  advice: string;
}

/** Settings of {@link deleteAndWaitGone}. */
export interface DeleteOptions {
  /** What is deleted, for messages: `VPC vpc-1`. */
  what: string;
  /** Sends the delete. */
  send: () => Promise<unknown>;
  /** Looks the resource up: undefined once it is gone. Absent: the delete is synchronous. */
  look?: () => Promise<unknown>;
  /** Longest wait, in milliseconds. */
  timeoutMs: number;
  /** Retry a 409 (still in use) until `timeoutMs`; absent: a 409 fails at once. */
  whileInUse?: WhileInUse;
  /** What keeps the resource, looked at after each 409: the delete fails fast unless they are going. */
  blockers?: () => Promise<Blocker[]>;
  /** How long blockers that are not being deleted are waited for, in ms. Default {@link BLOCKED_GRACE_MS}. */
  blockedGraceMs?: number;
  /** Reports progress. */
  log(message: string): void;
  /** Called once the API has accepted the delete (before the wait until the resource is gone). */
  onAccepted?: () => void;
  /** Time and sleep. */
  clock: Clock;
  /** The run's cancellation: the wait ends at once when it aborts. */
  signal?: AbortSignal;
  /** Longest time in a row the record may show a status other than deleting, in ms; absent: the default. */
  unexpectedStatusMs?: number;
  /** Where that limit was set when not in stack config: an explicit provider's arguments. */
  settingsOrigin?: string;
}

/**
 * Verdict on a record still there after its delete was sent: on its way out (`DELETING`,
 * `deleting`, or no status at all) the wait goes on; any other status is one it does not expect
 * (the delete not acted upon, a failed server), named with the API's reason.
 */
export function judgeDeleting(record: { status?: string }): PollVerdict {
  const state = record.status ?? "present";
  return record.status === undefined || /^delet/i.test(record.status)
    ? { done: false, state }
    : { done: false, state, unexpected: apiReason(record) };
}

/** Sends a delete (404: already gone), then waits until the resource is gone. */
export async function deleteAndWaitGone(options: DeleteOptions): Promise<void> {
  const start = options.clock.now();
  const sent = options.whileInUse
    ? await sendWhileInUse(options, options.whileInUse)
    : (await unlessGone(options.send().then(() => true))) === true;
  if (!sent) options.log(goneOnDeleteLine(options.what));
  const look = options.look;
  if (!sent || !look) return;
  options.onAccepted?.();
  await waitFor(
    async () => (await unlessGone(look())) as { status?: string } | undefined,
    (record) => (record === undefined ? { done: true } : judgeDeleting(record)),
    {
      what: `${options.what} to be deleted`,
      timeoutMs: Math.max(0, options.timeoutMs - (options.clock.now() - start)),
      onProgress: options.log,
      clock: options.clock,
      signal: options.signal,
      unexpectedLimitMs: options.unexpectedStatusMs,
      settingsOrigin: options.settingsOrigin,
    },
  );
}

/** Sends the delete until it is not refused with 409; false when the resource was already gone. */
async function sendWhileInUse(options: DeleteOptions, whileInUse: WhileInUse): Promise<boolean> {
  let refusal: MdbApiError | undefined;
  let sent = false;
  const start = options.clock.now();
  let firstRefusal: number | undefined;
  try {
    await waitFor(
      async () => {
        try {
          await options.send();
          sent = true;
          return "";
        } catch (error) {
          if (isGone(error)) return "";
          if (!(error instanceof MdbApiError && error.isConflict)) throw error;
          refusal = error;
          firstRefusal ??= options.clock.now();
          if (!options.blockers) return `still in use: ${error.apiMessage}`;
          const verdict = judgeBlocked(
            await options.blockers(),
            options.clock.now() - firstRefusal,
            options.blockedGraceMs ?? BLOCKED_GRACE_MS,
          );
          if ("fail" in verdict)
            throw blockedError(options.what, verdict.fail, whileInUse.advice, error.apiMessage);
          return verdict.wait;
        }
      },
      (why) => (why === "" ? { done: true } : { done: false, state: why }),
      {
        // Accepted is deleted only for what is removed at once; the rest has its own wait after.
        what: options.look
          ? `the API to accept the delete of ${options.what}`
          : `${options.what} to be deleted`,
        timeoutMs: options.timeoutMs,
        poll: whileInUse.poll,
        onProgress: options.log,
        clock: options.clock,
        signal: options.signal,
      },
    );
  } catch (error) {
    if (error instanceof WaitError && error.kind === "timeout" && refusal) {
      throw new Error(
        `cannot delete ${options.what}: it is still in use after ${formatDuration(options.clock.now() - start)} of ` +
          `retries (${refusal.apiMessage}). ${whileInUse.advice}, then run the command again; the ` +
          "customTimeouts option raises the wait",
        { cause: error },
      );
    }
    throw error;
  }
  return sent;
}
