/**
 * The API client the functions use. In a Pulumi program's own process: built once from the
 * stack config `mdb:*`, then the `MDB_*` environment variables, the same settings and
 * precedence as the resources. In the native plugin, whose Invoke runs the same functions: the
 * session of the plugin's runtime, configured by the engine (`useFunctionsSession`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConfigSource, resolveConfig } from "../config";
import type { Session } from "../kit/context";
import { ApiSession } from "../runtime";

/** The stack config of namespace `mdb`, in the `mdb:key` form {@link resolveConfig} reads. */
function stackConfig(): ConfigSource {
  // Loaded here: the plugin process, which never reads a program's config, does not load the SDK.
  const { Config } = require("@pulumi/pulumi") as typeof pulumi;
  const config = new Config("mdb");
  // `get` returns a secret's plain value, which the client needs; it never reaches an output.
  return { get: (key) => config.get(key.replace(/^mdb:/, "")) };
}

let session: ApiSession | undefined;
let provided: (() => Session) | undefined;

/** The client of the functions: the one {@link useFunctionsSession} gave, else the program's, built on first use. */
export function functionsSession(): Session {
  if (provided) return provided();
  session ??= new ApiSession(resolveConfig(stackConfig()));
  return session;
}

/**
 * Makes the functions use the sessions `source` gives (the native plugin's runtime, which the
 * engine configures) instead of the program's stack config.
 */
export function useFunctionsSession(source: () => Session): void {
  provided = source;
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
