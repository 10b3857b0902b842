/**
 * What `check` verifies besides the program's inputs, so that `pulumi preview` (which calls
 * check, never create) already tells a user what `up` would fail on: the provider's
 * configuration (no API call), then access, cached for the provider process: `GET /auth/info`
 * (plus a list in the project when it is not the key's own) tells a URL that does not serve the
 * API (a 404 or another 4xx, a redirect, an HTML page or another service's JSON), a wrong key
 * (401) or a project the key cannot reach (403), naming the settings to fix where they were given
 * (stack config, or an explicit provider's arguments).
 *
 * Kept apart on purpose: an answer that says nothing about the settings (a 5xx, a 429) is
 * reported as a progress line and the preview goes on, since it is the API's trouble of the
 * moment and the same settings may well work for `up`; no answer at all (network) fails the
 * check, naming the API URL, and is asked again by the next check.
 *
 * These run in Pulumi's provider host only, which always calls the provider's `configure`
 * before its first `check` (see `Runtime.enableLiveChecks`). A `check` called directly (unit
 * tests, tools) validates the inputs alone, with no configuration needed.
 */
import { API_PREFIX } from "../../client/base-url";
import { MdbApiError } from "../../client/errors";
import {
  type ConfigSource,
  type ProviderConfig,
  configProblems,
  keySettingsWhere,
  resolveConfig,
  settingWhere,
} from "../../config";
import type { MdbApi } from "../../client/api";
import type { Runtime } from "../context";
import { type CheckFailure, isUnknown } from "../fields/check";
import { isCancellation } from "./cancel";

/**
 * What each settings object a runtime was configured with gives, worked out at the first check
 * after a configure, not at every one (a preview of 200 resources worked them out 200 times; the
 * client of a run is built once per configure as well, `Runtime.session`): its problems, and the
 * settings resolved. Without settings (a runtime configured with none: tests), each time.
 */
const problemsOf = new WeakMap<ConfigSource, readonly string[]>();
const resolvedOf = new WeakMap<ConfigSource, ProviderConfig>();

/** `make()`, once per settings object `source` (kept in `cache`). */
function oncePerSettings<T>(
  cache: WeakMap<ConfigSource, T>,
  source: ConfigSource | undefined,
  make: () => T,
): T {
  if (!source) return make();
  let value = cache.get(source);
  if (value === undefined) cache.set(source, (value = make()));
  return value;
}

/** One resource-level failure (no property) per configuration problem; none when it is usable. */
export function configFailures(runtime: Runtime): CheckFailure[] {
  const source = runtime.configSource();
  const problems = oncePerSettings(problemsOf, source, () => configProblems(source));
  return problems.map((reason) => ({ property: "", reason }));
}

/** What the access check found: the project calls go to, or why they cannot. */
export type Access =
  | { projectId: string }
  /** `transient`: no answer came (the API may be back on the next check), so it is not kept. */
  | { failure: CheckFailure; transient?: boolean };

/** Access per runtime, settings and project, for the life of the process: one call each. */
const accessCaches = new WeakMap<Runtime, Map<string, Promise<Access>>>();

/** What an answer that is not the API's looked like, in a few words (never more than 80 characters of it). */
function describeAnswer(error: MdbApiError): string {
  if (error.code === "REDIRECTED") return `HTTP ${error.status}, ${error.apiMessage.split(";")[0]}`;
  const text = error.apiMessage.trim();
  const kind = /<(!doctype|html|head|body)\b/i.test(text)
    ? "an HTML page"
    : error.code === "UNEXPECTED_RESPONSE"
      ? "a body that is not the API's"
      : `${error.code}${text ? `: ${text.length > 80 ? `${text.slice(0, 80)}...` : text}` : ""}`;
  return `HTTP ${error.status}, ${kind}`;
}

/**
 * The failure of a base URL whose `GET /auth/info` (an endpoint every key may call) was not
 * answered as the API answers it: any 4xx but 401 and 403, a redirect, or a success whose body
 * is not the API's (an HTML page, another service's JSON). Undefined for any other error.
 */
function notTheApi(error: unknown, settings: ProviderConfig, source?: ConfigSource): Access | undefined {
  if (!(error instanceof MdbApiError) || error.status === undefined) return undefined;
  const wrong =
    error.code === "REDIRECTED" ||
    error.code === "UNEXPECTED_RESPONSE" ||
    (error.status >= 400 && error.status < 500 && ![401, 403, 429].includes(error.status));
  if (!wrong) return undefined;
  return {
    failure: {
      property: "",
      reason:
        `the server at ${settings.apiUrl}, set by ${settingWhere("apiUrl", source)}, does not answer as the Managed ` +
        `Database API (GET ${settings.apiUrl}/auth/info: ${describeAnswer(error)}); set ` +
        `${settingWhere("apiUrl", source)} to the API's base URL, e.g. https://api.example.com${API_PREFIX} ` +
        `(a URL with no path gets ${API_PREFIX})`,
    },
  };
}

/** What an access error means, or undefined when it says nothing about the settings. */
function accessFailure(
  error: unknown,
  settings: ProviderConfig,
  projectId: string | undefined,
  own: string | undefined,
  source?: ConfigSource,
): Access | undefined {
  const keys = keySettingsWhere(source);
  if (!(error instanceof MdbApiError)) return undefined;
  const failure = (reason: string, property = "") => ({ failure: { property, reason } });
  const said = `HTTP ${error.status} ${error.code}: ${error.apiMessage}`;
  if (error.status === 401) return failure(`the API refused the key (${said}); check ${keys}`);
  if (error.status === 403 && own !== undefined)
    return failure(
      `the API key cannot reach project ${own} (${said}); give the id of a project the key belongs ` +
        `to, or use a key of project ${own} (${keys})`,
      "projectId",
    );
  if (error.status === 403)
    return failure(
      `the API key cannot reach project ${projectId}, set by ${settingWhere("projectId", source)} (${said}); ` +
        `set it to a project the key belongs to (unset, the key's own project is used), or use a key ` +
        `of that project (${keys})`,
    );
  if (error.status === undefined)
    return {
      ...failure(
        `cannot reach the API at ${settings.apiUrl}, set by ${settingWhere("apiUrl", source)}: ${error.apiMessage}`,
      ),
      transient: true,
    };
  return undefined;
}

/**
 * Asks the API once: whether it is the API and knows the key (`GET /auth/info`), then, for a
 * project other than the key's own, whether the key reaches it (a list in that project).
 */
async function probe(
  runtime: Runtime,
  settings: ProviderConfig,
  own: string | undefined,
  api: MdbApi,
): Promise<Access> {
  const projectId = own ?? settings.projectId;
  const source = runtime.configSource();
  let keyProject: string;
  try {
    keyProject = await runtime.session().keyProjectId(api);
  } catch (error) {
    if (isCancellation(error)) throw error;
    // The one call every key may make: what it answers tells the URL and the key.
    const access =
      notTheApi(error, settings, source) ??
      (error instanceof MdbApiError && error.status === 403
        ? {
            failure: {
              property: "",
              reason: `the API refused the key (HTTP 403 ${error.code}: ${error.apiMessage}); check ${keySettingsWhere(source)}`,
            },
          }
        : accessFailure(error, settings, projectId, own, source));
    if (access) return access;
    throw error;
  }
  if (projectId === undefined || projectId === keyProject) return { projectId: projectId ?? keyProject };
  try {
    // The API answered: what the list answers is about the project, never the URL.
    await api.listVpcs(projectId);
    return { projectId };
  } catch (error) {
    const access = accessFailure(error, settings, projectId, own, source);
    if (access) return access;
    throw error;
  }
}

/**
 * Whether the configured key reaches the project of a resource whose `projectId` input is
 * `projectInput` (absent: the configured project, else the key's own). Undefined while that
 * input is unknown (preview). An answer other than 401, 403 or none at all says nothing about
 * the settings: it is reported as progress and not held against the program. The calls go
 * through `api`, the view of the check that asks (held to the run's cancellation, which ends the
 * check; its retries said under that resource while the API does not answer).
 */
export async function checkAccess(
  runtime: Runtime,
  projectInput: unknown,
  api: MdbApi,
): Promise<Access | undefined> {
  if (isUnknown(projectInput)) return undefined;
  const own = typeof projectInput === "string" ? projectInput.trim() : undefined;
  const source = runtime.configSource();
  const settings = oncePerSettings(resolvedOf, source, () => resolveConfig(source));
  let accessCache = accessCaches.get(runtime);
  if (!accessCache) accessCaches.set(runtime, (accessCache = new Map()));
  // The same settings given elsewhere are named otherwise in a failure: the origin is in the key.
  const key = [
    settings.apiUrl,
    settings.publicKey,
    settings.secretKey,
    settings.projectId,
    own,
    source?.origin,
  ].join("\n");
  let access = accessCache.get(key);
  if (!access) {
    access = probe(runtime, settings, own, api);
    accessCache.set(key, access);
  }
  try {
    const found = await access;
    if ("transient" in found && found.transient) accessCache.delete(key);
    return found;
  } catch (error) {
    accessCache.delete(key);
    if (isCancellation(error)) throw error;
    runtime.log(`could not check access to the API before changes: ${(error as Error).message}`);
    return undefined;
  }
}
