/**
 * A known path asked with a method it does not take: 405 METHOD_NOT_ALLOWED with `Allow` naming
 * the methods it takes (RFC 9110), not a 404, so a client can tell a wrong method from a path this
 * server does not have (which stays a 404 `no route ...`, docs/api.md#dialects).
 */
import type { FastifyInstance } from "fastify";
import type { Dialect } from "../../api/dialects";
import { OPERATIONS, operationIdsOf } from "../../api/operations";
import { API_PREFIX, OPENAPI_PATH } from "../defaults";
import { ApiError } from "../errors";

/** The path templates the dialect serves, as patterns, with the methods each takes. */
function templates(dialect: Dialect): { pattern: RegExp; methods: Set<string> }[] {
  const byPath = new Map<string, Set<string>>([[OPENAPI_PATH, new Set(["GET"])]]);
  for (const id of operationIdsOf(dialect)) {
    const op = OPERATIONS[id];
    byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method));
  }
  return [...byPath].map(([path, methods]) => ({
    // A parameter is one segment, never empty; a trailing slash reaches the same path.
    pattern: new RegExp(`^${API_PREFIX}${path.replace(/\{\w+\}/g, "[^/]+")}/?$`),
    methods,
  }));
}

const TEMPLATES: Record<Dialect, ReturnType<typeof templates>> = {
  seed: templates("seed"),
  vendor: templates("vendor"),
};

/**
 * The 405 for `method` on `url` when `url` (query aside) is a path of `dialect` that does not take
 * `method`; undefined when it is no such path. `Allow` lists HEAD beside GET, which the server
 * answers too.
 */
export function methodNotAllowed(dialect: Dialect, method: string, url: string): ApiError | undefined {
  const path = url.split("?")[0];
  const known = TEMPLATES[dialect].find((t) => t.pattern.test(path));
  if (!known || known.methods.has(method)) return undefined;
  const allowed = [...known.methods].sort();
  if (known.methods.has("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
  if (method === "HEAD" && known.methods.has("GET")) return undefined;
  return new ApiError(
    405,
    "METHOD_NOT_ALLOWED",
    `${method} is not allowed on ${path}; it takes ${allowed.join(", ")}`,
    { allow: allowed.join(", ") },
  );
}

/**
 * Answers 405 (before any body is read) for a request no route takes whose path is one of
 * `dialect`'s; other such requests go on to the 404 handler.
 */
export function registerMethodCheck(app: FastifyInstance, dialect: Dialect): void {
  app.addHook("onRequest", async (request) => {
    if (!request.is404) return;
    const refusal = methodNotAllowed(dialect, request.method, request.url);
    if (refusal) throw refusal;
  });
}
