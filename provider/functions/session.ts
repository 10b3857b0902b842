/**
 * The API client of a Pulumi program's own process, which the functions use: built once from
 * the stack config `mdb:*`, then the `MDB_*` environment variables, the same settings and
 * precedence as the resources.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigSource, resolveConfig } from "../config";
import { ApiSession } from "../runtime";

/** The stack config of namespace `mdb`, in the `mdb:key` form {@link resolveConfig} reads. */
function stackConfig(): ConfigSource {
  const config = new pulumi.Config("mdb");
  // `get` returns a secret's plain value, which the client needs; it never reaches an output.
  return { get: (key) => config.get(key.replace(/^mdb:/, "")) };
}

let session: ApiSession | undefined;

/** The client of the program process, built from the settings on first use. */
export function functionsSession(): ApiSession {
  session ??= new ApiSession(resolveConfig(stackConfig()));
  return session;
}

/**
 * Forgets the client built from the settings, so the next call reads stack config and the
 * environment again (for programs and tests that change them).
 */
export function resetFunctionsClient(): void {
  session = undefined;
}

/**
 * The project a function call is about: `own` when given, else `mdb:projectId` /
 * `MDB_PROJECT_ID`, else the project the API key belongs to (asked once, `GET /auth/info`).
 * The same precedence as the resources.
 */
export function resolveFunctionsProjectId(own?: string): Promise<string> {
  return functionsSession().projectId(own);
}
