/**
 * The Managed Database API client: one method per row of `api/operations.ts`, made from the row
 * (method, path, request schema, answer, retry class, secret fields), none written by hand. A
 * method takes the operation's path parameters in template order, then its body with the wire's
 * snake_case field names in camelCase (`cpuMillis` is sent as `cpu_millis`). Bodies are validated
 * strictly before sending, answers parsed leniently; records keep the API's snake_case shape.
 */
import {
  OPERATIONS,
  OPERATION_IDS,
  fillPath,
  responseSchema,
  type OperationId,
  type ResponseOf,
} from "../../api/operations";
import { describeIssues } from "../../api/requests";
import { MdbRequestError } from "./errors";
import { HttpClient, type HttpClientOptions } from "./http";
import type { RetryReport } from "./http-options";
import type { AnswerOf, CallArgs, OperationMethods } from "./signatures";
import { isRecord, missingFields, onTheWire, wireRuleOf } from "./wire";

export type { AnswerOf, BodyOf, CallArgs, CamelBody, OperationMethods } from "./signatures";

/** Top-level camelCase keys to the wire's snake_case; nested values (analytics properties) untouched. */
function snakeKeys(body: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  );
}

/** The client's own members; the operation methods are added from the table below. */
class ApiClient {
  /** The underlying HTTP client. */
  readonly http: HttpClient;
  /** The cancellation every call of this client carries (see {@link ApiClient.withSignal}). */
  readonly signal?: AbortSignal;
  /** Hears the retries of this client's calls (see {@link ApiClient.withSignal}); unset: the transport's own listener. */
  readonly report?: RetryReport;

  constructor(options: HttpClientOptions | HttpClient) {
    this.http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  /**
   * This client with every call held to `signal` (a run's cancellation, `RequestSpec.signal`):
   * once it aborts, nothing more is sent, a GET in flight is cut off, and a change in flight is let
   * finish so that its answer is read. The view shares this client's transport, and any method a
   * test stubbed on it. Without `signal`: calls that cannot be cancelled. With `report`, the
   * retries of its calls, and the answers that end them, are told to it (progress under the
   * resource that made the call); without, this client's stays.
   */
  withSignal(signal?: AbortSignal, report?: RetryReport): MdbApi {
    const view: PropertyDescriptorMap = { signal: { value: signal, enumerable: true } };
    if (report) view.report = { value: report, enumerable: true };
    return Object.create(this, view) as MdbApi;
  }

  /**
   * Sends operation `id`. The body is validated first (a bad one, or one without a field the
   * client's wire rules require, rejects with {@link MdbRequestError} naming each field, before
   * any request), and sent with its sizes as strings of digits (`wire.ts`); the row's secret fields are
   * removed from any error text; errors name the last path parameter other than the project.
   * Where the rule names a read-back and the answer is not the record, the record is read.
   */
  async call<Id extends OperationId>(id: Id, ...args: CallArgs<Id>): Promise<AnswerOf<Id>> {
    const answer = await send(this.http, id, args, this);
    const readBack = wireRuleOf(id).readBack;
    if (readBack === undefined || isRecord(answer)) return answer as AnswerOf<Id>;
    const values = args.slice(0, OPERATIONS[id].params.length) as CallArgs<typeof readBack>;
    return (await send(this.http, readBack, values, this)) as AnswerOf<Id>;
  }
}

/** `?a=1&b=x&b=y` of a query's fields (camelCase keys as snake_case, lists repeated); empty when none. */
function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    for (const item of Array.isArray(value) ? value : [value])
      if (item !== undefined) params.append(key, String(item));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Sends operation `id` once (with the client's retries) over `http`, held to the view's `signal`
 * and its retries told to its `report`: its answer as the API gave it.
 */
function send<Id extends OperationId>(
  http: HttpClient,
  id: Id,
  args: CallArgs<Id>,
  { signal, report }: Pick<ApiClient, "signal" | "report">,
): Promise<ResponseOf<Id>> {
  const op = OPERATIONS[id];
  const values = args.slice(0, op.params.length) as string[];
  const body = snakeKeys((args[op.params.length] as object | undefined) ?? {});
  let query = "";
  if ("query" in op) {
    const parsed = op.query.safeParse(body);
    if (!parsed.success) return Promise.reject(new MdbRequestError(id, describeIssues(parsed.error)));
    query = queryString(body);
  }
  let sent: unknown;
  if ("request" in op) {
    const rule = wireRuleOf(id);
    const missing = missingFields(rule, body).map((field) => `${field}: is required (the API needs it)`);
    const parsed = op.request.safeParse(body);
    const problems = [...missing, ...(parsed.success ? [] : [describeIssues(parsed.error)])];
    if (problems.length) return Promise.reject(new MdbRequestError(id, problems.join("; ")));
    sent = onTheWire(rule, parsed.data);
  }
  const secrets = ("secrets" in op ? op.secrets : [])
    .map((f) => body[f])
    .filter((v) => typeof v === "string");
  const named = op.params.flatMap((param, i) => (param === "project_id" ? [] : [values[i]]));
  return http.request(
    {
      operation: id,
      method: op.method,
      path: fillPath(op.path, values) + query,
      body: sent,
      retry: op.retry,
      resourceId: named.at(-1),
      secrets: secrets as string[],
      signal,
      report,
    },
    responseSchema(id, "lenient"),
  ) as Promise<ResponseOf<Id>>;
}

// Plain writable methods, like a class's own, so tests can stub one operation.
for (const id of OPERATION_IDS)
  Object.defineProperty(ApiClient.prototype, id, {
    value(this: ApiClient, ...args: unknown[]) {
      return this.call(id, ...(args as CallArgs<typeof id>));
    },
    writable: true,
    configurable: true,
  });

/** The API client: {@link ApiClient.call} and one method per operation of `api/operations.ts`. */
export type MdbApi = ApiClient & OperationMethods;

/** Makes an {@link MdbApi} from client options or an existing {@link HttpClient}. */
export const MdbApi = ApiClient as new (options: HttpClientOptions | HttpClient) => MdbApi;
