/**
 * Where the provider finds the API endpoint and credentials, and the adoption switch.
 * Precedence: a resource's own `projectId` input, then stack config (`mdb:*`), then the
 * environment (`MDB_*`). The project falls back to the key's own project, as `GET /auth/info`
 * reports it. Credentials are read at run time only; they are never resource inputs and never
 * in state.
 */
import { constants as bufferConstants } from "buffer";
import { normalizeBaseUrl } from "./client/base-url";
import { didYouMean } from "./kit/messages/suggest";
import {
  TRANSPORT_SETTINGS,
  argumentWhere,
  type TransportSettingName,
  transportConfigKey,
  transportEnvVar,
} from "./client/settings";
import { WAIT_SETTINGS, type WaitSettingName } from "./kit/lifecycle/wait-limits";

/** Resolved settings of the provider. */
export interface ProviderConfig {
  /** API base URL, e.g. `https://api.example.com/public/api/v1`. */
  apiUrl: string;
  /** API public key (Basic auth user name). */
  publicKey: string;
  /** API secret key (Basic auth password). Never logged, never in state. */
  secretKey: string;
  /** Default project of resources that do not name one; undefined means "the key's project". */
  projectId?: string;
  /** Limits of the transport the stack set (`mdb:callDeadlineMs`, ...); the client's defaults for the others. */
  transport?: TransportLimitSettings;
  /** Limits of the waits the stack set (`mdb:unexpectedStatusMs`); the defaults for the others. */
  waits?: WaitLimitSettings;
  /**
   * Where the settings were given when not in stack config, as messages name them: an explicit
   * provider's arguments (`the arguments of provider prod`, {@link ConfigSource.origin}).
   */
  origin?: string;
}

/** Limits of the client's transport set by stack config or the environment, by option name. */
export type TransportLimitSettings = Partial<Record<TransportSettingName, number>>;

/** Limits of the waits set by stack config or the environment, by name (`kit/lifecycle/wait-limits.ts`). */
export type WaitLimitSettings = Partial<Record<WaitSettingName, number>>;

/**
 * Reads limits a stack may set: per setting, stack config `mdb:<name>`, else `MDB_<NAME>`; each a
 * whole number of milliseconds or bytes, at least its `min`. Returns those set, and one sentence
 * per value that is not usable, naming its key and variable.
 */
function resolveLimits<N extends string>(
  settings: ReadonlyArray<{ name: N; min: number }>,
  config: ConfigSource | undefined,
  env: NodeJS.ProcessEnv,
): { limits: Partial<Record<N, number>>; problems: string[] } {
  const limits: Partial<Record<N, number>> = {};
  const problems: string[] = [];
  for (const { name, min } of settings) {
    const key = transportConfigKey(name);
    const variable = transportEnvVar(name);
    const fromConfig = config?.get(key);
    const [source, text] =
      fromConfig !== undefined && fromConfig !== ""
        ? [givenAt(key, config), fromConfig]
        : [`environment variable ${variable}`, env[variable] ?? ""];
    if (text.trim() === "") continue;
    const value = Number(text.trim());
    const max = name === "maxResponseBytes" ? bufferConstants.MAX_STRING_LENGTH : Number.MAX_SAFE_INTEGER;
    if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
      problems.push(
        `${source} is ${JSON.stringify(text)}; it must be a whole number from ${min} to ${max} ` +
          `(${name.endsWith("Ms") ? "milliseconds" : "bytes"}). ${howToGive(key, variable, "<value>", config)}`,
      );
      continue;
    }
    limits[name] = value;
  }
  return { limits, problems };
}

/**
 * Reads the transport limits a stack may set (`provider/client/settings.ts`): stack config
 * `mdb:<name>`, else `MDB_<NAME>`; each a whole number of milliseconds or bytes (0 allowed for
 * `maxRetryAfterMs`). Returns those set, and one sentence per value that is not usable, naming
 * its key and variable.
 */
export function resolveTransportLimits(
  config?: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): { limits: TransportLimitSettings; problems: string[] } {
  return resolveLimits(TRANSPORT_SETTINGS, config, env);
}

/**
 * Reads the wait limits a stack may set (`kit/lifecycle/wait-limits.ts`: `mdb:unexpectedStatusMs`
 * / `MDB_UNEXPECTED_STATUS_MS`), as {@link resolveTransportLimits} reads the transport's.
 */
export function resolveWaitLimits(
  config?: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): { limits: WaitLimitSettings; problems: string[] } {
  return resolveLimits(WAIT_SETTINGS, config, env);
}

/** A source of stack config values: `get("mdb:apiUrl")`. Pulumi's dynamic `Config` fits. */
export interface ConfigSource {
  get(key: string): string | undefined;
  /**
   * Where the values come from when they are not the stack's config: an explicit provider's
   * arguments, as messages name them (`the arguments of provider prod`). Unset: stack config.
   */
  readonly origin?: string;
}

/**
 * How a message names the place a value of `key` (`mdb:timeoutMs`) was given: `stack config
 * mdb:timeoutMs`, or `timeoutMs in the arguments of provider prod` for an explicit provider's.
 */
function givenAt(key: string, config: ConfigSource | undefined): string {
  return config?.origin ? argumentWhere(key.replace(/^mdb:/, ""), config.origin) : `stack config ${key}`;
}

/**
 * How a message says to set `key` (`mdb:timeoutMs`) to a `value` of its kind: the config
 * command, or the explicit provider's argument; either way, else the environment variable.
 */
function howToGive(key: string, variable: string, value: string, config: ConfigSource | undefined): string {
  return config?.origin
    ? `Give ${argumentWhere(key.replace(/^mdb:/, ""), config.origin)}, or set the environment variable ${variable}`
    : `Set it with \`pulumi config set ${key} ${value}\` or the environment variable ${variable}`;
}

/** Stack config keys and environment variables, per setting. */
export const CONFIG_KEYS = {
  apiUrl: { config: "mdb:apiUrl", env: "MDB_API_URL" },
  publicKey: { config: "mdb:publicKey", env: "MDB_PUBLIC_KEY" },
  secretKey: { config: "mdb:secretKey", env: "MDB_SECRET_KEY" },
  projectId: { config: "mdb:projectId", env: "MDB_PROJECT_ID" },
} as const;

/** Raised when a required setting is missing; its message names the config key and variable. */
export class MissingConfigError extends Error {
  constructor(missing: Array<keyof typeof CONFIG_KEYS>) {
    const parts = missing.map((name) => `${name}: ${howToSet(name)}`);
    super(`pulumi-managed-db is not configured: ${parts.join("; ")}`);
    this.name = "MissingConfigError";
  }
}

function pick(name: keyof typeof CONFIG_KEYS, config: ConfigSource | undefined, env: NodeJS.ProcessEnv) {
  const fromConfig = config?.get(CONFIG_KEYS[name].config);
  if (fromConfig !== undefined && fromConfig !== "") return fromConfig;
  const fromEnv = env[CONFIG_KEYS[name].env];
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
}

/** `mdb:apiUrl / MDB_API_URL`: where a setting is given, as messages name it. */
export function settingName(name: keyof typeof CONFIG_KEYS): string {
  return `${CONFIG_KEYS[name].config} / ${CONFIG_KEYS[name].env}`;
}

/**
 * Where the value of setting `name` in use was given, as a message names it: `mdb:apiUrl /
 * MDB_API_URL` for the stack's config (or its variable); for an explicit provider's settings
 * (`config.origin`), `apiUrl in the arguments of provider prod` when they carry it, else `the
 * environment variable MDB_API_URL` (an explicit provider reads no stack config).
 */
export function settingWhere(name: keyof typeof CONFIG_KEYS, config?: ConfigSource): string {
  if (!config?.origin) return settingName(name);
  const given = config.get(CONFIG_KEYS[name].config);
  return given !== undefined && given !== ""
    ? argumentWhere(name, config.origin)
    : `the environment variable ${CONFIG_KEYS[name].env}`;
}

/** Where both halves of the API key were given, as a message names them ({@link settingWhere}). */
export function keySettingsWhere(config?: ConfigSource): string {
  const publicKey = settingWhere("publicKey", config);
  const secretKey = settingWhere("secretKey", config);
  return config?.origin &&
    publicKey === argumentWhere("publicKey", config.origin) &&
    secretKey === argumentWhere("secretKey", config.origin)
    ? argumentWhere("publicKey and secretKey", config.origin)
    : `${publicKey} and ${secretKey}`;
}

/** How to set `name`, for a message: the config command (with `--secret` for the secret key) or the variable. */
function howToSet(name: keyof typeof CONFIG_KEYS): string {
  const secret = name === "secretKey" ? " --secret" : "";
  return `set it with \`pulumi config set ${CONFIG_KEYS[name].config}${secret} <value>\` or the environment variable ${CONFIG_KEYS[name].env}`;
}

/**
 * What is wrong with the settings, one sentence per setting, each naming its config key and
 * environment variable: a missing API URL or key, an API URL that is not a URL, that is not
 * https (plain http:// is for a loopback host only) or that carries credentials, a transport
 * limit or wait limit that is not a whole number in its range, an adoption switch that is not
 * true or false. Empty when {@link resolveConfig} would build a working client and
 * {@link resolveAdoptExisting} read the switch. Pure: no API call.
 */
export function configProblems(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): string[] {
  const problems: string[] = [];
  for (const name of ["apiUrl", "publicKey", "secretKey"] as const) {
    if (pick(name, config, env) !== undefined) continue;
    problems.push(
      config?.origin
        ? `${name} is required: give it in ${config.origin}, or set the environment variable ${CONFIG_KEYS[name].env}`
        : `${CONFIG_KEYS[name].config} is required: ${howToSet(name)}`,
    );
  }
  const apiUrl = pick("apiUrl", config, env);
  if (apiUrl !== undefined) {
    try {
      normalizeBaseUrl(apiUrl);
    } catch (error) {
      problems.push(`${settingWhere("apiUrl", config)}: ${(error as Error).message}`);
    }
  }
  problems.push(...resolveTransportLimits(config, env).problems);
  problems.push(...resolveWaitLimits(config, env).problems);
  const adoption = readAdoptSwitch(config, env);
  if (typeof adoption === "string") problems.push(adoption);
  return problems;
}

/**
 * Resolves the provider settings from stack config, then the environment.
 * Throws {@link MissingConfigError} naming every missing setting, {@link InvalidConfigError}
 * for a transport or wait limit that is not usable.
 */
export function resolveConfig(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  const apiUrl = pick("apiUrl", config, env);
  const publicKey = pick("publicKey", config, env);
  const secretKey = pick("secretKey", config, env);
  const missing = (
    [
      ["apiUrl", apiUrl],
      ["publicKey", publicKey],
      ["secretKey", secretKey],
    ] as const
  )
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0) throw new MissingConfigError(missing);
  const transport = resolveTransportLimits(config, env);
  const waits = resolveWaitLimits(config, env);
  const problems = [...transport.problems, ...waits.problems];
  if (problems.length > 0) throw new InvalidConfigError(problems.join("; "));
  return {
    apiUrl: apiUrl as string,
    publicKey: publicKey as string,
    secretKey: secretKey as string,
    projectId: pick("projectId", config, env),
    ...(Object.keys(transport.limits).length > 0 ? { transport: transport.limits } : {}),
    ...(Object.keys(waits.limits).length > 0 ? { waits: waits.limits } : {}),
    ...(config?.origin ? { origin: config.origin } : {}),
  };
}

/** Stack config key and environment variable of the adoption switch (docs/recovery.md). */
export const ADOPT_EXISTING_KEYS = { config: "mdb:adoptExisting", env: "MDB_ADOPT_EXISTING" } as const;

/** Raised when a setting has a value it cannot take; its message names the config key and variable. */
export class InvalidConfigError extends Error {
  constructor(message: string) {
    super(`pulumi-managed-db is not configured correctly: ${message}`);
    this.name = "InvalidConfigError";
  }
}

/**
 * The adoption switch: `true` makes a create adopt an existing record of the same identity
 * even when the program named it (docs/recovery.md). Stack config `mdb:adoptExisting`, else
 * the environment's `MDB_ADOPT_EXISTING`; `true` or `false`, default false. Throws
 * {@link InvalidConfigError} naming both on any other value.
 */
export function resolveAdoptExisting(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): boolean {
  const adoption = readAdoptSwitch(config, env);
  if (typeof adoption === "string") throw new InvalidConfigError(adoption);
  return adoption;
}

/** The adoption switch as {@link resolveAdoptExisting} reads it, or the sentence of what is wrong with it. */
function readAdoptSwitch(config: ConfigSource | undefined, env: NodeJS.ProcessEnv): boolean | string {
  const fromConfig = config?.get(ADOPT_EXISTING_KEYS.config);
  const [source, value] =
    fromConfig !== undefined && fromConfig !== ""
      ? [givenAt(ADOPT_EXISTING_KEYS.config, config), fromConfig]
      : [`environment variable ${ADOPT_EXISTING_KEYS.env}`, env[ADOPT_EXISTING_KEYS.env] ?? ""];
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  return (
    `${source} is ${JSON.stringify(value)}; it must be true or false. ` +
    howToGive(ADOPT_EXISTING_KEYS.config, ADOPT_EXISTING_KEYS.env, "true|false", config)
  );
}

/**
 * Every stack config key the provider reads (`mdb:apiUrl`, ..., `mdb:adoptExisting`, the
 * transport limits and the wait limits): the settings of the native plugin `mdb` are exactly these.
 */
export const CONFIG_KEY_NAMES: readonly string[] = [
  ...Object.values(CONFIG_KEYS).map((k) => k.config),
  ADOPT_EXISTING_KEYS.config,
  ...[...TRANSPORT_SETTINGS, ...WAIT_SETTINGS].map(({ name }) => transportConfigKey(name)),
];

/**
 * One sentence per key of `keys` (full keys, `mdb:apiURL`) the provider does not read, naming
 * the closest one it does: a misspelt setting would otherwise be ignored without a word, and the
 * default or the environment used instead.
 */
export function unknownConfigKeys(keys: readonly string[]): string[] {
  return keys
    .filter((key) => !CONFIG_KEY_NAMES.includes(key))
    .map((key) => `${key} is not a setting of pulumi-managed-db${didYouMean(key, CONFIG_KEY_NAMES)}`);
}
