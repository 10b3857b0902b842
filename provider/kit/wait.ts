/**
 * Polling until an asynchronous change settles. The first poll comes quickly and the
 * interval grows to a cap of half a second, so a settled resource is noticed within
 * 0.5 s while a long wait costs at most two GETs a second. Request-level retries
 * (429 with `Retry-After`, 5xx, dropped connections) happen inside the client.
 */
import { BackoffPolicy, backoffDelay } from "../client/backoff";
import { MdbApiError } from "../client/errors";
import { progress } from "../runtime";

/** Default polling schedule: 100 ms, growing by 1.5, capped at 500 ms, no jitter. */
export const DEFAULT_POLL: BackoffPolicy = { initialMs: 100, maxMs: 500, factor: 1.5, jitter: 0 };

/** What one look at the resource says. */
export type PollVerdict =
  /** The change has settled. */
  | { done: true }
  /** Still in progress; `state` is shown in progress messages. */
  | { done: false; state: string }
  /** A failed terminal state; `message` quotes the API. */
  | { failed: string };

/** Settings of one wait. */
export interface WaitOptions {
  /** What is awaited, for messages: e.g. `service abc123 to be READY`. */
  what: string;
  /** Longest wait, in milliseconds. */
  timeoutMs: number;
  /** Polling schedule; default {@link DEFAULT_POLL}. */
  poll?: BackoffPolicy;
  /** Called when the observed state changes, and every `progressEveryMs`, for a person to follow. */
  onProgress?: (message: string) => void;
  /** How often a still-unchanged state is reported, in milliseconds. Default 30 000. */
  progressEveryMs?: number;
  /** Clock and sleep, injectable for tests. */
  clock?: { now(): number; sleep(ms: number): Promise<void> };
}

/** Raised when a wait ends without the change settling. */
export class WaitError extends Error {
  /** `timeout` when the time limit passed, `failed` when the resource reached a failed state. */
  readonly kind: "timeout" | "failed";
  /** The last state seen. */
  readonly lastState?: string;

  constructor(kind: "timeout" | "failed", message: string, lastState?: string) {
    super(message);
    this.name = "WaitError";
    this.kind = kind;
    this.lastState = lastState;
  }
}

const realClock = {
  now: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/** Formats a duration in milliseconds for people: `850 ms`, `12 s`, `3 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ""}`;
}

/**
 * Calls `look` until `judge` says done, and returns the last value looked at.
 * Throws {@link WaitError} on a failed state or when `timeoutMs` passes; errors thrown by
 * `look` itself (after the client's own retries) end the wait too.
 */
export async function waitFor<T>(
  look: () => Promise<T>,
  judge: (value: T) => PollVerdict,
  options: WaitOptions,
): Promise<T> {
  const clock = options.clock ?? realClock;
  const poll = options.poll ?? DEFAULT_POLL;
  const progressEvery = options.progressEveryMs ?? 30_000;
  const start = clock.now();
  let lastState: string | undefined;
  let lastReport = start;
  for (let attempt = 0; ; attempt++) {
    const value = await look();
    const verdict = judge(value);
    if ("failed" in verdict) {
      throw new WaitError("failed", `${options.what}: failed: ${verdict.failed}`, lastState);
    }
    if (verdict.done) return value;
    const now = clock.now();
    const elapsed = now - start;
    if (verdict.state !== lastState || now - lastReport >= progressEvery) {
      options.onProgress?.(`waiting for ${options.what}: ${verdict.state} after ${formatDuration(elapsed)}`);
      lastReport = now;
    }
    lastState = verdict.state;
    if (elapsed >= options.timeoutMs) {
      throw new WaitError(
        "timeout",
        `timed out after ${formatDuration(elapsed)} waiting for ${options.what} (last state: ${verdict.state}); ` +
          "raise the limit with the customTimeouts resource option",
        lastState,
      );
    }
    const delay = Math.min(backoffDelay(poll, attempt), Math.max(0, options.timeoutMs - elapsed));
    await clock.sleep(delay);
  }
}

/**
 * {@link waitFor} with what every resource wait shares: the time left until `deadline`
 * (milliseconds since the epoch) and progress lines for the person running Pulumi.
 */
export function waitUntil<T>(
  look: () => Promise<T>,
  judge: (value: T) => PollVerdict,
  what: string,
  deadline: number,
): Promise<T> {
  return waitFor(look, judge, { what, timeoutMs: Math.max(0, deadline - Date.now()), onProgress: progress });
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
): Promise<void> {
  try {
    await send();
  } catch (error) {
    if (!(error instanceof MdbApiError && error.isConflict)) throw error;
    progress(`${what} is busy (${error.apiMessage}); waiting for it to settle`);
    if (changed(await settle())) return;
    await send();
  }
  await settle(changed);
}
