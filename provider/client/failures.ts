/**
 * How the client reports a failed call: every failure (an error status, a redirect, a limit
 * passed, no answer, a cancelled run) becomes one {@link MdbApiError} that names the operation
 * and, for a limit, the option, config key and variable that change it, and that holds no
 * credential nor any secret the request carried.
 */
import axios, { AxiosError, AxiosResponse } from "axios";
import { ErrorBodySchema } from "../../api/records";
import { parseRetryAfter } from "./backoff";
import { MDB_CALL, type SpecCarrier } from "./call-state";
import { MdbApiError, redact, redirectTarget } from "./errors";
import type { RequestSpec } from "./http-options";
import { type TransportSettingName, describeSetting } from "./settings";
import {
  CALL_DEADLINE_EXCEEDED,
  DEADLINE_EXCEEDED,
  HEADER_OVERFLOW,
  RESPONSE_TOO_LARGE,
  type TransportLimits,
} from "./transport";

const MAX_MESSAGE_LENGTH = 500;

/** The code of the {@link MdbApiError} of a call the run's cancellation stopped. */
export const CANCELLED = "CANCELLED";

/**
 * True when a TLS handshake met a server speaking plain HTTP: OpenSSL reads the server's
 * `HTTP/1.1 400` as a TLS record and says `wrong version number` (or `packet length too long`).
 */
export function plainHttpAnswer(error: AxiosError): boolean {
  return (
    (error.code === "EPROTO" || /^ERR_SSL_/.test(error.code ?? "")) &&
    /wrong version number|packet length too long|http request/i.test(error.message)
  );
}

/** True when an axios error means the request never reached the server. */
export function neverSent(error: AxiosError): boolean {
  return (
    error.code === "ECONNREFUSED" ||
    error.code === "ENOTFOUND" ||
    error.code === "EAI_AGAIN" ||
    plainHttpAnswer(error)
  );
}

/** How many attempts the call of `error` made, the failed one included. */
export function attemptsOf(error: AxiosError): number {
  const state = (error.config as { "axios-retry"?: { retryCount?: number } } | undefined)?.["axios-retry"];
  return (state?.retryCount ?? 0) + 1;
}

/** True when axios-retry had already sent this request before the attempt that got `response`. */
export function retriedBefore(response: AxiosResponse): boolean {
  const state = (response.config as { "axios-retry"?: { retryCount?: number } } | undefined)?.["axios-retry"];
  return (state?.retryCount ?? 0) > 0;
}

/** `n` bytes for a message: `8388608 bytes (8 MiB)`. */
function bytes(n: number): string {
  const unit =
    n >= 1024 * 1024
      ? ` (${+(n / 1024 / 1024).toFixed(1)} MiB)`
      : n >= 1024
        ? ` (${+(n / 1024).toFixed(1)} KiB)`
        : "";
  return `${n} bytes${unit}`;
}

/** What the messages of one client name: where it sends, its limits, and what to keep out of them. */
export interface FailureContext {
  /** The normalised base URL. */
  baseUrl: string;
  /** The secret key, removed from every text. */
  secretKey: string;
  /** The transport's limits of one attempt. */
  limits: TransportLimits;
  /** Idle timeout of an attempt, in ms. */
  timeoutMs: number;
  /** Deadline of a call with its retries, in ms. */
  callDeadlineMs: number;
  /** Longest `Retry-After` obeyed, in ms. */
  maxRetryAfterMs: number;
  /**
   * Where the limits were given, as messages name them: an explicit provider's arguments (`the
   * arguments of provider prod`); absent: the client's options, stack config or the environment.
   */
  settingsOrigin?: string;
}

/** Turns the failures of one client's calls into {@link MdbApiError}s. */
export class Failures {
  constructor(private readonly ctx: FailureContext) {}

  /** How this client's messages name a limit of its transport ({@link describeSetting}). */
  private limitNamed(name: TransportSettingName): string {
    return describeSetting(name, this.ctx.settingsOrigin);
  }

  /** `text` without any secret, cut to a readable length. */
  clean(spec: RequestSpec, text: string): string {
    const cleaned = redact(text, [this.ctx.secretKey, ...(spec.secrets ?? [])]);
    return cleaned.length > MAX_MESSAGE_LENGTH ? `${cleaned.slice(0, MAX_MESSAGE_LENGTH)}...` : cleaned;
  }

  /** A 3xx: never followed, so that the credentials go to the API's own origin only. */
  redirected(spec: RequestSpec, response: AxiosResponse): MdbApiError {
    const target = redirectTarget(response.headers?.["location"], `${this.ctx.baseUrl}${spec.path}`);
    return new MdbApiError({
      operation: spec.operation,
      status: response.status,
      code: "REDIRECTED",
      apiMessage: this.clean(
        spec,
        `the server redirected the request to ${target}; the client does not follow redirects, so that ` +
          `credentials go to ${new URL(this.ctx.baseUrl).origin} only: if the API has moved, set the API URL ` +
          `(mdb:apiUrl / MDB_API_URL) to its new address`,
      ),
      resourceId: spec.resourceId,
      // A 303 to a POST may follow work done: let a create look before it creates again.
      ambiguous: true,
      retryable: false,
    });
  }

  /** An answer with an error status (4xx, or a 429 / 5xx left after the retries). */
  fromResponse(spec: RequestSpec, response: AxiosResponse): MdbApiError {
    const body = ErrorBodySchema.safeParse(response.data);
    const code = body.success ? body.data.code : `HTTP_${response.status}`;
    // Not the API's error shape: quote what came (a proxy's page, another service's JSON).
    const message = body.success
      ? body.data.message
      : typeof response.data === "string" && response.data
        ? response.data
        : response.data && typeof response.data === "object"
          ? JSON.stringify(response.data)
          : (response.statusText ?? "no message");
    const retryAfterMs = parseRetryAfter(response.headers?.["retry-after"]);
    const cap = this.ctx.maxRetryAfterMs;
    const beyondCap = retryAfterMs !== undefined && retryAfterMs > cap;
    const note = beyondCap
      ? ` (the API asked to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again, longer than ` +
        `the ${cap} ms the client waits, ${this.limitNamed("maxRetryAfterMs")}: not retried)`
      : "";
    return new MdbApiError({
      operation: spec.operation,
      status: response.status,
      code: this.clean(spec, code),
      apiMessage: this.clean(spec, message) + note + this.deadlineNote(response.config),
      resourceId: spec.resourceId,
      // A 5xx may come after the work was done; 4xx answers are definite, except a 409 to a
      // repeated request: the first attempt may have started the change the repeat conflicts with.
      ambiguous: response.status >= 500 || (response.status === 409 && retriedBefore(response)),
      retryAfterSeconds: retryAfterMs !== undefined ? Math.ceil(retryAfterMs / 1000) : undefined,
      retryable: beyondCap ? false : undefined,
    });
  }

  /** A body that is not what the operation answers: not JSON at all, or not its shape. */
  unexpectedBody(spec: RequestSpec, response: AxiosResponse, what: string): MdbApiError {
    return new MdbApiError({
      operation: spec.operation,
      status: response.status,
      code: "UNEXPECTED_RESPONSE",
      apiMessage: this.clean(spec, `the API answered ${what}`),
      resourceId: spec.resourceId,
      ambiguous: false,
    });
  }

  /** Any failure of `request()` other than an answer it read: no answer, a limit, a cancellation. */
  toError(spec: RequestSpec, error: unknown): MdbApiError {
    if (axios.isCancel(error)) return this.cancelled(spec, error as AxiosError);
    if (axios.isAxiosError(error)) {
      if (error.response) return this.fromResponse(spec, error.response);
      const { code, text, retryable } = this.noAnswer(error);
      return new MdbApiError({
        operation: spec.operation,
        code,
        apiMessage: this.clean(spec, text) + this.deadlineNote(error.config),
        resourceId: spec.resourceId,
        ambiguous: !neverSent(error),
        retryable,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new MdbApiError({
      operation: spec.operation,
      code: "CLIENT_ERROR",
      apiMessage: this.clean(spec, message),
      resourceId: spec.resourceId,
      ambiguous: true,
    });
  }

  /**
   * A call the run's cancellation stopped: not sent, a GET cut off, or no retry made. Ambiguous
   * only when an earlier attempt of a change may have been carried out (a create is retried only
   * when it surely was not).
   */
  private cancelled(spec: RequestSpec, error: AxiosError): MdbApiError {
    const attempts = (error.config as SpecCarrier | undefined)?.[MDB_CALL]?.attempts ?? 0;
    const what =
      attempts === 0
        ? "not sent: the run was cancelled (Ctrl-C)"
        : spec.method === "GET"
          ? "stopped: the run was cancelled (Ctrl-C) before the answer came"
          : `not sent again after ${attempts} attempt(s): the run was cancelled (Ctrl-C)`;
    return new MdbApiError({
      operation: spec.operation,
      code: CANCELLED,
      apiMessage: what,
      resourceId: spec.resourceId,
      ambiguous: attempts > 0 && spec.method !== "GET" && spec.retry !== "create",
      retryable: false,
    });
  }

  /** The code and text of a failure with no answer to show, naming the limit and its option. */
  private noAnswer(error: AxiosError): { code: string; text: string; retryable?: boolean } {
    const where = this.ctx.baseUrl;
    const { limits } = this.ctx;
    switch (error.code) {
      case RESPONSE_TOO_LARGE:
        return {
          code: "RESPONSE_TOO_LARGE",
          text: `the answer from ${where} is larger than ${bytes(limits.maxResponseBytes)}, the limit of ${this.limitNamed("maxResponseBytes")}; reading stopped`,
          retryable: false,
        };
      case HEADER_OVERFLOW:
        return {
          code: "HEADERS_TOO_LARGE",
          text: `the answer's headers from ${where} are larger than ${bytes(limits.maxHeaderBytes)}, the limit of ${this.limitNamed("maxHeaderBytes")}`,
          retryable: false,
        };
      case DEADLINE_EXCEEDED:
        return {
          code: "TIMEOUT",
          text: `no complete answer from ${where} within ${limits.attemptDeadlineMs} ms, the deadline of one attempt (${this.limitNamed("attemptDeadlineMs")})`,
        };
      case CALL_DEADLINE_EXCEEDED:
        return {
          code: "TIMEOUT",
          text: `no complete answer from ${where} within ${this.ctx.callDeadlineMs} ms, the deadline of a call with its retries (${this.limitNamed("callDeadlineMs")}), after ${attemptsOf(error)} attempt(s)`,
        };
      case "ETIMEDOUT":
      case "ECONNABORTED":
        return {
          code: "TIMEOUT",
          text: `no data from ${where} for ${this.ctx.timeoutMs} ms, the idle timeout (${this.limitNamed("timeoutMs")})`,
        };
      default:
        if (plainHttpAnswer(error))
          return {
            code: "NOT_TLS",
            text:
              `the server at ${new URL(where).origin} answered plain HTTP, not TLS; use http:// ` +
              `(loopback hosts only) or check the API URL (mdb:apiUrl / MDB_API_URL)`,
            retryable: false,
          };
        return {
          code: "NETWORK_ERROR",
          text: `${error.code ?? "network error"} talking to ${where}: ${error.message}`,
        };
    }
  }

  /** Said after a failure that could have been retried but for the call's deadline. */
  private deadlineNote(config: unknown): string {
    return (config as SpecCarrier | undefined)?.[MDB_CALL]?.stoppedByDeadline
      ? ` (not retried: the call's deadline of ${this.ctx.callDeadlineMs} ms, ${this.limitNamed("callDeadlineMs")}, left no time)`
      : "";
  }
}
