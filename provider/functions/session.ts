/**
 * The API client the functions use. In a Pulumi program's own process: built once from the
 * stack config `mdb:*`, then the `MDB_*` environment variables, the same settings and
 * precedence as the resources. In the native plugin, whose Invoke runs the same functions: the
 * session of the plugin's runtime, configured by the engine (`useFunctionsSession`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConfigSource, resolveConfig } from "../config";
import type { MdbApi } from "../client/api";
import type { Session } from "../kit/context";
import { apiView } from "../kit/lifecycle/api-view";
import { ApiSession, progressLine } from "../runtime";

/** The stack config of namespace `mdb`, in the `mdb:key` form {@link resolveConfig} reads. */
function stackConfig(): ConfigSource {
  // Loaded here: the plugin process, which never reads a program's config, does not load the SDK.
  const { Config } = require("@pulumi/pulumi") as typeof pulumi;
  const config = new Config("mdb");
  // `get` returns a secret's plain value, which the client needs; it never reaches an output.
  return { get: (key) => config.get(key.replace(/^mdb:/, "")) };
}

/**
 * Where the functions' calls say their retries, and the cancellation they are held to: the
 * stack's log, since no one resource makes them (`kit/lifecycle/api-view.ts`).
 */
export interface FunctionsVoice {
  /** Says one progress line (without its `[mdb]` mark) at stack level. */
  log(line: string): void;
  /** The run's cancellation (the plugin's Cancel); absent in a program's own process. */
  signal?: AbortSignal;
}

/** A program's own process: lines through Pulumi's log, so the CLI shows them under the stack. */
const PROGRAM_VOICE: FunctionsVoice = {
  log: (line) => {
    const { log } = require("@pulumi/pulumi") as typeof pulumi;
    void log.info(progressLine(line));
  },
};

let session: ApiSession | undefined;
let provided: (() => Session) | undefined;
let voice: FunctionsVoice = PROGRAM_VOICE;

/** The client of the functions: the one {@link useFunctionsSession} gave, else the program's, built on first use. */
export function functionsSession(): Session {
  if (provided) return provided();
  session ??= new ApiSession(resolveConfig(stackConfig()));
  return session;
}

/**
 * The client of the functions as their calls use it: held to the run's cancellation, and saying
 * its retries at stack level past the quiet ones (`api-view.ts`).
 */
export function functionsApi(): MdbApi {
  return apiView(functionsSession().api, voice.signal, voice.log);
}

/**
 * Makes the functions use the sessions `source` gives (the native plugin's runtime, which the
 * engine configures) instead of the program's stack config, and say their retries to `said`
 * (default: Pulumi's log of the program's process).
 */
export function useFunctionsSession(source: () => Session, said: FunctionsVoice = PROGRAM_VOICE): void {
  provided = source;
  voice = said;
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
  return functionsSession().projectId(own, functionsApi());
}
