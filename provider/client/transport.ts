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
 * Proxies: axios's adapter honours `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY` and their npm
 * equivalents; when any of them is set, {@link chooseAdapter} keeps axios's adapter, so users
 * behind a proxy keep the behaviour they had.
 */
import * as http from "node:http";
import * as https from "node:https";
import * as zlib from "node:zlib";
import type { Readable } from "node:stream";
import { AxiosError, AxiosHeaders } from "axios";
import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from "axios";

/** Keep-alive agents shared by every client of the process: sockets are reused across calls. */
const AGENTS = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

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
 * The adapter an {@link HttpClient} gives axios: {@link nodeAdapter} normally, axios's own
 * (`undefined`: axios's default) when the environment names a proxy.
 */
export function chooseAdapter(env: NodeJS.ProcessEnv = process.env): AxiosAdapter | undefined {
  return namesProxy(env) ? undefined : nodeAdapter;
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
 * An axios adapter on Node's `http`/`https`. It sends `config.data` (already serialised by axios's
 * request transform) with its length, resolves with the body as text (axios's response transform
 * parses the JSON), rejects responses `validateStatus` refuses with an `AxiosError` that carries
 * them, and turns socket errors and timeouts into `AxiosError`s with Node's error code (`ETIMEDOUT`
 * when `transitional.clarifyTimeoutError` is set, else `ECONNABORTED`, as axios does).
 */
export const nodeAdapter: AxiosAdapter = (config: InternalAxiosRequestConfig) =>
  new Promise<AxiosResponse>((resolve, reject) => {
    const url = new URL(`${config.baseURL ?? ""}${config.url ?? ""}`);
    const transport = url.protocol === "https:" ? https : http;
    const agent = url.protocol === "https:" ? AGENTS["https:"] : AGENTS["http:"];
    const headers = AxiosHeaders.from(config.headers);
    const body = config.data === undefined || config.data === null ? undefined : String(config.data);
    if (body !== undefined) headers.set("Content-Length", String(Buffer.byteLength(body)));
    headers.set("Accept-Encoding", "gzip, deflate, br", false);
    let settled = false;
    const fail = (error: AxiosError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const request = transport.request(
      url,
      {
        method: (config.method ?? "get").toUpperCase(),
        agent,
        headers: headers.toJSON() as http.OutgoingHttpHeaders,
      },
      (response) => {
        const chunks: Buffer[] = [];
        const stream = decoded(response);
        const dropped = (error: NodeJS.ErrnoException) =>
          fail(AxiosError.from(error, error.code ?? AxiosError.ERR_BAD_RESPONSE, config, request));
        if (stream !== response) response.on("error", dropped);
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", dropped);
        stream.on("end", () => {
          if (settled) return;
          settled = true;
          const status = response.statusCode ?? 0;
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
    request.on("error", (error: NodeJS.ErrnoException) =>
      fail(AxiosError.from(error, error.code, config, request)),
    );
    if (config.timeout) {
      request.setTimeout(config.timeout, () => {
        const code = config.transitional?.clarifyTimeoutError
          ? AxiosError.ETIMEDOUT
          : AxiosError.ECONNABORTED;
        fail(new AxiosError(`timeout of ${config.timeout}ms exceeded`, code, config, request));
        request.destroy();
      });
    }
    request.end(body);
  });
