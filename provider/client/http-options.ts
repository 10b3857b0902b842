/**
 * What an {@link HttpClient} (`http.ts`) is given: its settings, with the limits that bound every
 * call, and one request to send. Apart from the client so that the settings can be read (and
 * checked) without loading axios.
 */
import { constants as bufferConstants } from "buffer";
import type { RetryClass } from "../../api/operations";
import type { BackoffPolicy } from "./backoff";

/** Settings of an {@link HttpClient}. */
export interface HttpClientOptions {
  /**
   * Address of the API root, e.g. `https://api.example.com/public/api/v1`. When it has no
   * path, the API prefix is appended (`base-url.ts`). `http://` is refused unless the host is loopback.
   */
  baseUrl: string;
  /** API public key: the Basic auth user name. */
  publicKey: string;
  /** API secret key: the Basic auth password. Never logged nor quoted in errors. */
  secretKey: string;
  /**
   * Idle timeout of one attempt, in milliseconds: the longest silence of the connection (no byte
   * sent or received) before the attempt fails. Default 30 000. A server that trickles bytes never
   * trips it; `attemptDeadlineMs` bounds that.
   */
  timeoutMs?: number;
  /**
   * Total deadline of one attempt, in milliseconds: sending, the answer's headers and its whole
   * body. A GET (or idempotent action) past it is retried like a timeout. Default 60 000.
   */
  attemptDeadlineMs?: number;
  /**
   * Deadline of a whole call, in milliseconds, from its start: every attempt, the pauses between
   * retries and any `Retry-After` included. An attempt is cut short when the call's deadline comes
   * first, and no retry starts past it. Default 120 000 (two minutes).
   */
  callDeadlineMs?: number;
  /**
   * Largest answer body accepted, in bytes, counted after decompression. A larger one fails at
   * once and is not retried. Default 8 MiB (8 388 608), about 4 x the largest list of 1000 services.
   */
  maxResponseBytes?: number;
  /** Largest answer head (status line and headers) accepted, in bytes. Not retried. Default 16 KiB. */
  maxHeaderBytes?: number;
  /** How many times a retryable request is retried. Default 6. */
  maxRetries?: number;
  /** Backoff between retries. Default `DEFAULT_RETRY_BACKOFF` (`backoff.ts`). */
  backoff?: BackoffPolicy;
  /**
   * Longest `Retry-After` obeyed, in milliseconds; an answer asking for longer fails at once, saying
   * how long the API asked for. Default 60 000.
   */
  maxRetryAfterMs?: number;
  /** Called before each retry, e.g. to log progress, unless the call has its own {@link RequestSpec.report}. */
  onRetry?: RetryListener;
  /**
   * Where the limits above were given, as the client's messages name them: an explicit
   * provider's arguments (`the arguments of provider prod`). Absent: the messages name the
   * option, the stack config key and the environment variable.
   */
  settingsOrigin?: string;
}

/** What a retry listener hears before the client repeats a request. */
export interface RetryInfo {
  /** Name of the operation repeated (`getService`). */
  operation: string;
  /** Id of the resource the call concerns, when it names one. */
  resourceId?: string;
  /** Which retry this is: 1 for the first. */
  attempt: number;
  /** How many retries the client makes at most ({@link HttpClientOptions.maxRetries}). */
  retries: number;
  /** The pause before it, in milliseconds. */
  delayMs: number;
  /** True when the pause is the one the API asked for (`Retry-After`). */
  asked: boolean;
  /** What failed: `HTTP 503`, or the network's code (`ECONNREFUSED`) when no answer came. */
  reason: string;
}

/** Hears each retry before it is made. */
export type RetryListener = (info: RetryInfo) => void;

/**
 * Hears how one call that needed retries goes, for progress under the resource that made it:
 * each retry before its pause, then, when it said any, the answer that ended them (a success or
 * an error the API gave), so that the last word said of the call is never "trying again".
 */
export interface RetryReport {
  /** Before each retry's pause; true when it said something of it. */
  retrying(info: RetryInfo): boolean;
  /** When an answer came after `attempts` requests, and `retrying` said something of the call. */
  answered(info: RetryAnswer): void;
}

/** The answer that ended a call's retries: the call, and how many requests it took. */
export interface RetryAnswer {
  /** Name of the operation (`getService`). */
  operation: string;
  /** Id of the resource the call concerns, when it names one. */
  resourceId?: string;
  /** Requests sent, the one answered included. */
  attempts: number;
}

/**
 * How a request may be repeated after a failure: the retry class of its operation in
 * api/operations.ts. `idempotent` and `action` repeat on network errors, timeouts, 429 and 5xx;
 * `create` only when the request surely did not take effect (429, connection refused): anything
 * else is ambiguous and left to the caller, who must look before creating again.
 */
export type RetryMode = RetryClass;

/** One call to the API. */
export interface RequestSpec {
  /** Name of the operation, for errors and logs. */
  operation: string;
  /** HTTP method. */
  method: "GET" | "POST" | "DELETE";
  /** Path below the base URL, starting with `/`, path parameters already encoded. */
  path: string;
  /** JSON body, already validated. */
  body?: unknown;
  /** Id of the resource concerned, for error messages. */
  resourceId?: string;
  /** How the request may be repeated. */
  retry: RetryMode;
  /** Secrets the request carries (e.g. a password), removed from any error text. */
  secrets?: string[];
  /**
   * The run's cancellation (`call-state.ts`): once it aborts, the call is not sent, or not sent
   * again, and a pause between retries ends; a GET in flight is cut off, while a request of another
   * method in flight is let finish, so that its answer (a create's record) reaches the caller.
   */
  signal?: AbortSignal;
  /** Hears this call's retries and the answer that ended them, instead of the client's `onRetry`. */
  report?: RetryReport;
}

/** Default of {@link HttpClientOptions.callDeadlineMs}: two minutes. */
export const DEFAULT_CALL_DEADLINE_MS = 120_000;

/**
 * Throws when a limit of `options` cannot work: not a positive number, or (`maxResponseBytes`)
 * beyond the longest string Node can make, which would crash the process instead of failing a call.
 */
export function checkLimits(options: HttpClientOptions): void {
  const positive = [
    "timeoutMs",
    "attemptDeadlineMs",
    "callDeadlineMs",
    "maxResponseBytes",
    "maxHeaderBytes",
  ] as const;
  for (const name of positive) {
    const value = options[name];
    if (value !== undefined && !(Number.isFinite(value) && value > 0))
      throw new RangeError(`HttpClient option ${name} must be a positive number, got ${value}`);
  }
  const retryAfter = options.maxRetryAfterMs;
  if (retryAfter !== undefined && !(Number.isFinite(retryAfter) && retryAfter >= 0))
    throw new RangeError(`HttpClient option maxRetryAfterMs must be 0 or more, got ${retryAfter}`);
  if ((options.maxResponseBytes ?? 0) > bufferConstants.MAX_STRING_LENGTH)
    throw new RangeError(
      `HttpClient option maxResponseBytes must be at most ${bufferConstants.MAX_STRING_LENGTH}, got ${options.maxResponseBytes}`,
    );
}
