/**
 * Where the provider finds the API endpoint and credentials, and the adoption switch.
 * Precedence: a resource's own `projectId` input, then stack config (`mdb:*`), then the
 * environment (`MDB_*`). The project falls back to the key's own project, as `GET /auth/info`
 * reports it. Credentials are read at run time only; they are never resource inputs and never
 * in state.
 */
import { normalizeBaseUrl } from "./client/base-url";

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
}

/** A source of stack config values: `get("mdb:apiUrl")`. Pulumi's dynamic `Config` fits. */
export interface ConfigSource {
  get(key: string): string | undefined;
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

/** How to set `name`, for a message: the config command (with `--secret` for the secret key) or the variable. */
function howToSet(name: keyof typeof CONFIG_KEYS): string {
  const secret = name === "secretKey" ? " --secret" : "";
  return `set it with \`pulumi config set ${CONFIG_KEYS[name].config}${secret} <value>\` or the environment variable ${CONFIG_KEYS[name].env}`;
}

/**
 * What is wrong with the settings, one sentence per setting, each naming its config key and
 * environment variable: a missing API URL or key, an API URL that is not a URL, that is not
 * https (plain http:// is for a loopback host only) or that carries credentials. Empty when
 * {@link resolveConfig} would build a working client. Pure: no API call.
 */
export function configProblems(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): string[] {
  const problems: string[] = [];
  for (const name of ["apiUrl", "publicKey", "secretKey"] as const) {
    if (pick(name, config, env) === undefined)
      problems.push(`${CONFIG_KEYS[name].config} is required: ${howToSet(name)}`);
  }
  const apiUrl = pick("apiUrl", config, env);
  if (apiUrl !== undefined) {
    try {
      normalizeBaseUrl(apiUrl);
    } catch (error) {
      problems.push(`${settingName("apiUrl")}: ${(error as Error).message}`);
    }
  }
  return problems;
}

/**
 * Resolves the provider settings from stack config, then the environment.
 * Throws {@link MissingConfigError} naming every missing setting.
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
  return {
    apiUrl: apiUrl as string,
    publicKey: publicKey as string,
    secretKey: secretKey as string,
    projectId: pick("projectId", config, env),
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
  const fromConfig = config?.get(ADOPT_EXISTING_KEYS.config);
  const [source, value] =
    fromConfig !== undefined && fromConfig !== ""
      ? [`stack config ${ADOPT_EXISTING_KEYS.config}`, fromConfig]
      : [`environment variable ${ADOPT_EXISTING_KEYS.env}`, env[ADOPT_EXISTING_KEYS.env] ?? ""];
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  throw new InvalidConfigError(
    `${source} is ${JSON.stringify(value)}; it must be true or false. Set it with ` +
      `\`pulumi config set ${ADOPT_EXISTING_KEYS.config} true|false\` or the environment variable ` +
      `${ADOPT_EXISTING_KEYS.env}`,
  );
}
