/**
 * What one call (a request with its retries) shares across its attempts: when it must be over
 * (its deadline), and whether the run was cancelled (Ctrl-C). A cancellation stops what has not
 * started: the call is not sent, or not sent again, and a pause between retries ends at once. An
 * attempt in flight is cut off only when it is a GET: the answer to a create (or any other change)
 * must reach the caller, who records what the API made (invariant I1, docs/recovery.md).
 */
import type { AxiosAdapter, InternalAxiosRequestConfig } from "axios";
import type { RequestSpec } from "./http-options";

/** Key of a request's config holding its {@link RequestSpec} (read by the retry rules). */
export const MDB_SPEC = Symbol("mdbSpec");
/** Key of a request's config holding its {@link CallState}. */
export const MDB_CALL = Symbol("mdbCall");

/** The per-request settings the retry rules read, and the call's shared state. */
export interface SpecCarrier {
  [MDB_SPEC]?: RequestSpec;
  [MDB_CALL]?: CallState;
}

/**
 * The state of one call across its attempts. A class, not a plain object: axios copies plain
 * objects of a request's config for each attempt, and keeps this one.
 */
export class CallState {
  /** Set when a retry was not made because the call's deadline left no time for it. */
  stoppedByDeadline = false;
  /** Attempts sent so far (the one in flight included). */
  attempts = 0;
  /** The pause before the next retry, in milliseconds, as the retry rules chose it. */
  nextDelayMs: number | undefined;
  /** Set when the call's retry report said something of a retry (`RetryReport.retrying`). */
  retriesSaid = false;
  /**
   * Aborted when the run is cancelled and no attempt that must finish is in flight: axios sends
   * nothing under an aborted signal, and axios-retry ends its pause between attempts on it.
   */
  private readonly stop = new AbortController();
  private inFlight = false;
  private cancelledAt: number | undefined;

  constructor(
    /** When the call must be over, `Date.now()` milliseconds. */
    readonly deadlineAt: number,
    /** The request's method: a GET in flight is cut off by a cancellation, any other is let finish. */
    private readonly method: RequestSpec["method"],
    /** The run's cancellation, if it can be cancelled. */
    private readonly run?: AbortSignal,
  ) {
    if (run?.aborted) this.onCancel();
    else run?.addEventListener("abort", this.onCancel, { once: true });
  }

  private readonly onCancel = (): void => {
    this.cancelledAt ??= Date.now();
    if (this.method === "GET" || !this.inFlight) this.stop.abort();
  };

  /** The signal axios gets: aborted when the call must stop (see above). */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** True once the run was cancelled: no retry is made. */
  get cancelled(): boolean {
    return this.cancelledAt !== undefined;
  }

  /** Marks an attempt as sent. */
  attemptStarted(): void {
    this.attempts++;
    this.inFlight = true;
  }

  /** Marks the attempt in flight as ended; a cancellation that waited for it now stops the call. */
  attemptEnded(): void {
    this.inFlight = false;
  }

  /** Stops listening to the run's cancellation (the call is over). */
  dispose(): void {
    this.run?.removeEventListener("abort", this.onCancel);
  }
}

/** `adapter`, telling each request's {@link CallState} when an attempt starts and ends. */
export function trackAttempts(adapter: AxiosAdapter): AxiosAdapter {
  return async (config: InternalAxiosRequestConfig) => {
    const call = (config as SpecCarrier)[MDB_CALL];
    call?.attemptStarted();
    try {
      return await adapter(config);
    } finally {
      call?.attemptEnded();
    }
  };
}
