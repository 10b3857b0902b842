/**
 * The OpenAPI 3.0 document of a dialect, generated from the operations table and its schemas alone,
 * so any OpenAPI tool can drive or check a server speaking it (the emulator serves it at
 * `GET {base_url}/openapi.json`, docs/api.md#openapi). Request bodies are the dialect's request
 * schemas; answers are the strict reading as that dialect answers, in its words (docs/api.md#dialects).
 * Every rule of a request the server checks without reading stored state is in it: bounds, steps
 * and patterns of sizes, "at least one", `"shared"` together, PITR's `target_time` (json-forms.ts),
 * path ids (path-ids.ts).
 */
import { z } from "zod";
import type { Dialect } from "./dialects";
import {
  OPERATIONS,
  answerKind,
  operationIdsOf,
  requestSchema,
  type OperationId,
  type OperationSpec,
  type PathParam,
} from "./operations";
import { applyJsonForms } from "./json-forms";
import { pathIdSchema } from "./path-ids";
import { STRICT_BODIES, STRICT_RECORDS } from "./records";
import { OPERATION_VERSIONS } from "./versions";

/** A JSON value of the document. */
type Json = Record<string, unknown>;

/** Descriptions of the success statuses. */
const STATUS_WORDS: Record<number, string> = {
  200: "Success.",
  201: "Created.",
  202: "Accepted; the change goes on in the background.",
  204: "Success, no body.",
};

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  /** The longest path id the server takes, in characters. Default 100 (`MAX_PATH_ID_LENGTH`, path-ids.ts). */
  maxIdLength?: number;
}

/** A path parameter, as the dialect's server checks it (api/path-ids.ts). */
function pathParameter(name: PathParam, dialect: Dialect, options: OpenApiOptions): Json {
  return { name, in: "path", required: true, schema: pathIdSchema(name, dialect, options.maxIdLength) };
}

/**
 * JSON Schema (OpenAPI 3.0 dialect) of a wire shape, as sent: a request's input, an answer's wire
 * form; with the rules zod's conversion cannot see (json-forms.ts).
 */
function jsonSchema(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, {
    target: "openapi-3.0",
    io: "input",
    unrepresentable: "any",
    override: applyJsonForms,
  }) as Json;
  delete json.$schema;
  return json;
}

/**
 * Puts a service record schema in the dialect's words, wherever one occurs (`service_id` and
 * `service_type` mark it): `seed` has `paused` and no `vpc_endpoint`, TIMESERIESDB; `vendor` has
 * no `paused`, TIMESCALEDB, and `vpcEndpoint` marked deprecated.
 */
function inWords(node: unknown, dialect: Dialect): unknown {
  if (Array.isArray(node)) return node.map((item) => inWords(item, dialect));
  if (node === null || typeof node !== "object") return node;
  const copy: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inWords(v, dialect)]));
  const properties = copy.properties as Json | undefined;
  if (properties && "service_id" in properties && "service_type" in properties) {
    const type = properties.service_type as Json;
    const drop = dialect === "seed" ? "TIMESCALEDB" : "TIMESERIESDB";
    properties.service_type = { ...type, enum: (type.enum as string[]).filter((v) => v !== drop) };
    if (dialect === "seed") delete properties.vpc_endpoint;
    else {
      delete properties.paused;
      properties.vpcEndpoint = { ...(properties.vpcEndpoint as Json), deprecated: true };
    }
  }
  return copy;
}

/** The query parameters of an operation that takes a query (service logs), from its schema. */
function queryParameters(op: OperationSpec): Json[] {
  if (!op.query) return [];
  const schema = jsonSchema(op.query);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    // Repeatable parameters (one value or several) are arrays, one `name=value` per value.
    const repeated = (property.anyOf as Json[] | undefined)?.find((s) => s.type === "array");
    return repeated
      ? { name, in: "query", required: required.has(name), schema: repeated, style: "form", explode: true }
      : { name, in: "query", required: required.has(name), schema: property };
  });
}

/**
 * The OpenAPI operation object of `id` in `dialect`. Its `operationId` is the dialect's: the table's
 * id in `seed`, the current document's in `vendor` (`x-mdb-operation` keeps the table's, the
 * vocabulary of the emulator's request log).
 */
function operationObject(id: OperationId, dialect: Dialect, options: OpenApiOptions): Json {
  const op: OperationSpec = OPERATIONS[id];
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as PathParam);
  const request = requestSchema(id, dialect);
  const kind = answerKind(id, dialect);
  const success: Json = { description: STATUS_WORDS[op.status] };
  if (kind !== "none") {
    success.content = { "application/json": { schema: inWords(jsonSchema(STRICT_BODIES[kind]), dialect) } };
  }
  return {
    operationId: dialect === "vendor" ? OPERATION_VERSIONS[id].vendorId : id,
    "x-mdb-operation": id,
    summary: op.name,
    tags: [op.origin === "spec" ? "spec" : "vendor additions"],
    "x-mdb-origin": op.origin,
    "x-mdb-retry": op.retry,
    parameters: [...params.map((p) => pathParameter(p, dialect, options)), ...queryParameters(op)],
    ...(request
      ? {
          requestBody: {
            // A body whose fields are all optional may be left out.
            required: !request.safeParse({}).success,
            content: { "application/json": { schema: jsonSchema(request) } },
          },
        }
      : {}),
    responses: {
      [String(op.status)]: success,
      "4XX": { $ref: "#/components/responses/Error" },
      "5XX": { $ref: "#/components/responses/Error" },
    },
  };
}

/**
 * The OpenAPI 3.0.3 document of `dialect`: every operation it serves, under `basePath` (the
 * server's `{base_url}` path, e.g. `/public/api/v1`), with HTTP Basic security.
 */
export function openApiDocument(dialect: Dialect, basePath: string, options: OpenApiOptions = {}): Json {
  const paths: Record<string, Json> = {};
  for (const id of operationIdsOf(dialect)) {
    const op = OPERATIONS[id];
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operationObject(id, dialect, options) };
  }
  return {
    openapi: "3.0.3",
    info: {
      title: `Managed Database Service Control API (${dialect} dialect)`,
      version: "1.0.0",
      description:
        dialect === "seed"
          ? "The seed's words (api-spec.md), plus renameService."
          : "The words of the vendor's current OpenAPI document (d7201d6).",
    },
    servers: [{ url: basePath }],
    tags: [
      { name: "spec", description: "The 34 operations of the spec." },
      { name: "vendor additions", description: "Operations the vendor's current document adds." },
    ],
    security: [{ basicAuth: [] }],
    paths,
    components: {
      securitySchemes: { basicAuth: { type: "http", scheme: "basic" } },
      responses: {
        Error: {
          description: "Every 4xx and 5xx: an UPPER_SNAKE code and a message.",
          content: { "application/json": { schema: jsonSchema(STRICT_RECORDS.ErrorBody) } },
        },
      },
    },
  };
}
