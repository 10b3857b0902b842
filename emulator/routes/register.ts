/**
 * Registers the operations of api/operations.ts on the server, one route each: the method and
 * path of its row, its request body parsed with the row's schema (400 naming each field), its query
 * parsed likewise when it takes one, its handler (handlers.ts), and the row's success status.
 */
import type { FastifyInstance } from "fastify";
import type { ZodType } from "zod";
import {
  OPERATIONS,
  operationIdsOf,
  requestSchema,
  type Operation,
  type OperationId,
  type ParsedRequestOf,
} from "../../api/operations";
import { openApiDocument } from "../../api/openapi";
import { pathIdProblem } from "../../api/path-ids";
import { API_PREFIX, OPENAPI_PATH } from "../defaults";
import { speak, type Speech } from "../dialect";
import { ApiError } from "../errors";
import { parseBody, parseQuery } from "../validation";
import type { RouteContext } from "./context";
import { handlers, type Handler, type Params } from "./handlers";

/** Options of {@link apiRoutes}: the context, and the longest path id taken, in characters (414 beyond). */
export type ApiRouteOptions = RouteContext & { maxIdLength: number };

/**
 * Registers every operation of the table that the context's dialect serves, and the dialect's
 * OpenAPI document at {@link OPENAPI_PATH} (a fastify plugin under {@link API_PREFIX}). Another
 * operation's path answers 404 naming no route, as a server without it would (a known path asked
 * with another method: 405, methods.ts).
 */
export async function apiRoutes(app: FastifyInstance, options: ApiRouteOptions): Promise<void> {
  const document = openApiDocument(options.speech.dialect, API_PREFIX, { maxIdLength: options.maxIdLength });
  app.get(OPENAPI_PATH, async () => document);
  const handle = handlers(options);
  for (const id of operationIdsOf(options.speech.dialect))
    route(app, OPERATIONS[id], handle[id], options.speech, options.maxIdLength);
}

/** Throws the 400 (or 414) of the first path id that breaks api/path-ids.ts's rules. */
function checkPathIds(op: Operation, params: Params, speech: Speech, maxIdLength: number): void {
  for (const name of op.params) {
    const problem = pathIdProblem(name, params[name], speech.dialect, maxIdLength);
    if (problem)
      throw new ApiError(
        problem.status,
        problem.status === 414 ? "URI_TOO_LONG" : "INVALID_REQUEST",
        problem.message,
      );
  }
}

/** The table's path template in fastify's syntax: `{service_id}` becomes `:service_id`. */
function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

function route<Id extends OperationId>(
  app: FastifyInstance,
  op: Operation<Id>,
  handler: Handler<Id>,
  speech: Speech,
  maxIdLength: number,
): void {
  const schema = requestSchema(op.id, speech.dialect);
  // A body whose fields are all optional may be left out altogether.
  const emptyIsObject = schema?.safeParse({}).success ?? false;
  app.route({
    method: op.method,
    url: fastifyPath(op.path),
    handler: async (request, reply) => {
      checkPathIds(op, request.params as Params, speech, maxIdLength);
      const body = schema ? parseBody(schema, request.body, emptyIsObject) : undefined;
      const querySchema: ZodType | undefined = "query" in op ? op.query : undefined;
      const query = querySchema ? parseQuery(querySchema, request.query) : undefined;
      const answer = handler(request.params as Params, body as ParsedRequestOf<Id>, query as never);
      return reply.code(op.status).send(speak(speech, op.id, answer ?? undefined));
    },
  });
}
