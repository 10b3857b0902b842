/**
 * Delay arithmetic shared by request retries and status polling: jittered exponential
 * growth to a cap, and the `Retry-After` header, which always wins over our own guess.
 */

/** How delays grow. All durations in milliseconds. */
export interface BackoffPolicy {
  /** Delay before the first retry (or the first poll). */
  initialMs: number;
  /** Upper bound of any computed delay (`Retry-After` may ask for more and is obeyed). */
  maxMs: number;
  /** Growth factor between consecutive delays. Default 2. */
  factor?: number;
  /**
   * Share of each delay that is randomised, 0..1 (default 0.5): a delay d becomes a value in
   * [d*(1-jitter), d], so clients that failed together do not retry together.
   */
  jitter?: number;
}

/** Default backoff of request retries: 250 ms, doubling, to 8 s, half jittered. */
export const DEFAULT_RETRY_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 8_000, factor: 2, jitter: 0.5 };

/**
 * The delay before attempt number `attempt` (0 for the first retry or poll).
 * `random` is injectable for tests; it must return a value in [0, 1).
 */
export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const factor = policy.factor ?? 2;
  const jitter = policy.jitter ?? 0.5;
  const base = Math.min(policy.maxMs, policy.initialMs * Math.pow(factor, Math.max(0, attempt)));
  return Math.round(base * (1 - jitter * random()));
}

/**
 * Parses a `Retry-After` header (seconds, or an HTTP date) into milliseconds from `now`.
 * Returns undefined when the header is absent or unreadable; never negative.
 */
export function parseRetryAfter(value: unknown, now: number = Date.now()): number | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const text = String(value).trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
