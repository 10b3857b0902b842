/**
 * Polling until an asynchronous change settles. By default the first look comes 100 ms into the
 * wait, then one every 650 ms on a fixed grid counted from the wait's start (a slow answer does
 * not push the later looks back): a settled resource is noticed about 0.33 s after it settles
 * (0.65 s at most, plus the look's own time), and a wait costs fewer than two GETs a second.
 * Request-level retries (429 with `Retry-After`, 5xx, dropped connections) happen inside the
 * client; a look that still fails transiently is made again at the next tick.
 */
import { BackoffPolicy, backoffDelay } from "../../client/backoff";
import { MdbApiError } from "../../client/errors";
import { type Clock, REAL_CLOCK } from "../context";
import {
  cancelledWaitMessage,
  formatDuration,
  settledLine,
  statusLine,
  stuckMessage,
  unexpectedLine,
} from "../messages/waits";
import { CancelledError, isCancellation } from "./cancel";
import { DEFAULT_UNEXPECTED_STATUS_MS } from "./wait-limits";

export { formatDuration } from "../messages/waits";

/** A fixed cadence of looks: the first `firstMs` into the wait, then every `everyMs` from its start. */
export interface PollGrid {
  /** When the first look is made, in milliseconds from the wait's start. */
  firstMs: number;
  /** Distance between later looks, in milliseconds, counted from the wait's start. */
  everyMs: number;
}

/** Default polling schedule of waits: a look at 100 ms, then at 650, 1300, 1950 ms, ... */
export const DEFAULT_POLL: PollGrid = { firstMs: 100, everyMs: 650 };

/**
 * Milliseconds to sleep before look number `attempt` (0 for the first), `elapsed` ms into the
 * wait. A {@link PollGrid} looks first at `firstMs`, then at the next multiple of `everyMs`
 * still ahead; a {@link BackoffPolicy} looks at once, then after its growing delays.
 */
export function pollDelay(poll: BackoffPolicy | PollGrid, attempt: number, elapsed: number): number {
  if (!("everyMs" in poll)) return attempt === 0 ? 0 : backoffDelay(poll, attempt - 1);
  if (attempt === 0) return Math.max(0, poll.firstMs - elapsed);
  const next = (Math.floor(elapsed / poll.everyMs) + 1) * poll.everyMs;
  return next - elapsed;
}

/** What one look at the resource says. */
export type PollVerdict =
  /** The change has settled. */
  | { done: true }
  /**
   * Still in progress; `state` is shown in progress messages. With `unexpected`, the reason the
   * API gives (`statuses.ts`): a status the wait does not expect, borne for a bounded time only.
   */
  | { done: false; state: string; unexpected?: string }
  /** A failed terminal state; `message` quotes the API. */
  | { failed: string };

/** Settings of one wait. */
export interface WaitOptions {
  /** What is awaited, for messages: e.g. `service abc123 to be READY`. */
  what: string;
  /** Longest wait, in milliseconds. */
  timeoutMs: number;
  /** Polling schedule; default {@link DEFAULT_POLL}. */
  poll?: BackoffPolicy | PollGrid;
  /** Called when the observed state changes, and every `progressEveryMs`, for a person to follow. */
  onProgress?: (message: string) => void;
  /** How often a still-unchanged state is reported, in milliseconds. Default 30 000. */
  progressEveryMs?: number;
  /** Clock and sleep, injectable for tests. */
  clock?: Clock;
  /** The run's cancellation: the wait ends within a look's time when it aborts ({@link CancelledError}). */
  signal?: AbortSignal;
  /**
   * Longest time in a row the wait bears statuses it does not expect, in ms. Default
   * {@link DEFAULT_UNEXPECTED_STATUS_MS} (`mdb:unexpectedStatusMs`).
   */
  unexpectedLimitMs?: number;
  /**
   * Where that limit was set when not in stack config, as the message of a wait it ends names it:
   * an explicit provider's arguments (`the arguments of provider prod`).
   */
  settingsOrigin?: string;
}

/** How a wait ended without the change settling. */
export type WaitErrorKind =
  /** The time limit passed. */
  | "timeout"
  /** The resource reached a failed state. */
  | "failed"
  /** The resource stayed in statuses the wait does not expect for too long. */
  | "stuck";

/** Raised when a wait ends without the change settling. */
export class WaitError extends Error {
  /** Why the wait ended (see {@link WaitErrorKind}). */
  readonly kind: WaitErrorKind;
  /** The last state seen. */
  readonly lastState?: string;

  constructor(kind: WaitErrorKind, message: string, lastState?: string) {
    super(message);
    this.name = "WaitError";
    this.kind = kind;
    this.lastState = lastState;
  }
}

/**
 * How many looks in a row may fail transiently (no answer, 429, 5xx, each after the client's own
 * retries) before a wait gives up: a poll that failed is simply made again at the next tick,
 * but an API that stays unreachable ends the wait instead of sitting out its time limit.
 */
export const TRANSIENT_LOOK_FAILURES = 3;

/**
 * Calls `look` until `judge` says done, and returns the last value looked at; shows each new
 * state as it comes (and again every `progressEveryMs`), and, when it showed any, that it is
 * done ({@link settledLine}: Pulumi shows a resource's last line beside its row). Throws
 * {@link WaitError} on a failed state, when `timeoutMs` passes, or when the resource stays
 * `unexpectedLimitMs` in a row in statuses the wait does not expect; {@link CancelledError} as
 * soon as `signal` aborts. A look that fails transiently ({@link MdbApiError.isTransient}) is
 * reported as progress and made again at the next tick, up to {@link TRANSIENT_LOOK_FAILURES} in
 * a row; any other error thrown by `look` ends the wait.
 */
export async function waitFor<T>(
  look: () => Promise<T>,
  judge: (value: T) => PollVerdict,
  options: WaitOptions,
): Promise<T> {
  const clock = options.clock ?? REAL_CLOCK;
  const poll = options.poll ?? DEFAULT_POLL;
  const progressEvery = options.progressEveryMs ?? 30_000;
  const unexpectedLimit = options.unexpectedLimitMs ?? DEFAULT_UNEXPECTED_STATUS_MS;
  const { signal, what } = options;
  const start = clock.now();
  let lastState: string | undefined;
  let lastReason: string | undefined;
  let lastReport = start;
  let reported = false;
  const report = (line: string) => {
    reported = true;
    options.onProgress?.(line);
  };
  let failedLooks = 0;
  let unexpectedSince: number | undefined;
  const cancelled = () => new CancelledError(cancelledWaitMessage(what, lastState, clock.now() - start));
  const sleepUntilLook = async (attempt: number) => {
    const elapsed = clock.now() - start;
    const delay = Math.min(pollDelay(poll, attempt, elapsed), Math.max(0, options.timeoutMs - elapsed));
    if (delay > 0) await clock.sleep(delay, signal);
  };
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw cancelled();
    await sleepUntilLook(attempt);
    if (signal?.aborted) throw cancelled();
    let value: T;
    try {
      value = await look();
      failedLooks = 0;
    } catch (error) {
      if (signal?.aborted || isCancellation(error)) throw cancelled();
      const transient = error instanceof MdbApiError && error.isTransient;
      if (!transient || ++failedLooks >= TRANSIENT_LOOK_FAILURES || clock.now() - start >= options.timeoutMs)
        throw error;
      report(`waiting for ${what}: a look failed (${(error as Error).message}); looking again`);
      continue;
    }
    const verdict = judge(value);
    if ("failed" in verdict) throw new WaitError("failed", `${what}: failed: ${verdict.failed}`, lastState);
    if (verdict.done) {
      if (reported) report(settledLine(what, clock.now() - start));
      return value;
    }
    const now = clock.now();
    const elapsed = now - start;
    const reason = verdict.unexpected;
    unexpectedSince = reason === undefined ? undefined : (unexpectedSince ?? now);
    if (verdict.state !== lastState || reason !== lastReason || now - lastReport >= progressEvery) {
      report(
        reason === undefined
          ? statusLine(what, verdict.state, elapsed)
          : unexpectedLine(what, verdict.state, reason, elapsed, unexpectedLimit),
      );
      lastReport = now;
    }
    lastState = verdict.state;
    lastReason = reason;
    if (reason !== undefined && unexpectedSince !== undefined && now - unexpectedSince >= unexpectedLimit)
      throw new WaitError(
        "stuck",
        stuckMessage(
          what,
          verdict.state,
          reason,
          now - unexpectedSince,
          unexpectedLimit,
          options.settingsOrigin,
        ),
        lastState,
      );
    if (elapsed >= options.timeoutMs) {
      throw new WaitError(
        "timeout",
        `timed out after ${formatDuration(elapsed)} waiting for ${what} (last state: ${verdict.state}` +
          `${reason === undefined ? "" : `; ${reason}`}); raise the limit with the customTimeouts resource option`,
        lastState,
      );
    }
  }
}

/**
 * {@link waitFor} with what every resource wait shares: the time left until `deadline`
 * (milliseconds since the epoch) and progress lines for the person running Pulumi.
 */
export function waitUntil<T>(
  ctx: WaitContext,
  look: () => Promise<T>,
  judge: (value: T) => PollVerdict,
  what: string,
): Promise<T> {
  const timeoutMs = Math.max(0, ctx.deadline - ctx.clock.now());
  return waitFor(look, judge, {
    what,
    timeoutMs,
    onProgress: ctx.log,
    clock: ctx.clock,
    signal: ctx.signal,
    unexpectedLimitMs: ctx.unexpectedStatusMs,
    settingsOrigin: ctx.settingsOrigin,
  });
}

/**
 * What a resource's wait works with: when it must end, where progress goes, the clock, the run's
 * cancellation, and how long a status it does not expect is borne.
 */
export interface WaitContext {
  /** When the operation must be done, milliseconds since the epoch. */
  deadline: number;
  /** Reports progress. */
  log(message: string): void;
  /** Time and sleep. */
  clock: Clock;
  /** The run's cancellation; absent: the wait cannot be cancelled. */
  signal?: AbortSignal;
  /** Longest time in a row in statuses the wait does not expect, in ms; absent: the default. */
  unexpectedStatusMs?: number;
  /** Where that limit was set when not in stack config: an explicit provider's arguments. */
  settingsOrigin?: string;
}

/**
 * A judge that also waits until `changed` holds once `judge` says done: an action's answer
 * can come before the record shows its effect.
 */
export function judgeUntil<T extends { status: string }>(
  judge: (value: T) => PollVerdict,
  changed?: (value: T) => boolean,
): (value: T) => PollVerdict {
  return (value) => {
    const verdict = judge(value);
    if ("done" in verdict && verdict.done && changed && !changed(value))
      return { done: false, state: `${value.status} (change not visible yet)` };
    return verdict;
  };
}

/**
 * Sends an asynchronous action and waits with `settle` until `changed` holds. A 409 means the
 * resource was busy, possibly with this very action when a retried request's first attempt got
 * through (its answer lost to a 5xx or a dropped connection): wait until it settles, and send
 * again only if the change has not happened.
 */
export async function sendAndSettle<T>(
  what: string,
  send: () => Promise<unknown>,
  settle: (changed?: (value: T) => boolean) => Promise<T>,
  changed: (value: T) => boolean,
  log: (message: string) => void,
): Promise<void> {
  try {
    await send();
  } catch (error) {
    if (!(error instanceof MdbApiError && error.isConflict)) throw error;
    log(`${what} is busy (${error.apiMessage}); waiting for it to settle`);
    if (changed(await settle())) return;
    await send();
  }
  await settle(changed);
}
