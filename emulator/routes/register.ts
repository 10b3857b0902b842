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
import { checkPathParams, speak, type Speech } from "../dialect";
import { parseBody, parseQuery } from "../validation";
import type { RouteContext } from "./context";
import { handlers, type Handler, type Params } from "./handlers";

/**
 * Registers every operation of the table that the context's dialect serves (a fastify plugin; the
 * API prefix is the caller's). Another operation's path answers 404 naming no route, as a server
 * without it would.
 */
export async function apiRoutes(app: FastifyInstance, context: RouteContext): Promise<void> {
  const handle = handlers(context);
  for (const id of operationIdsOf(context.speech.dialect))
    route(app, OPERATIONS[id], handle[id], context.speech);
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
): void {
  const schema = requestSchema(op.id, speech.dialect);
  // A body whose fields are all optional may be left out altogether.
  const emptyIsObject = schema?.safeParse({}).success ?? false;
  app.route({
    method: op.method,
    url: fastifyPath(op.path),
    handler: async (request, reply) => {
      checkPathParams(speech, request.params as Params);
      const body = schema ? parseBody(schema, request.body, emptyIsObject) : undefined;
      const querySchema: ZodType | undefined = "query" in op ? op.query : undefined;
      const query = querySchema ? parseQuery(querySchema, request.query) : undefined;
      const answer = handler(request.params as Params, body as ParsedRequestOf<Id>, query as never);
      return reply.code(op.status).send(speak(speech, op.id, answer ?? undefined));
    },
  });
}
