/**
 * The HTTP layer of the client: one axios instance (on the bounded adapter of transport.ts) with
 * Basic auth, an idle timeout, a User-Agent, retries (`retries.ts`), redirects refused, each call
 * held to its deadline and to the run's cancellation (`call-state.ts`), and every failure turned
 * into an {@link MdbApiError} that names the operation and holds no credential (`failures.ts`).
 */
import axios, { AxiosInstance, AxiosResponse } from "axios";
import type { ZodType } from "zod";
import { normalizeBaseUrl } from "./base-url";
import { CallState, MDB_CALL, MDB_SPEC, trackAttempts } from "./call-state";
import { Failures } from "./failures";
import {
  DEFAULT_CALL_DEADLINE_MS,
  type HttpClientOptions,
  type RequestSpec,
  checkLimits,
} from "./http-options";
import { installRetries } from "./retries";
import { CALL_DEADLINE_AT, DEFAULT_TRANSPORT_LIMITS, chooseAdapter, type TransportLimits } from "./transport";
import { USER_AGENT } from "./user-agent";

export type { HttpClientOptions, RequestSpec, RetryMode } from "./http-options";
export { DEFAULT_CALL_DEADLINE_MS } from "./http-options";
export { USER_AGENT } from "./user-agent";

/** An HTTP client of the API bound to one endpoint and one key. */
export class HttpClient {
  /** The normalised base URL, ending with the API prefix. */
  readonly baseUrl: string;
  private readonly axios: AxiosInstance;
  private readonly failures: Failures;
  private readonly callDeadlineMs: number;

  /** Throws a `RangeError` naming the option when a limit of `options` is not usable. */
  constructor(options: HttpClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    checkLimits(options);
    const limits: TransportLimits = {
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_TRANSPORT_LIMITS.maxResponseBytes,
      attemptDeadlineMs: options.attemptDeadlineMs ?? DEFAULT_TRANSPORT_LIMITS.attemptDeadlineMs,
      maxHeaderBytes: options.maxHeaderBytes ?? DEFAULT_TRANSPORT_LIMITS.maxHeaderBytes,
    };
    const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    const timeoutMs = options.timeoutMs ?? 30_000;
    this.callDeadlineMs = options.callDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
    this.failures = new Failures({
      baseUrl: this.baseUrl,
      secretKey: options.secretKey,
      limits,
      timeoutMs,
      callDeadlineMs: this.callDeadlineMs,
      maxRetryAfterMs,
      settingsOrigin: options.settingsOrigin,
    });
    const token = Buffer.from(`${options.publicKey}:${options.secretKey}`).toString("base64");
    this.axios = axios.create({
      baseURL: this.baseUrl,
      timeout: timeoutMs,
      headers: {
        Authorization: `Basic ${token}`,
        "User-Agent": USER_AGENT,
        Accept: "application/json",
      },
      // 429 and 5xx reject, so that axios-retry sees them; every other status resolves and is
      // turned into a result or an error in one place (request below).
      validateStatus: (status) => status !== 429 && status < 500,
      transitional: { clarifyTimeoutError: true },
      adapter: trackAttempts(chooseAdapter(limits)),
    });
    installRetries(this.axios, options, maxRetryAfterMs);
  }

  /**
   * Sends one request and returns its parsed body (`undefined` for an empty body).
   * With `schema`, the body is parsed with it (leniently: the schemas keep unknown fields).
   * Throws {@link MdbApiError} for any failure, a cancelled run included (code `CANCELLED`).
   */
  async request<T>(spec: RequestSpec, schema?: ZodType<T>): Promise<T> {
    let response: AxiosResponse;
    const deadlineAt = Date.now() + this.callDeadlineMs;
    const call = new CallState(deadlineAt, spec.method, spec.signal);
    try {
      const config = {
        method: spec.method,
        url: spec.path,
        data: spec.body,
        // Always JSON: without it axios labels a body-less POST as a form, which the API refuses.
        headers: spec.method === "GET" ? undefined : { "Content-Type": "application/json" },
        signal: call.signal,
        [MDB_SPEC]: spec,
        [MDB_CALL]: call,
        // Read by the adapter: an attempt ends at the call's deadline when that comes first.
        [CALL_DEADLINE_AT]: deadlineAt,
      };
      response = await this.axios.request(config);
    } catch (error) {
      throw this.failures.toError(spec, error);
    } finally {
      call.dispose();
    }
    // Outside the try: what a report does with the answer never reads as the call's failure.
    if (call.retriesSaid)
      spec.report?.answered({
        operation: spec.operation,
        resourceId: spec.resourceId,
        attempts: call.attempts,
      });
    if (response.status >= 400) throw this.failures.fromResponse(spec, response);
    if (response.status >= 300) throw this.failures.redirected(spec, response);
    const data = response.data === "" ? undefined : response.data;
    if (!schema) return data as T;
    const parsed = schema.safeParse(data);
    if (parsed.success) return parsed.data;
    // Not JSON at all (axios leaves such a body as text): say what came, e.g. an HTML page.
    const what =
      typeof data === "string"
        ? `a body that is not JSON (${response.headers?.["content-type"] ?? "no content type"}): ${data.slice(0, 200)}`
        : `a body the client does not understand: ${parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join(".")}: ${i.message}`)
            .join("; ")}`;
    throw this.failures.unexpectedBody(spec, response, what);
  }
}
