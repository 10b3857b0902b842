/**
 * The HTTP layer of the client: one axios instance (on the bounded adapter of transport.ts) with
 * Basic auth, an idle timeout, a User-Agent, retries with jittered backoff (axios-retry), redirects
 * refused, and conversion of every failure into an {@link MdbApiError} that names the operation
 * (and, for a limit, the option that changes it) and holds no credential.
 */
import { constants as bufferConstants } from "buffer";
import * as fs from "fs";
import * as path from "path";
import axios, { AxiosError, AxiosInstance, AxiosResponse } from "axios";
import axiosRetry from "axios-retry";
import type { ZodType } from "zod";
import { BackoffPolicy, DEFAULT_RETRY_BACKOFF, backoffDelay, parseRetryAfter } from "./backoff";
import type { RetryClass } from "../../api/operations";
import { ErrorBodySchema } from "../../api/records";
import { normalizeBaseUrl } from "./base-url";
import { MdbApiError, isTransientStatus, redact, redirectTarget } from "./errors";
import { describeSetting } from "./settings";
import {
  CALL_DEADLINE_AT,
  CALL_DEADLINE_EXCEEDED,
  DEADLINE_EXCEEDED,
  DEFAULT_TRANSPORT_LIMITS,
  HEADER_OVERFLOW,
  RESPONSE_TOO_LARGE,
  chooseAdapter,
  type TransportLimits,
} from "./transport";

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
  /** Backoff between retries. Default {@link DEFAULT_RETRY_BACKOFF}. */
  backoff?: BackoffPolicy;
  /**
   * Longest `Retry-After` obeyed, in milliseconds; an answer asking for longer fails at once, saying
   * how long the API asked for. Default 60 000.
   */
  maxRetryAfterMs?: number;
  /** Called before each retry, e.g. to log progress. */
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; reason: string }) => void;
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
}

const MAX_MESSAGE_LENGTH = 500;
const MDB_SPEC = Symbol("mdbSpec");
const MDB_CALL = Symbol("mdbCall");

/** Default of {@link HttpClientOptions.callDeadlineMs}: two minutes. */
export const DEFAULT_CALL_DEADLINE_MS = 120_000;

/**
 * What one call (a request with its retries) shares across its attempts. A class, not a plain
 * object: axios copies plain objects of a request's config for each attempt, and keeps this one.
 */
class CallState {
  /** Set when a retry was not made because the call's deadline left no time for it. */
  stoppedByDeadline = false;

  constructor(
    /** When the call must be over, `Date.now()` milliseconds. */
    readonly deadlineAt: number,
  ) {}
}

/** Reads this package's version once, for the User-Agent. */
function packageVersion(): string {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-managed-db" && pkg.version) return pkg.version;
    }
    dir = path.dirname(dir);
  }
  return "0.0.0";
}

/** The User-Agent sent with every request: package name and version, and Node's. */
export const USER_AGENT = `pulumi-managed-db/${packageVersion()} (node ${process.version})`;

/**
 * True when a TLS handshake met a server speaking plain HTTP: OpenSSL reads the server's
 * `HTTP/1.1 400` as a TLS record and says `wrong version number` (or `packet length too long`).
 */
function plainHttpAnswer(error: AxiosError): boolean {
  return (
    (error.code === "EPROTO" || /^ERR_SSL_/.test(error.code ?? "")) &&
    /wrong version number|packet length too long|http request/i.test(error.message)
  );
}

/** True when an axios error means the request never reached the server. */
function neverSent(error: AxiosError): boolean {
  return (
    error.code === "ECONNREFUSED" ||
    error.code === "ENOTFOUND" ||
    error.code === "EAI_AGAIN" ||
    plainHttpAnswer(error)
  );
}

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
function isRetryable(error: AxiosError, mode: RetryMode): boolean {
  if (FINAL_CODES.has(error.code) || plainHttpAnswer(error)) return false;
  const status = error.response?.status;
  if (mode === "create") return status === 429 || (status === undefined && neverSent(error));
  return isTransientStatus(status);
}

/** How many attempts the call of `error` made, the failed one included. */
function attemptsOf(error: AxiosError): number {
  const state = (error.config as { "axios-retry"?: { retryCount?: number } } | undefined)?.["axios-retry"];
  return (state?.retryCount ?? 0) + 1;
}

/** True when axios-retry had already sent this request before the attempt that got `response`. */
function retriedBefore(response: AxiosResponse): boolean {
  const state = (response.config as { "axios-retry"?: { retryCount?: number } } | undefined)?.["axios-retry"];
  return (state?.retryCount ?? 0) > 0;
}

/** The per-request retry settings axios-retry reads, and the call's shared state. */
interface SpecCarrier {
  [MDB_SPEC]?: RequestSpec;
  [MDB_CALL]?: CallState;
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

/**
 * Throws when a limit of `options` cannot work: not a positive number, or (`maxResponseBytes`)
 * beyond the longest string Node can make, which would crash the process instead of failing a call.
 */
function checkLimits(options: HttpClientOptions): void {
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

/** An HTTP client of the API bound to one endpoint and one key. */
export class HttpClient {
  /** The normalised base URL, ending with the API prefix. */
  readonly baseUrl: string;
  private readonly axios: AxiosInstance;
  private readonly secretKey: string;
  private readonly limits: TransportLimits;
  private readonly maxRetryAfterMs: number;
  private readonly callDeadlineMs: number;

  /** Throws a `RangeError` naming the option when a limit of `options` is not usable. */
  constructor(private readonly options: HttpClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    checkLimits(options);
    this.secretKey = options.secretKey;
    this.limits = {
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_TRANSPORT_LIMITS.maxResponseBytes,
      attemptDeadlineMs: options.attemptDeadlineMs ?? DEFAULT_TRANSPORT_LIMITS.attemptDeadlineMs,
      maxHeaderBytes: options.maxHeaderBytes ?? DEFAULT_TRANSPORT_LIMITS.maxHeaderBytes,
    };
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.callDeadlineMs = options.callDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
    const token = Buffer.from(`${options.publicKey}:${options.secretKey}`).toString("base64");
    this.axios = axios.create({
      baseURL: this.baseUrl,
      timeout: options.timeoutMs ?? 30_000,
      headers: {
        Authorization: `Basic ${token}`,
        "User-Agent": USER_AGENT,
        Accept: "application/json",
      },
      // 429 and 5xx reject, so that axios-retry sees them; every other status resolves and is
      // turned into a result or an error in one place (request below).
      validateStatus: (status) => status !== 429 && status < 500,
      transitional: { clarifyTimeoutError: true },
      adapter: chooseAdapter(this.limits),
    });
    const backoff = options.backoff ?? DEFAULT_RETRY_BACKOFF;
    const maxRetryAfterMs = this.maxRetryAfterMs;
    axiosRetry(this.axios, {
      retries: options.maxRetries ?? 6,
      shouldResetTimeout: true,
      retryCondition: (error) => {
        const carrier = error.config as SpecCarrier | undefined;
        const spec = carrier?.[MDB_SPEC];
        if (!spec || !isRetryable(error, spec.retry)) return false;
        const asked = parseRetryAfter(error.response?.headers?.["retry-after"]);
        if (asked !== undefined && asked > maxRetryAfterMs) return false;
        // No retry that could not even start before the call's deadline.
        const call = carrier?.[MDB_CALL];
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
        return call ? Math.max(0, Math.min(delay, call.deadlineAt - Date.now())) : delay;
      },
      onRetry: (retryCount, error, config) => {
        const spec = (config as SpecCarrier)[MDB_SPEC];
        if (!spec || !options.onRetry) return;
        const asked = parseRetryAfter(error.response?.headers?.["retry-after"]);
        options.onRetry({
          operation: spec.operation,
          attempt: retryCount,
          delayMs: asked ?? backoffDelay(backoff, retryCount - 1),
          reason: error.response ? `HTTP ${error.response.status}` : (error.code ?? "network error"),
        });
      },
    });
  }

  /**
   * Sends one request and returns its parsed body (`undefined` for an empty body).
   * With `schema`, the body is parsed with it (leniently: the schemas keep unknown fields).
   * Throws {@link MdbApiError} for any failure.
   */
  async request<T>(spec: RequestSpec, schema?: ZodType<T>): Promise<T> {
    let response: AxiosResponse;
    const deadlineAt = Date.now() + this.callDeadlineMs;
    try {
      const config = {
        method: spec.method,
        url: spec.path,
        data: spec.body,
        // Always JSON: without it axios labels a body-less POST as a form, which the API refuses.
        headers: spec.method === "GET" ? undefined : { "Content-Type": "application/json" },
        [MDB_SPEC]: spec,
        [MDB_CALL]: new CallState(deadlineAt),
        // Read by the adapter: an attempt ends at the call's deadline when that comes first.
        [CALL_DEADLINE_AT]: deadlineAt,
      };
      response = await this.axios.request(config);
    } catch (error) {
      throw this.toError(spec, error);
    }
    if (response.status >= 400) throw this.fromResponse(spec, response);
    if (response.status >= 300) throw this.redirected(spec, response);
    const data = response.data === "" ? undefined : response.data;
    if (!schema) return data as T;
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      // Not JSON at all (axios leaves such a body as text): say what came, e.g. an HTML page.
      const what =
        typeof data === "string"
          ? `a body that is not JSON (${response.headers?.["content-type"] ?? "no content type"}): ${data.slice(0, 200)}`
          : `a body the client does not understand: ${parsed.error.issues
              .slice(0, 3)
              .map((i) => `${i.path.join(".")}: ${i.message}`)
              .join("; ")}`;
      throw new MdbApiError({
        operation: spec.operation,
        status: response.status,
        code: "UNEXPECTED_RESPONSE",
        apiMessage: this.clean(spec, `the API answered ${what}`),
        resourceId: spec.resourceId,
        ambiguous: false,
      });
    }
    return parsed.data;
  }

  private clean(spec: RequestSpec, text: string): string {
    const cleaned = redact(text, [this.secretKey, ...(spec.secrets ?? [])]);
    return cleaned.length > MAX_MESSAGE_LENGTH ? `${cleaned.slice(0, MAX_MESSAGE_LENGTH)}...` : cleaned;
  }

  /** A 3xx: never followed, so that the credentials go to the API's own origin only. */
  private redirected(spec: RequestSpec, response: AxiosResponse): MdbApiError {
    const target = redirectTarget(response.headers?.["location"], `${this.baseUrl}${spec.path}`);
    return new MdbApiError({
      operation: spec.operation,
      status: response.status,
      code: "REDIRECTED",
      apiMessage: this.clean(
        spec,
        `the server redirected the request to ${target}; the client does not follow redirects, so that ` +
          `credentials go to ${new URL(this.baseUrl).origin} only: if the API has moved, set the API URL ` +
          `(mdb:apiUrl / MDB_API_URL) to its new address`,
      ),
      resourceId: spec.resourceId,
      // A 303 to a POST may follow work done: let a create look before it creates again.
      ambiguous: true,
      retryable: false,
    });
  }

  private fromResponse(spec: RequestSpec, response: AxiosResponse): MdbApiError {
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
    const beyondCap = retryAfterMs !== undefined && retryAfterMs > this.maxRetryAfterMs;
    const note = beyondCap
      ? ` (the API asked to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again, longer than ` +
        `the ${this.maxRetryAfterMs} ms the client waits, ${describeSetting("maxRetryAfterMs")}: not retried)`
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

  /** The code and text of a failure with no answer to show, naming the limit and its option. */
  private noAnswer(error: AxiosError): { code: string; text: string; retryable?: boolean } {
    const where = this.baseUrl;
    switch (error.code) {
      case RESPONSE_TOO_LARGE:
        return {
          code: "RESPONSE_TOO_LARGE",
          text: `the answer from ${where} is larger than ${bytes(this.limits.maxResponseBytes)}, the limit of ${describeSetting("maxResponseBytes")}; reading stopped`,
          retryable: false,
        };
      case HEADER_OVERFLOW:
        return {
          code: "HEADERS_TOO_LARGE",
          text: `the answer's headers from ${where} are larger than ${bytes(this.limits.maxHeaderBytes)}, the limit of ${describeSetting("maxHeaderBytes")}`,
          retryable: false,
        };
      case DEADLINE_EXCEEDED:
        return {
          code: "TIMEOUT",
          text: `no complete answer from ${where} within ${this.limits.attemptDeadlineMs} ms, the deadline of one attempt (${describeSetting("attemptDeadlineMs")})`,
        };
      case CALL_DEADLINE_EXCEEDED:
        return {
          code: "TIMEOUT",
          text: `no complete answer from ${where} within ${this.callDeadlineMs} ms, the deadline of a call with its retries (${describeSetting("callDeadlineMs")}), after ${attemptsOf(error)} attempt(s)`,
        };
      case "ETIMEDOUT":
      case "ECONNABORTED":
        return {
          code: "TIMEOUT",
          text: `no data from ${where} for ${this.options.timeoutMs ?? 30_000} ms, the idle timeout (${describeSetting("timeoutMs")})`,
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
      ? ` (not retried: the call's deadline of ${this.callDeadlineMs} ms, ${describeSetting("callDeadlineMs")}, left no time)`
      : "";
  }

  private toError(spec: RequestSpec, error: unknown): MdbApiError {
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
}
