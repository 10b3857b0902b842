/**
 * What a wait says to the person running Pulumi: each status as it comes, a status the wait does
 * not expect with the API's reason, and why it ended when it did not settle (a status it does not
 * expect for too long, a cancelled run), with what to do next for a create, an update or a delete.
 * Both faces print these words (the kit makes them).
 */
import type { RetryAnswer, RetryInfo } from "../../client/http-options";
import { whereToSet } from "../../client/settings";

/**
 * Formats a duration in milliseconds for people: `850 ms`, `2.9 s` (tenths below 10 s), `12 s`,
 * `3 min 5 s`. Cut, never rounded up, as Pulumi cuts a resource's own time (`created (2s)`), so a
 * wait never reads longer than the row it is printed beside.
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.floor(ms)} ms`;
  if (ms < 10_000) return `${Math.floor(ms / 100) / 10} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ""}`;
}

/** A call as progress lines name it: `getService (q1w2e3r4t5)`, as its error would. */
function callName(operation: string, resourceId?: string): string {
  return resourceId ? `${operation} (${resourceId})` : operation;
}

/**
 * The progress line of a call the client repeats: what failed, and when it tries again, e.g.
 * `getService (q1w2e3r4t5): no answer from the API (ECONNREFUSED); trying again in 1.9 s (retry 2 of 6)`.
 */
export function retryLine(info: RetryInfo): string {
  const failed = info.reason.startsWith("HTTP ")
    ? `the API answered ${info.reason}`
    : `no answer from the API (${info.reason})`;
  const when =
    info.delayMs < 1 ? "at once" : `in ${formatDuration(info.delayMs)}${info.asked ? ", as it asked" : ""}`;
  return `${callName(info.operation, info.resourceId)}: ${failed}; trying again ${when} (retry ${info.attempt} of ${info.retries})`;
}

/** The progress line of a repeated call that got its answer: `getService (q1w2e3r4t5): the API answered at attempt 3`. */
export function answeredLine(info: RetryAnswer): string {
  return `${callName(info.operation, info.resourceId)}: the API answered at attempt ${info.attempts}`;
}

/** The progress line of a status: `waiting for service x to be READY: CONFIGURING after 12 s`. */
export function statusLine(what: string, state: string, elapsedMs: number): string {
  return `waiting for ${what}: ${state} after ${formatDuration(elapsedMs)}`;
}

/**
 * The last progress line of a wait that reported progress and then settled: `done waiting for
 * service x to be READY (12 s)`. Pulumi shows a resource's last line beside its row, so without
 * it a finished resource would still read "waiting".
 */
export function settledLine(what: string, elapsedMs: number): string {
  return `done waiting for ${what} (${formatDuration(elapsedMs)})`;
}

/** True when `line` is a {@link settledLine}: the last thing said was that a wait is over. */
export function isSettledLine(line: string | undefined): boolean {
  return line?.startsWith("done waiting for ") === true;
}

/**
 * What a read (refresh, import) says when the record it found has not settled: it records the
 * record as it is now. `leaving`: `service x is DELETING: the API is deleting it; it stays in the
 * stack until it is gone, then \`pulumi refresh\` removes it`; otherwise the status and that a later
 * refresh records where it settles.
 */
export function unsettledReadLine(resource: string, status: string, leaving: boolean): string {
  return leaving
    ? `${resource} is ${status}: the API is deleting it; it stays in the stack until it is gone, then ` +
        "`pulumi refresh` removes it"
    : `${resource} is ${status}, not settled: recorded as the API shows it now; run \`pulumi refresh\` ` +
        "once it settles to record where it ends";
}

/**
 * What a refresh says of a resource the API no longer has (deleted outside this stack): the
 * engine then drops it from the stack without saying why. `service q1w2e3r4t5 is not in the API
 * any more (deleted outside this stack?): the refresh removes it from the stack; the next
 * \`pulumi up\` creates a new one if the program still declares it`.
 */
export function goneReadLine(resource: string): string {
  return (
    `${resource} is not in the API any more (deleted outside this stack?): the refresh removes it ` +
    "from the stack; the next `pulumi up` creates a new one if the program still declares it"
  );
}

/**
 * What a delete says when the API answers it 404 (the record was deleted outside this stack, by an
 * earlier run, or by a first attempt whose answer was lost): the engine reports it deleted all the
 * same. `VPC vpc-1 is already gone from the API: nothing left to delete`.
 */
export function goneOnDeleteLine(resource: string): string {
  return `${resource} is already gone from the API: nothing left to delete`;
}

/**
 * The last line of a create that said it waits until the resource settles, once it has and every
 * step after it is made, unless its last line already said a wait is over ({@link isSettledLine}):
 * `service q1w2e3r4t5 is READY`.
 */
export function settledCreateLine(resource: string, status: unknown): string {
  return status === undefined ? `${resource} is ready` : `${resource} is ${String(status)}`;
}

/**
 * The progress line of a status the wait does not expect: what it is, the API's reason
 * (`apiReason`), and how long the wait bears it.
 */
export function unexpectedLine(
  what: string,
  state: string,
  reason: string,
  elapsedMs: number,
  limitMs: number,
): string {
  return (
    `${statusLine(what, state, elapsedMs)}, a status this wait does not expect (${reason}); ` +
    `it gives up if that lasts ${formatDuration(limitMs)}`
  );
}

/**
 * The failure of a wait that bore a status it does not expect for `limitMs` in a row; the limit
 * named where it is set (`origin`: an explicit provider's arguments; absent: stack config).
 */
export function stuckMessage(
  what: string,
  state: string,
  reason: string,
  forMs: number,
  limitMs: number,
  origin?: string,
): string {
  return (
    `gave up waiting for ${what}: it has been ${state} for ${formatDuration(forMs)}, a status this wait ` +
    `does not expect (${reason}); the limit is ${formatDuration(limitMs)} ` +
    `(${whereToSet("unexpectedStatusMs", origin)})`
  );
}

/** The failure of a wait the run's cancellation (Ctrl-C) ended. */
export function cancelledWaitMessage(what: string, lastState: string | undefined, elapsedMs: number): string {
  const last = lastState === undefined ? "" : `, last status ${lastState}`;
  return `cancelled (Ctrl-C) while waiting for ${what} (after ${formatDuration(elapsedMs)}${last})`;
}

/** The failure of a call the run's cancellation stopped before it started. */
export function cancelledBeforeMessage(what: string): string {
  return `cancelled (Ctrl-C) before ${what}: nothing was sent`;
}

/**
 * Why a wait ended the operation, when that calls for advice: the resource stuck in a state, the
 * run cancelled (Ctrl-C), the API unreachable (its retries spent), or the time limit passed.
 */
export type WaitEnding = "stuck" | "cancelled" | "unreachable" | "timeout";

/** What a failed create or update of `resource` (`service q1w2e3r4t5`) leaves, and what to do next. */
export function keptAdvice(resource: string, why: WaitEnding): string {
  const kept = `${resource} exists and stays in the stack with your inputs; nothing was deleted.`;
  if (why === "cancelled") return `${kept} Run \`pulumi up\` again to finish the job.`;
  if (why === "unreachable") return `${kept} Run \`pulumi up\` again once the API answers to finish the job.`;
  if (why === "timeout")
    return `${kept} Run \`pulumi up\` again to wait for it: the job is finished once it settles.`;
  return (
    `${kept} Run \`pulumi up\` again to wait for it once more: the job is finished once it recovers. ` +
    "If it does not, remove it from the program (or run `pulumi destroy`) to delete it."
  );
}

/**
 * What a failed delete of `resource` leaves, and what to do next; `accepted` when the API had
 * answered the delete (the wait for the resource to be gone ended), else it may have been sent.
 */
export function deleteAdvice(resource: string, why: WaitEnding, accepted = false): string {
  const kept = accepted
    ? `The API accepted the delete of ${resource}; it stays in the stack until it is gone.`
    : `The delete of ${resource} may have been sent; it stays in the stack.`;
  if (why === "cancelled") return `${kept} Run the command again to finish the delete.`;
  if (why === "unreachable")
    return `${kept} Run the command again once the API answers to finish the delete.`;
  if (why === "timeout")
    return accepted
      ? `${kept} Run the command again to wait until it is gone.`
      : `${resource} stays in the stack; the API has not accepted its delete. Run the command again to finish the delete.`;
  return `${kept} Run the command again to wait once more, once the API shows it being deleted.`;
}
