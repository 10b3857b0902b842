/**
 * The API as one operation of the kit uses it: every call held to the run's cancellation
 * (`cancel.ts`), and the retries the client makes said under the resource, with the answer that
 * ends them, so a call the API does not answer never leaves a person looking at a silent row
 * for long (a wait's look retried through an outage, a change the API throttles).
 */
import type { MdbApi } from "../../client/api";
import type { RetryReport } from "../../client/http-options";
import { answeredLine, retryLine } from "../messages/waits";

/**
 * The retries of a call that pass unsaid: a blip the client mends within a second (two retries
 * of its default backoff, 250 and 500 ms at most) is no news; from the third retry on, or a
 * pause of a second or more (an API's `Retry-After`), each retry is said.
 */
export const QUIET_RETRIES = 2;

/** The shortest pause before a retry that is said whatever its number, in milliseconds. */
const SAID_PAUSE_MS = 1_000;

/**
 * Tells the retries of calls (past the quiet ones, {@link QUIET_RETRIES}), and then the answer
 * that ends them, as progress lines to `log`.
 */
export function retryProgress(log: (line: string) => void): RetryReport {
  return {
    retrying: (info) => {
      if (info.attempt <= QUIET_RETRIES && info.delayMs < SAID_PAUSE_MS) return false;
      log(retryLine(info));
      return true;
    },
    answered: (info) => log(answeredLine(info)),
  };
}

/**
 * `api` with every call held to `signal` and its retries said to `log` (`MdbApi.withSignal`);
 * `api` itself when it is a stand-in without that method (a test's).
 */
export function apiView(api: MdbApi, signal: AbortSignal | undefined, log?: (line: string) => void): MdbApi {
  if (typeof api.withSignal !== "function" || (!signal && !log)) return api;
  return api.withSignal(signal, log ? retryProgress(log) : undefined);
}
