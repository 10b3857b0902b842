/**
 * Bounds of the emulator's HTTP server against clients that misbehave (emulator/README.md#hostile-input):
 * each is one of Node's or fastify's own settings, so the emulator keeps serving other clients
 * while one floods it with connections, trickles bytes or sends what is not an API request. A
 * request past a bound is answered with a 4xx `{code, message}` (a connection past
 * `maxConnections` is closed at once: there is nothing to answer yet).
 */
import { STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyHttpOptions, FastifyReply } from "fastify";
import { MAX_PATH_ID_LENGTH } from "../api/path-ids";
import { codeForStatus } from "./errors";

/** Bounds of the HTTP server; see {@link DEFAULT_SERVER_LIMITS} for the values. */
export interface ServerLimits {
  /** Open connections at most; a connection beyond them is closed at once, unanswered. */
  maxConnections: number;
  /** Request line and headers together, in bytes, at most: 431 beyond. */
  maxHeaderBytes: number;
  /** Request body, in bytes, at most: 413 beyond. */
  maxBodyBytes: number;
  /** One path parameter (an id), in characters, at most: 414 beyond. */
  maxParamLength: number;
  /** Time for the request line and headers to arrive, in ms: 408 beyond. */
  headersTimeoutMs: number;
  /** Time for a whole request, body included, to arrive, in ms: 408 beyond. */
  requestTimeoutMs: number;
  /** How long a kept-alive connection may stay idle between requests, in ms, before it is closed. */
  keepAliveTimeoutMs: number;
}

/**
 * The bounds of `mdb-emulator`: far above what any client of the API needs (its largest request
 * is a few hundred bytes; ids are 10 to 12 characters), low enough that one client cannot hold the
 * server. The keep-alive timeout is fastify's default, longer than clients' idle sockets.
 */
export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = {
  maxConnections: 256,
  maxHeaderBytes: 16 * 1024,
  maxBodyBytes: 1024 * 1024,
  maxParamLength: MAX_PATH_ID_LENGTH,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
};

/** fastify's options that enforce `limits` (maxConnections is set on the listening server). */
export function fastifyLimitOptions(limits: ServerLimits): FastifyHttpOptions<Server> {
  return {
    bodyLimit: limits.maxBodyBytes,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // The router counts a parameter's encoded characters, the API its characters (the routes check
    // them, api/path-ids.ts): one character takes at most 12 encoded (4 bytes of UTF-8 as %XX).
    routerOptions: { maxParamLength: limits.maxParamLength * 12 },
    http: {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the two timeouts every interval (30 s by default): often enough that a
      // timeout ends within a quarter of it past due, at most once a second.
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
      ),
    },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, limits),
    frameworkErrors: (error, _request, reply) => answerFrameworkError(error, reply, limits),
  };
}

/**
 * Answers what Node's parser refuses before fastify sees a request (timeouts, headers too large,
 * not HTTP) in the API's error format, then closes the connection: after such an error the rest
 * of the stream cannot be trusted.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket, limits: ServerLimits): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, message] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [
          408,
          `the request did not arrive within ${limits.requestTimeoutMs} ms (headers within ${limits.headersTimeoutMs} ms)`,
        ]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [431, `the request line and headers exceed ${limits.maxHeaderBytes} bytes`]
        : [400, "(request): not a well-formed HTTP/1.1 request"];
  const body = JSON.stringify({ code: codeForStatus(status), message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Answers a URL fastify cannot route (bad percent-encoding, a path parameter too long) as a 4xx. */
function answerFrameworkError(error: FastifyError, reply: FastifyReply, limits: ServerLimits): FastifyReply {
  const [status, message] =
    error.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? [414, `(path): a path parameter is longer than ${limits.maxParamLength} characters`]
      : error.code === "FST_ERR_BAD_URL"
        ? [400, "(path): not a valid URL (bad percent-encoding)"]
        : [400, `(request): ${error.message}`];
  return reply.code(status).send({ code: codeForStatus(status), message });
}
