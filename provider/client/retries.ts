/**
 * When the client repeats a request, and after how long: axios-retry on the client's axios
 * instance, with jittered backoff, `Retry-After` obeyed up to its cap, no retry that could not
 * start before the call's deadline, none of what repeating cannot mend, and none once the run
 * was cancelled. A create is repeated only when it surely did not take effect (`RetryMode`).
 */
import axios, { AxiosError, type AxiosInstance } from "axios";
import axiosRetry from "axios-retry";
import { DEFAULT_RETRY_BACKOFF, backoffDelay, parseRetryAfter } from "./backoff";
import { MDB_CALL, MDB_SPEC, type SpecCarrier } from "./call-state";
import { isTransientStatus } from "./errors";
import { neverSent, plainHttpAnswer } from "./failures";
import type { HttpClientOptions, RetryMode } from "./http-options";
import { CALL_DEADLINE_EXCEEDED, HEADER_OVERFLOW, RESPONSE_TOO_LARGE } from "./transport";

/**
 * Failures that repeating the same request cannot mend (the same answer would overflow again),
 * and the call's deadline, past which nothing is repeated.
 */
const FINAL_CODES = new Set<string | undefined>([
  RESPONSE_TOO_LARGE,
  HEADER_OVERFLOW,
  CALL_DEADLINE_EXCEEDED,
]);

/** True when a failed request may be repeated under `mode`. */
export function isRetryable(error: AxiosError, mode: RetryMode): boolean {
  if (axios.isCancel(error) || FINAL_CODES.has(error.code) || plainHttpAnswer(error)) return false;
  const status = error.response?.status;
  if (mode === "create") return status === 429 || (status === undefined && neverSent(error));
  return isTransientStatus(status);
}

/** Makes `instance` repeat failed requests as the module comment says, with the client's `options`. */
export function installRetries(
  instance: AxiosInstance,
  options: HttpClientOptions,
  maxRetryAfterMs: number,
): void {
  const backoff = options.backoff ?? DEFAULT_RETRY_BACKOFF;
  const retries = options.maxRetries ?? 6;
  axiosRetry(instance, {
    retries,
    shouldResetTimeout: true,
    retryCondition: (error) => {
      const carrier = error.config as SpecCarrier | undefined;
      const spec = carrier?.[MDB_SPEC];
      const call = carrier?.[MDB_CALL];
      if (!spec || call?.cancelled || !isRetryable(error, spec.retry)) return false;
      const asked = parseRetryAfter(error.response?.headers?.["retry-after"]);
      if (asked !== undefined && asked > maxRetryAfterMs) return false;
      // No retry that could not even start before the call's deadline.
      if (call && Date.now() + (asked ?? 0) >= call.deadlineAt) {
        call.stoppedByDeadline = true;
        return false;
      }
      return true;
    },
    retryDelay: (retryCount, error) => {
      const asked = parseRetryAfter(error.response?.headers?.["retry-after"]);
      const delay = asked ?? backoffDelay(backoff, retryCount - 1);
      const call = (error.config as SpecCarrier | undefined)?.[MDB_CALL];
      if (!call) return delay;
      call.nextDelayMs = Math.max(0, Math.min(delay, call.deadlineAt - Date.now()));
      return call.nextDelayMs;
    },
    // axios-retry chooses the pause (retryDelay above) before it calls this.
    onRetry: (retryCount, error, config) => {
      const { [MDB_SPEC]: spec, [MDB_CALL]: call } = config as SpecCarrier;
      if (!spec || (!spec.report && !options.onRetry)) return;
      const asked = parseRetryAfter(error.response?.headers?.["retry-after"]);
      const info = {
        operation: spec.operation,
        resourceId: spec.resourceId,
        attempt: retryCount,
        retries,
        delayMs: call?.nextDelayMs ?? asked ?? backoffDelay(backoff, retryCount - 1),
        asked: asked !== undefined,
        reason: error.response ? `HTTP ${error.response.status}` : (error.code ?? "network error"),
      };
      if (!spec.report) options.onRetry?.(info);
      else if (spec.report.retrying(info) && call) call.retriesSaid = true;
    },
  });
}
