/**
 * Fault injection, so clients can be tested against the failures of a real network and service:
 *
 * - random faults: a fraction `rate` (0..1) of API requests fails with a status drawn from
 *   `statuses` (429 carries `Retry-After: retryAfterSeconds`), a fraction `dropRate` is dropped
 *   (socket destroyed, no answer), and every API request is delayed by `latencyMs`;
 * - rules, for deterministic tests: the next `count` requests whose method equals `method` (`*`
 *   for any) and whose path (with the `/public/api/v1` prefix, without the query) matches the
 *   regular expression `path` fail with `status` (500 by default) or are dropped (`drop: true`),
 *   either before processing, or, with `after: true`, after the request was processed: an
 *   ambiguous failure, the change happened but the caller did not learn it. A rule is used up
 *   after `count` matches; rules take precedence over random faults. With `down: true` the API
 *   goes away right after that request: the request itself is answered (or failed as `status`,
 *   `drop` and `after` say), and every later API request is dropped until the configuration is
 *   replaced, which is how a test stops the service just after an exact call before it stops the
 *   process itself.
 *
 * Only API requests are faulted; the admin routes (`/_emulator/...`) never are.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { ADMIN_PREFIX } from "./defaults";
import { ApiError, codeForStatus } from "./errors";

const errorStatus = z.number().int().min(400).max(599);

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** A deterministic fault rule (see the file comment). */
export const FaultRuleSchema = z
  .strictObject({
    method: z.string().min(1).default("*"),
    path: z.string().refine(isRegExp, "must be a valid regular expression"),
    count: z.number().int().min(1).default(1),
    status: errorStatus.optional(),
    drop: z.boolean().optional(),
    after: z.boolean().optional(),
    down: z.boolean().optional(),
  })
  .refine((rule) => !(rule.drop && rule.status !== undefined), {
    message: "give status or drop, not both",
    path: ["drop"],
  });
/** A deterministic fault rule. */
export type FaultRule = z.output<typeof FaultRuleSchema>;

/** The fault configuration; a field left out takes its default (no faults). */
export const FaultConfigSchema = z.strictObject({
  /** Fraction 0..1 of API requests that fail with one of `statuses`. Default 0. */
  rate: z.number().min(0).max(1).default(0),
  /** Statuses random failures are drawn from. Default 500, 503, 429. */
  statuses: z.array(errorStatus).min(1).default([500, 503, 429]),
  /** Seconds of the `Retry-After` header of a 429. Default 1. */
  retryAfterSeconds: z.number().int().min(0).default(1),
  /** Delay added to every API request, in milliseconds. Default 0. */
  latencyMs: z.number().int().min(0).default(0),
  /** Fraction 0..1 of API requests whose connection is dropped without an answer. Default 0. */
  dropRate: z.number().min(0).max(1).default(0),
  /** Deterministic rules, tried in order before the random faults. Default none. */
  rules: z.array(FaultRuleSchema).default([]),
});
/** The fault configuration, every field set. */
export type FaultConfig = z.output<typeof FaultConfigSchema>;
/** The fault configuration as given by a caller: every field optional. */
export type FaultConfigInput = z.input<typeof FaultConfigSchema>;

/** What happens to one request. */
export interface Fault {
  /** Status to answer with; absent when the connection is dropped. */
  status?: number;
  /** Drop the connection instead of answering. */
  drop: boolean;
  /** Process the request first, then fail the answer. */
  after: boolean;
}

/** The current fault configuration and the decision, per request, of which fault applies. */
export class Faults {
  private config: FaultConfig;
  /** True once a `down` rule matched: every API request is dropped until {@link set}. */
  private down = false;

  /** `random` returns a number in [0, 1); tests may pass a fixed sequence. */
  constructor(
    config: FaultConfigInput = {},
    private readonly random: () => number = Math.random,
  ) {
    this.config = FaultConfigSchema.parse(config);
  }

  /** The current configuration, including the rules' remaining counts. */
  get(): FaultConfig {
    return structuredClone(this.config);
  }

  /** Replaces the whole configuration (fields left out go back to their defaults); throws on a bad one. */
  set(config: FaultConfigInput): FaultConfig {
    this.config = FaultConfigSchema.parse(config);
    this.down = false;
    return this.get();
  }

  /** Seconds of `Retry-After` on a 429. */
  get retryAfterSeconds(): number {
    return this.config.retryAfterSeconds;
  }

  /** Delay to add to every API request, in milliseconds. */
  get latencyMs(): number {
    return this.config.latencyMs;
  }

  /** The fault for a request, if any; consumes one use of the matching rule. */
  decide(method: string, path: string): Fault | undefined {
    if (this.down) return { drop: true, after: false };
    const index = this.config.rules.findIndex(
      (rule) =>
        (rule.method === "*" || rule.method.toUpperCase() === method) && new RegExp(rule.path).test(path),
    );
    if (index >= 0) {
      const rule = this.config.rules[index];
      rule.count -= 1;
      if (rule.count <= 0) this.config.rules.splice(index, 1);
      if (rule.down) {
        this.down = true;
        // Only what comes after is dropped: this request fails only if the rule says how.
        if (!rule.drop && rule.status === undefined) return undefined;
      }
      return rule.drop
        ? { drop: true, after: rule.after ?? false }
        : { status: rule.status ?? 500, drop: false, after: rule.after ?? false };
    }
    if (this.config.dropRate > 0 && this.random() < this.config.dropRate) return { drop: true, after: false };
    if (this.config.rate > 0 && this.random() < this.config.rate) {
      const statuses = this.config.statuses;
      return { status: statuses[Math.floor(this.random() * statuses.length)], drop: false, after: false };
    }
    return undefined;
  }
}

/** The error answer of an injected failure, with `Retry-After` on a 429. */
function injectedError(status: number, retryAfterSeconds: number): ApiError {
  const headers: Record<string, string> = status === 429 ? { "retry-after": String(retryAfterSeconds) } : {};
  return new ApiError(status, codeForStatus(status), `injected fault: HTTP ${status}`, headers);
}

/** Requests whose connection a fault dropped (the request log reports them with status 0). */
const dropped = new WeakSet<object>();

/** True when a fault dropped this request's connection (`request.raw`). */
export function wasDropped(raw: object): boolean {
  return dropped.has(raw);
}

/** Drops a connection without answering. */
function drop(request: FastifyRequest): void {
  dropped.add(request.raw);
  request.raw.socket.destroy();
}

/** Path of a request without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Installs the faults on a server: latency and faults before processing in `onRequest`,
 * faults after processing in `onSend`, where the handler's answer is replaced.
 */
export function registerFaults(app: FastifyInstance, faults: Faults): void {
  const afterProcessing = new WeakMap<FastifyRequest, Fault>();

  app.addHook("onRequest", async (request, reply) => {
    const path = pathOf(request.url);
    if (path.startsWith(ADMIN_PREFIX)) return;
    if (faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    const fault = faults.decide(request.method, path);
    if (!fault) return;
    if (fault.after) {
      afterProcessing.set(request, fault);
    } else if (fault.drop) {
      reply.hijack();
      drop(request);
    } else {
      throw injectedError(fault.status!, faults.retryAfterSeconds);
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const fault = afterProcessing.get(request);
    if (!fault) return payload;
    afterProcessing.delete(request);
    if (fault.drop) {
      // fastify still writes the answer, into a destroyed socket: the caller never gets it.
      drop(request);
      return payload;
    }
    const error = injectedError(fault.status!, faults.retryAfterSeconds);
    reply
      .code(error.statusCode)
      .headers(error.headers)
      .header("content-type", "application/json; charset=utf-8");
    return JSON.stringify({ code: error.code, message: error.message });
  });
}
