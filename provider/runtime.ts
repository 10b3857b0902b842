/**
 * The runtime of a process that calls the API: the provider host (configuration handed over by
 * the dynamic provider's `configure` hook) and a program using the functions (its stack
 * config). Holds the client built from the settings and the project a call is about. Never in
 * state. The kit receives it as a {@link Runtime} (`kit/context.ts`).
 */
import type { MdbApi } from "./client/api";
import { ConfigSource, ProviderConfig, resolveAdoptExisting, resolveConfig } from "./config";
import { type Clock, REAL_CLOCK, type Runtime, type Session } from "./kit/context";
import { RunHolds } from "./kit/lifecycle/holds";
import { refreshCallsDiff } from "./pulumi-contract/refresh-diff";

/** A client built from resolved settings, and the project calls default to. */
export class ApiSession implements Session {
  /** The API client. */
  readonly api: MdbApi;
  private keyProject?: Promise<string>;

  constructor(
    /** The settings the client was built from. */
    readonly config: ProviderConfig,
    /** Reads the adoption switch (each time: a test may change the environment). Default: off. */
    private readonly adoptSwitch: () => boolean = () => false,
  ) {
    // Loaded here, not at the top: a program that only declares resources never needs the
    // HTTP client (axios), and does not pay for loading it.
    const { MdbApi: Api } = require("./client/api") as typeof import("./client/api");
    this.api = new Api({
      ...config.transport,
      baseUrl: config.apiUrl,
      publicKey: config.publicKey,
      secretKey: config.secretKey,
      settingsOrigin: config.origin,
    });
  }

  /** Whether creates adopt existing records of the same identity (`mdb:adoptExisting`). */
  get adoptExisting(): boolean {
    return this.adoptSwitch();
  }

  /** How long a wait bears a status it does not expect (`mdb:unexpectedStatusMs`); undefined: the default. */
  get unexpectedStatusMs(): number | undefined {
    return this.config.waits?.unexpectedStatusMs;
  }

  /** Where the settings were given when not in stack config: an explicit provider's arguments. */
  get settingsOrigin(): string | undefined {
    return this.config.origin;
  }

  /**
   * The project of a call: `own` when given, else `mdb:projectId` / `MDB_PROJECT_ID`, else the
   * project the API key belongs to (asked once, `GET /auth/info`, through `via` when given;
   * asked again after a failure).
   */
  async projectId(own?: string, via?: MdbApi): Promise<string> {
    if (own) return own;
    if (this.config.projectId) return this.config.projectId;
    return this.keyProjectId(via);
  }

  /**
   * The project the API key belongs to, asked once (`GET /auth/info`, through `via` when given:
   * the view of the call that asked first); asked again after a failure.
   */
  async keyProjectId(via: MdbApi = this.api): Promise<string> {
    this.keyProject ??= via.getAuthInfo().then((info) => info.apiKey.project.id);
    try {
      return await this.keyProject;
    } catch (error) {
      this.keyProject = undefined;
      throw error;
    }
  }
}

/** A progress line as the person running Pulumi reads it, in either face: `[mdb] db: ...`. */
export function progressLine(message: string): string {
  return `[mdb] ${message}`;
}

/**
 * Reports progress of a long wait to the person running Pulumi. The dynamic provider host
 * forwards its stderr to the engine's log, so a line there is the portable channel.
 */
export function progress(message: string): void {
  process.stderr.write(`${progressLine(message)}\n`);
}

/**
 * A runtime whose settings come from the stack config `configure` keeps, else the environment:
 * the process's ({@link PROCESS_RUNTIME}), or a test's own, with its own progress channel and
 * clock.
 */
export class ConfigRuntime implements Runtime {
  private stackConfig: ConfigSource | undefined;
  private live = false;
  private current: ApiSession | undefined;
  private run: RunHolds | undefined;
  private readonly aborter = new AbortController();

  constructor(
    /** Where progress lines go. Default: this process's stderr, which Pulumi shows. */
    readonly log: (message: string) => void = progress,
    /** Time and sleep. */
    readonly clock: Clock = REAL_CLOCK,
  ) {}

  configure(config: ConfigSource | undefined): void {
    this.stackConfig = config;
    this.current = undefined;
  }

  configSource(): ConfigSource | undefined {
    return this.stackConfig;
  }

  liveChecks(): boolean {
    return this.live;
  }

  enableLiveChecks(): void {
    this.live = true;
    // The host configures each kind's provider once: the run starts at the first.
    this.run ??= new RunHolds();
  }

  holds(): RunHolds | undefined {
    return this.run;
  }

  refreshCallsDiff(): boolean {
    return refreshCallsDiff();
  }

  get cancellation(): AbortSignal {
    return this.aborter.signal;
  }

  cancel(): void {
    this.aborter.abort(new Error("the run was cancelled"));
  }

  session(): ApiSession {
    // A bad adoption switch fails every operation, as a missing setting does.
    if (!this.current) {
      const config = this.stackConfig;
      resolveAdoptExisting(config);
      this.current = new ApiSession(resolveConfig(config), () => resolveAdoptExisting(config));
    }
    return this.current;
  }
}

/** The runtime of this process, which the resources' providers are built with. */
export const PROCESS_RUNTIME: Runtime = new ConfigRuntime();

/** Keeps the stack config given by the dynamic provider's `configure` hook. */
export function configureRuntime(config: ConfigSource | undefined): void {
  PROCESS_RUNTIME.configure(config);
}

/** The API client of the provider process, built once from stack config and the environment. */
export function getApi(): MdbApi {
  return PROCESS_RUNTIME.session().api;
}
