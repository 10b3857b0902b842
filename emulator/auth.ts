/**
 * Authentication of the emulator: HTTP Basic with the one accepted key on every route (API and
 * admin) but the OpenAPI document's, and the key's project as the only project it reaches. The secret and the Authorization
 * header are never logged.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import {
  API_PREFIX,
  DEFAULT_PROJECT_ID,
  DEFAULT_PUBLIC_KEY,
  DEFAULT_SECRET_KEY,
  OPENAPI_PATH,
} from "./defaults";
import { ApiError } from "./errors";

/** The one key the emulator accepts, and the project it belongs to. */
export interface Credentials {
  /** Public key: the HTTP Basic user name. */
  publicKey: string;
  /** Secret key: the HTTP Basic password. */
  secretKey: string;
  /** The only project the key reaches. */
  projectId: string;
}

/**
 * The accepted key: each part from `explicit` (CLI flags), else the environment (`MDB_PUBLIC_KEY`,
 * `MDB_SECRET_KEY`, `MDB_PROJECT_ID`), else the development defaults.
 */
export function resolveCredentials(
  explicit: Partial<Credentials>,
  env: Record<string, string | undefined> = process.env,
): Credentials {
  return {
    publicKey: explicit.publicKey || env.MDB_PUBLIC_KEY || DEFAULT_PUBLIC_KEY,
    secretKey: explicit.secretKey || env.MDB_SECRET_KEY || DEFAULT_SECRET_KEY,
    projectId: explicit.projectId || env.MDB_PROJECT_ID || DEFAULT_PROJECT_ID,
  };
}

/** Constant-time string comparison, so the time of a 401 reveals nothing about the key. */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** True when an Authorization header carries exactly the accepted key. */
export function isAuthorized(header: string | undefined, credentials: Credentials): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match) return false;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return false;
  const publicOk = sameText(decoded.slice(0, colon), credentials.publicKey);
  const secretOk = sameText(decoded.slice(colon + 1), credentials.secretKey);
  return publicOk && secretOk;
}

/**
 * Checks every request but that of the OpenAPI document: 401 UNAUTHORIZED with `WWW-Authenticate` without the accepted key, then
 * 403 FORBIDDEN when the path names a project other than the key's.
 */
export function registerAuth(app: FastifyInstance, credentials: Credentials): void {
  app.addHook("onRequest", async (request) => {
    if (request.method === "GET" && request.url.split("?")[0] === `${API_PREFIX}${OPENAPI_PATH}`) return;
    if (!isAuthorized(request.headers.authorization, credentials)) {
      throw new ApiError(
        401,
        "UNAUTHORIZED",
        "missing or invalid API credentials (HTTP Basic public:secret key)",
        {
          "www-authenticate": 'Basic realm="mdb-emulator", charset="UTF-8"',
        },
      );
    }
    const projectId = (request.params as { project_id?: string } | undefined)?.project_id;
    if (projectId !== undefined && projectId !== credentials.projectId) {
      throw new ApiError(403, "FORBIDDEN", `the API key does not belong to project ${projectId}`);
    }
  });
}
