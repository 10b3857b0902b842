/**
 * The log of API requests the emulator received, for tests that check what a client sent
 * (`GET /_emulator/requests`): method, path, status answered (0 when the connection was dropped),
 * arrival time and User-Agent. Faulted requests are in it; admin requests are not.
 */
import type { FastifyInstance } from "fastify";
import { ADMIN_PREFIX } from "./defaults";
import { pathOf, wasDropped } from "./faults";

/** One received API request. */
export interface LoggedRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Path including `/public/api/v1`, without the query string. */
  path: string;
  /** Status answered; 0 when the connection was dropped without an answer. */
  status: number;
  /** Arrival time, ISO 8601. */
  at: string;
  /** The client's User-Agent header, when it sent one. */
  userAgent?: string;
}

/** Oldest entries are dropped past this many, so a long-running emulator does not grow without bound. */
export const MAX_LOGGED_REQUESTS = 10000;

/** The request log. */
export class RequestLog {
  private entries: LoggedRequest[] = [];

  /** Every logged request, in order of completion. */
  list(): LoggedRequest[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  /** Adds a request. */
  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_LOGGED_REQUESTS) this.entries.shift();
  }

  /** Empties the log. */
  clear(): void {
    this.entries = [];
  }
}

/**
 * Logs every API request once its connection is done with it, and passes each entry, with its
 * duration in milliseconds, to `onEntry` (the CLI prints them). Registered first, so it also sees
 * requests that faults or authentication stop.
 */
export function registerRequestLog(
  app: FastifyInstance,
  log: RequestLog,
  onEntry?: (entry: LoggedRequest & { ms: number }) => void,
): void {
  app.addHook("onRequest", async (request, reply) => {
    const path = pathOf(request.url);
    if (path.startsWith(ADMIN_PREFIX)) return;
    const started = Date.now();
    // 'close' comes after every answer, and alone when the connection ended without one.
    reply.raw.once("close", () => {
      const answered = reply.raw.writableFinished && !wasDropped(request.raw);
      const entry = {
        method: request.method,
        path,
        status: answered ? reply.raw.statusCode : 0,
        at: new Date(started).toISOString(),
        userAgent: request.headers["user-agent"],
      };
      log.add(entry);
      onEntry?.({ ...entry, ms: Date.now() - started });
    });
  });
}
