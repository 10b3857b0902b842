/**
 * State of a process that calls the API: the provider host (configuration handed over by the
 * dynamic provider's `configure` hook) and a program using the functions (its stack config).
 * Holds the client built from the settings and the project a call is about. Never in state.
 */
import type { MdbApi } from "./client/api";
import { ConfigSource, ProviderConfig, resolveAdoptExisting, resolveConfig } from "./config";

/** A client built from resolved settings, and the project calls default to. */
export class ApiSession {
  /** The API client. */
  readonly api: MdbApi;
  private keyProject?: Promise<string>;

  constructor(
    /** The settings the client was built from. */
    readonly config: ProviderConfig,
  ) {
    // Loaded here, not at the top: a program that only declares resources never needs the
    // HTTP client (axios), and does not pay for loading it.
    const { MdbApi: Api } = require("./client/api") as typeof import("./client/api");
    this.api = new Api({
      baseUrl: config.apiUrl,
      publicKey: config.publicKey,
      secretKey: config.secretKey,
    });
  }

  /**
   * The project of a call: `own` when given, else `mdb:projectId` / `MDB_PROJECT_ID`, else the
   * project the API key belongs to (asked once, `GET /auth/info`; asked again after a failure).
   */
  async projectId(own?: string): Promise<string> {
    if (own) return own;
    if (this.config.projectId) return this.config.projectId;
    this.keyProject ??= this.api.getAuthInfo().then((info) => info.apiKey.project.id);
    try {
      return await this.keyProject;
    } catch (error) {
      this.keyProject = undefined;
      throw error;
    }
  }
}

let stackConfig: ConfigSource | undefined;
let session: ApiSession | undefined;

/** Keeps the stack config given by the dynamic provider's `configure` hook. */
export function configureRuntime(config: ConfigSource | undefined): void {
  stackConfig = config;
  session = undefined;
}

/** The stack config the `configure` hook gave (undefined outside the provider host): for checks of it. */
export function stackConfigSource(): ConfigSource | undefined {
  return stackConfig;
}

function providerSession(): ApiSession {
  if (!session) {
    // A bad adoption switch fails every operation, as a missing setting does.
    resolveAdoptExisting(stackConfig);
    session = new ApiSession(resolveConfig(stackConfig));
  }
  return session;
}

/** Whether creates adopt existing records of the same identity (`mdb:adoptExisting`, `MDB_ADOPT_EXISTING`). */
export function adoptExisting(): boolean {
  return resolveAdoptExisting(stackConfig);
}

/** The API client of the provider process, built once from stack config and the environment. */
export function getApi(): MdbApi {
  return providerSession().api;
}

/**
 * The project of a resource: its own `projectId` input, else `mdb:projectId` /
 * `MDB_PROJECT_ID`, else the project the API key belongs to (see {@link ApiSession.projectId}).
 */
export function resolveProjectId(own?: string): Promise<string> {
  return providerSession().projectId(own);
}

/**
 * Reports progress of a long wait to the person running Pulumi. The dynamic provider host
 * forwards its stderr to the engine's log, so a line there is the portable channel.
 */
export function progress(message: string): void {
  process.stderr.write(`[mdb] ${message}\n`);
}
