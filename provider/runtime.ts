/**
 * State of the provider process: the configuration handed over by the dynamic provider's
 * `configure` hook, the API client built from it, and the project a resource lives in.
 * Lives in the process that runs the provider (Pulumi's dynamic provider host), never in state.
 */
import { MdbApi } from "./client/api";
import { ConfigSource, ProviderConfig, resolveConfig } from "./config";

let stackConfig: ConfigSource | undefined;
let client: { api: MdbApi; config: ProviderConfig } | undefined;
let keyProject: Promise<string> | undefined;

/** Keeps the stack config given by the dynamic provider's `configure` hook. */
export function configureRuntime(config: ConfigSource | undefined): void {
  stackConfig = config;
  client = undefined;
  keyProject = undefined;
}

/** The API client of this process, built once from stack config and the environment. */
export function getApi(): MdbApi {
  return getClient().api;
}

function getClient(): { api: MdbApi; config: ProviderConfig } {
  if (!client) {
    const config = resolveConfig(stackConfig);
    client = {
      config,
      api: new MdbApi({ baseUrl: config.apiUrl, publicKey: config.publicKey, secretKey: config.secretKey }),
    };
  }
  return client;
}

/**
 * The project of a resource: its own `projectId` input, else `mdb:projectId` /
 * `MDB_PROJECT_ID`, else the project the API key belongs to (asked once, `GET /auth/info`).
 */
export async function resolveProjectId(own?: string): Promise<string> {
  if (own) return own;
  const { config, api } = getClient();
  if (config.projectId) return config.projectId;
  keyProject ??= api.getAuthInfo().then((info) => info.apiKey.project.id);
  try {
    return await keyProject;
  } catch (error) {
    keyProject = undefined;
    throw error;
  }
}

/**
 * Reports progress of a long wait to the person running Pulumi. The dynamic provider host
 * forwards its stderr to the engine's log, so a line there is the portable channel.
 */
export function progress(message: string): void {
  process.stderr.write(`[mdb] ${message}\n`);
}
