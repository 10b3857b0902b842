/**
 * What `check` verifies besides the program's inputs, so that `pulumi preview` (which calls
 * check, never create) already tells a user what `up` would fail on: the provider's
 * configuration (no API call), then access, with one read-only call per project, cached for
 * the provider process: a wrong key (401) or a project the key cannot reach (403), naming the
 * config keys to fix.
 *
 * These run in Pulumi's provider host only, which always calls the provider's `configure`
 * before its first `check` (see `Runtime.enableLiveChecks`). A `check` called directly (unit
 * tests, tools) validates the inputs alone, with no configuration needed.
 */
import type * as pulumi from "@pulumi/pulumi";
import { MdbApiError } from "../client/errors";
import { type ProviderConfig, configProblems, resolveConfig, settingName } from "../config";
import type { Runtime } from "./context";
import { isUnknown } from "./check";

/** One resource-level failure (no property) per configuration problem; none when it is usable. */
export function configFailures(runtime: Runtime): pulumi.dynamic.CheckFailure[] {
  return configProblems(runtime.configSource()).map((reason) => ({ property: "", reason }));
}

/** What the access check found: the project calls go to, or why they cannot. */
export type Access =
  | { projectId: string }
  /** `transient`: no answer came (the API may be back on the next check), so it is not kept. */
  | { failure: pulumi.dynamic.CheckFailure; transient?: boolean };

/** Access per runtime, settings and project, for the life of the process: one call each. */
const accessCaches = new WeakMap<Runtime, Map<string, Promise<Access>>>();

/** The keys of both halves of the API key, for messages. */
const KEY_SETTINGS = `${settingName("publicKey")} and ${settingName("secretKey")}`;

/** What an access error means, or undefined when it says nothing about the settings. */
function accessFailure(
  error: unknown,
  settings: ProviderConfig,
  projectId: string | undefined,
  own: string | undefined,
): Access | undefined {
  if (!(error instanceof MdbApiError)) return undefined;
  const failure = (reason: string, property = "") => ({ failure: { property, reason } });
  const said = `HTTP ${error.status} ${error.code}: ${error.apiMessage}`;
  if (error.status === 401) return failure(`the API refused the key (${said}); check ${KEY_SETTINGS}`);
  if (error.status === 403 && own !== undefined)
    return failure(
      `the API key cannot reach project ${own} (${said}); give the id of a project the key belongs ` +
        `to, or use a key of project ${own} (${KEY_SETTINGS})`,
      "projectId",
    );
  if (error.status === 403)
    return failure(
      `the API key cannot reach project ${projectId}, set by ${settingName("projectId")} (${said}); ` +
        `set it to a project the key belongs to (unset, the key's own project is used), or use a key ` +
        `of that project (${KEY_SETTINGS})`,
    );
  if (error.status === undefined)
    return {
      ...failure(
        `cannot reach the API at ${settings.apiUrl}, set by ${settingName("apiUrl")}: ${error.apiMessage}`,
      ),
      transient: true,
    };
  return undefined;
}

/** Asks the API once: the key's project (`GET /auth/info`), or a list in the project named. */
async function probe(runtime: Runtime, settings: ProviderConfig, own: string | undefined): Promise<Access> {
  const projectId = own ?? settings.projectId;
  try {
    if (projectId === undefined) return { projectId: await runtime.session().projectId() };
    await runtime.session().api.listVpcs(projectId);
    return { projectId };
  } catch (error) {
    const access = accessFailure(error, settings, projectId, own);
    if (access) return access;
    throw error;
  }
}

/**
 * Whether the configured key reaches the project of a resource whose `projectId` input is
 * `projectInput` (absent: the configured project, else the key's own). Undefined while that
 * input is unknown (preview). An answer other than 401, 403 or none at all says nothing about
 * the settings: it is reported as progress and not held against the program.
 */
export async function checkAccess(runtime: Runtime, projectInput: unknown): Promise<Access | undefined> {
  if (isUnknown(projectInput)) return undefined;
  const own = typeof projectInput === "string" ? projectInput.trim() : undefined;
  const settings = resolveConfig(runtime.configSource());
  let accessCache = accessCaches.get(runtime);
  if (!accessCache) accessCaches.set(runtime, (accessCache = new Map()));
  const key = [settings.apiUrl, settings.publicKey, settings.secretKey, settings.projectId, own].join("\n");
  let access = accessCache.get(key);
  if (!access) {
    access = probe(runtime, settings, own);
    accessCache.set(key, access);
  }
  try {
    const found = await access;
    if ("transient" in found && found.transient) accessCache.delete(key);
    return found;
  } catch (error) {
    accessCache.delete(key);
    runtime.log(`could not check access to the API before changes: ${(error as Error).message}`);
    return undefined;
  }
}
