/**
 * How the client's axios instance puts a request on the wire: a small adapter on Node's `http` and
 * `https` with keep-alive agents, used instead of axios's own Node adapter unless the environment
 * names a proxy.
 *
 * Why: a provider process waiting on a hundred databases sends a GET every few hundred
 * milliseconds per resource. axios's Node adapter builds a stream pipeline, a redirect wrapper and
 * an event emitter per request, and enough of it is alive at each young-generation collection that
 * V8 doubles the young generation of the provider process once more than a do-nothing provider
 * needs (about +75 MiB of peak RSS in `npm run bench`, 200 resources, `--parallel 100`). This
 * adapter does only what the API needs: one JSON body out, one body in (decompressed when the
 * server compressed it), a socket timeout, and axios's own error shapes so that retries and error
 * mapping in `http.ts` see exactly what they saw before.
 *
 * Bounds: proxies and gateways answer in ways the API never does, and the provider runs inside
 * every `pulumi up`. Every attempt is held to {@link TransportLimits}: a body size limit, a total
 * deadline (the socket's idle timeout never fires on a server that sends a byte now and then), a
 * header size limit; redirects are never followed (see `http.ts`), so credentials only ever go to
 * the API's own origin. The bounds live in this adapter because it stays the cheapest that can be
 * bounded: 2000 GETs through `HttpClient` on Node 20 allocate per GET 66 KB here (bounds included,
 * +0.4 KB), 89 KB with axios's Node adapter, 97 KB with an adapter on `fetch`, 143 KB with axios's
 * fetch adapter; an adapter on undici's `request` (limits built in) allocates 59 KB but would be a
 * new dependency, and its peak RSS with 100 GETs in flight was higher (117 MiB against 98 MiB).
 *
 * Proxies: axios's adapter honours `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY` and their npm
 * equivalents; when any of them is set, {@link chooseAdapter} keeps axios's adapter, so users
 * behind a proxy keep the behaviour they had, held to the same limits.
 */
import * as http from "node:http";
import * as https from "node:https";
import * as zlib from "node:zlib";
import type { Readable } from "node:stream";
import axios, { AxiosError, AxiosHeaders } from "axios";
import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from "axios";

/** Keep-alive agents shared by every client of the process: sockets are reused across calls. */
const AGENTS = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/** What one attempt (one request and its answer) may cost at most. */
export interface TransportLimits {
  /**
   * Largest response body accepted, in bytes, counted after decompression; a larger one is dropped
   * as soon as it passes the limit (or at once when its Content-Length says so).
   */
  maxResponseBytes: number;
  /**
   * Longest time one attempt may take, in milliseconds, from sending the request to the last byte
   * of the answer (headers and body), however steadily bytes arrive.
   */
  attemptDeadlineMs: number;
  /** Largest response head (status line and headers) accepted, in bytes (Node's `maxHeaderSize`). */
  maxHeaderBytes: number;
}

/**
 * Default {@link TransportLimits}. 8 MiB: the largest honest answer measured on the emulator, a list
 * of 1000 services each with a VPC, a pooler and three replica sets and 128-character names, is
 * 1.8 MB (0.6 MB without the extras). 60 s: twice the default idle timeout, ample for that list on a
 * slow link. 16 KiB: Node's own default; the API's heads are well under 1 KiB.
 */
export const DEFAULT_TRANSPORT_LIMITS: Readonly<TransportLimits> = {
  maxResponseBytes: 8 * 1024 * 1024,
  attemptDeadlineMs: 60_000,
  maxHeaderBytes: 16 * 1024,
};

/**
 * Key of the request config that holds when the whole call (every attempt, retries and their
 * pauses included) must be over, `Date.now()` milliseconds; absent: no such bound. An attempt's
 * deadline is the sooner of its own and this one.
 */
export const CALL_DEADLINE_AT = "mdbCallDeadlineAt";
/** Code of the `AxiosError` of an attempt cut short by the call's deadline ({@link CALL_DEADLINE_AT}). */
export const CALL_DEADLINE_EXCEEDED = "ERR_CALL_DEADLINE_EXCEEDED";

/** Code of the `AxiosError` of an answer larger than {@link TransportLimits.maxResponseBytes}. */
export const RESPONSE_TOO_LARGE = "ERR_RESPONSE_TOO_LARGE";
/** Code of the `AxiosError` of an attempt that passed {@link TransportLimits.attemptDeadlineMs}. */
export const DEADLINE_EXCEEDED = "ERR_DEADLINE_EXCEEDED";
/** Code of Node's error (and so of the `AxiosError`) for a head over {@link TransportLimits.maxHeaderBytes}. */
export const HEADER_OVERFLOW = "HPE_HEADER_OVERFLOW";

/** Environment variables through which axios's adapter would route requests to a proxy. */
const PROXY_VARIABLES = [
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "npm_config_proxy",
  "npm_config_http_proxy",
  "npm_config_https_proxy",
];

/** True when `env` names a proxy in any variable axios's Node adapter reads (either case). */
export function namesProxy(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((name) => Boolean(env[name] || env[name.toUpperCase()]));
}

/**
 * The adapter an {@link HttpClient} gives axios, bounded by `limits`: {@link nodeAdapter} normally,
 * {@link proxyAdapter} (axios's own) when the environment names a proxy.
 */
export function chooseAdapter(limits: TransportLimits, env: NodeJS.ProcessEnv = process.env): AxiosAdapter {
  return namesProxy(env) ? proxyAdapter(limits) : nodeAdapter(limits);
}

/**
 * The axios request settings that hold axios's own adapter to `limits` (the deadline aside, which
 * {@link proxyAdapter} adds): no redirect followed, bodies bounded both ways, Node's header limit.
 */
export function axiosLimits(limits: TransportLimits) {
  return {
    maxRedirects: 0,
    maxContentLength: limits.maxResponseBytes,
    // Requests are ours and small; the same bound keeps axios from buffering anything odd.
    maxBodyLength: limits.maxResponseBytes,
    // axios does not pass `maxHeaderSize` on to Node; a transport of our own does.
    transport: {
      request(options: https.RequestOptions, callback: (response: http.IncomingMessage) => void) {
        const module = options.protocol === "https:" ? https : http;
        return module.request({ ...options, maxHeaderSize: limits.maxHeaderBytes }, callback);
      },
    },
  };
}

/** The `AxiosError` of an answer (of HTTP `status`) larger than `limit` bytes. */
function tooLarge(config: InternalAxiosRequestConfig, request: unknown, status: number, limit: number) {
  return new AxiosError(
    `the answer (HTTP ${status}) is larger than ${limit} bytes`,
    RESPONSE_TOO_LARGE,
    config,
    request,
  );
}

/** The `AxiosError` of an attempt that passed its deadline, the attempt's own or the call's. */
function pastDeadline(config: InternalAxiosRequestConfig, request: unknown, deadline: AttemptDeadline) {
  return new AxiosError(
    `no complete answer within ${deadline.ms} ms`,
    deadline.call ? CALL_DEADLINE_EXCEEDED : DEADLINE_EXCEEDED,
    config,
    request,
  );
}

/** How long an attempt may take, and whether the call's deadline (not the attempt's own) sets it. */
interface AttemptDeadline {
  ms: number;
  call: boolean;
}

/** The deadline of an attempt of `config` starting now: its own, or what is left of the call's when sooner. */
function attemptDeadline(config: InternalAxiosRequestConfig, limits: TransportLimits): AttemptDeadline {
  const callAt = (config as unknown as Record<string, unknown>)[CALL_DEADLINE_AT];
  if (typeof callAt !== "number") return { ms: limits.attemptDeadlineMs, call: false };
  const left = Math.max(0, callAt - Date.now());
  return left < limits.attemptDeadlineMs
    ? { ms: left, call: true }
    : { ms: limits.attemptDeadlineMs, call: false };
}

/**
 * An error of axios's adapter as {@link nodeAdapter} reports the same failure, so that retries and
 * messages do not depend on the route: a body over `maxContentLength` is {@link RESPONSE_TOO_LARGE}
 * (axios says ERR_BAD_RESPONSE), and a body cut off after an accepted status is a reset connection
 * (axios attaches the half-read response, which would pass for the API's answer).
 */
function sameAsOurs(error: AxiosError, config: InternalAxiosRequestConfig): AxiosError {
  if (/^maxContentLength size of/.test(error.message))
    return new AxiosError(error.message, RESPONSE_TOO_LARGE, config, error.request);
  const status = error.response?.status;
  if (status !== undefined && (!config.validateStatus || config.validateStatus(status)))
    return new AxiosError(
      `the answer (HTTP ${status}) was cut off: ${error.message}`,
      error.code === AxiosError.ERR_BAD_RESPONSE ? "ECONNRESET" : error.code,
      config,
      error.request,
    );
  return error;
}

/**
 * axios's own Node adapter (proxies, `NO_PROXY`) held to `limits`: the settings of
 * {@link axiosLimits} and a deadline per attempt, enforced by aborting the request.
 */
export function proxyAdapter(limits: TransportLimits): AxiosAdapter {
  const inner = axios.getAdapter("http");
  const settings = axiosLimits(limits);
  return (config) =>
    new Promise<AxiosResponse>((resolve, reject) => {
      const controller = new AbortController();
      const deadline = attemptDeadline(config, limits);
      const timer = setTimeout(() => {
        reject(pastDeadline(config, undefined, deadline));
        controller.abort();
      }, deadline.ms);
      // The caller's signal (a cancelled run) ends the attempt too.
      const cancel = () => {
        reject(new axios.CanceledError(undefined, config));
        controller.abort();
      };
      const signal = config.signal as AbortSignal | undefined;
      signal?.addEventListener("abort", cancel, { once: true });
      const attempt = { ...config, ...settings, signal: controller.signal };
      inner(attempt)
        .then(resolve, (error: unknown) => {
          if (!axios.isAxiosError(error)) return reject(error);
          // The caller's config, not this attempt's copy: retries read its signal and call state.
          const ours = sameAsOurs(error, config);
          ours.config = config;
          reject(ours);
        })
        .finally(() => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", cancel);
        });
    });
}

/** The body of `response`, decoded according to its Content-Encoding. */
function decoded(response: http.IncomingMessage): Readable {
  switch ((response.headers["content-encoding"] ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return response.pipe(zlib.createGunzip());
    case "deflate":
      return response.pipe(zlib.createInflate());
    case "br":
      return response.pipe(zlib.createBrotliDecompress());
    default:
      return response;
  }
}

/** axios's code for a response `validateStatus` refuses: ERR_BAD_REQUEST for 4xx, else ERR_BAD_RESPONSE. */
function refusedCode(status: number): string {
  return status >= 400 && status < 500 ? AxiosError.ERR_BAD_REQUEST : AxiosError.ERR_BAD_RESPONSE;
}

/**
 * An axios adapter on Node's `http`/`https`, bounded by `limits`. It sends `config.data` (already
 * serialised by axios's request transform) with its length, resolves with the body as text (axios's
 * response transform parses the JSON), rejects responses `validateStatus` refuses with an
 * `AxiosError` that carries them, and turns socket errors and timeouts into `AxiosError`s with
 * Node's error code (`ETIMEDOUT` when `transitional.clarifyTimeoutError` is set, else
 * `ECONNABORTED`, as axios does), and into axios's `CanceledError` when `config.signal` aborts.
 * Past a limit it drops the connection and rejects with {@link RESPONSE_TOO_LARGE},
 * {@link DEADLINE_EXCEEDED} (or {@link CALL_DEADLINE_EXCEEDED} when the call's deadline came
 * first) or {@link HEADER_OVERFLOW}.
 */
export function nodeAdapter(limits: TransportLimits): AxiosAdapter {
  return (config: InternalAxiosRequestConfig) =>
    new Promise<AxiosResponse>((resolve, reject) => {
      const url = new URL(`${config.baseURL ?? ""}${config.url ?? ""}`);
      const transport = url.protocol === "https:" ? https : http;
      const agent = url.protocol === "https:" ? AGENTS["https:"] : AGENTS["http:"];
      const headers = AxiosHeaders.from(config.headers);
      const body = config.data === undefined || config.data === null ? undefined : String(config.data);
      if (body !== undefined) headers.set("Content-Length", String(Buffer.byteLength(body)));
      headers.set("Accept-Encoding", "gzip, deflate, br", false);
      let settled = false;
      const signal = config.signal as AbortSignal | undefined;
      const cancel = () => fail(new axios.CanceledError(undefined, config, request));
      const fail = (error: AxiosError) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener("abort", cancel);
        reject(error);
        // A half-read answer leaves the socket unusable; destroying it also stops the reading.
        request.destroy();
      };
      const request = transport.request(
        url,
        {
          method: (config.method ?? "get").toUpperCase(),
          agent,
          headers: headers.toJSON() as http.OutgoingHttpHeaders,
          maxHeaderSize: limits.maxHeaderBytes,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (Number(response.headers["content-length"]) > limits.maxResponseBytes) {
            fail(tooLarge(config, request, status, limits.maxResponseBytes));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          const stream = decoded(response);
          const dropped = (error: NodeJS.ErrnoException) =>
            fail(AxiosError.from(error, error.code ?? AxiosError.ERR_BAD_RESPONSE, config, request));
          if (stream !== response) response.on("error", dropped);
          stream.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > limits.maxResponseBytes) {
              stream.destroy();
              fail(tooLarge(config, request, status, limits.maxResponseBytes));
            } else chunks.push(chunk);
          });
          stream.on("error", dropped);
          stream.on("end", () => {
            if (settled) return;
            settled = true;
            clearTimeout(deadline);
            signal?.removeEventListener("abort", cancel);
            const result: AxiosResponse = {
              data: Buffer.concat(chunks).toString("utf8"),
              status,
              statusText: response.statusMessage ?? "",
              headers: AxiosHeaders.from(response.headers as Record<string, string>),
              config,
              request,
            };
            if (!config.validateStatus || config.validateStatus(status)) resolve(result);
            else
              reject(
                new AxiosError(
                  `Request failed with status code ${status}`,
                  refusedCode(status),
                  config,
                  request,
                  result,
                ),
              );
          });
        },
      );
      const bound = attemptDeadline(config, limits);
      const deadline = setTimeout(() => fail(pastDeadline(config, request, bound)), bound.ms);
      // The caller's signal (a cancelled run: `call-state.ts` aborts it only for what may be cut).
      if (signal?.aborted) cancel();
      else signal?.addEventListener("abort", cancel, { once: true });
      request.on("error", (error: NodeJS.ErrnoException) =>
        fail(AxiosError.from(error, error.code, config, request)),
      );
      if (config.timeout) {
        request.setTimeout(config.timeout, () => {
          const code = config.transitional?.clarifyTimeoutError
            ? AxiosError.ETIMEDOUT
            : AxiosError.ECONNABORTED;
          fail(new AxiosError(`timeout of ${config.timeout}ms exceeded`, code, config, request));
        });
      }
      request.end(body);
    });
}
