/**
 * What the kit's provider functions work with, handed to them rather than read from module
 * state: a {@link Runtime} gives each call its client, project resolution, progress channel and
 * clock. In the provider host it is the process's (`../runtime.ts`); a test builds its own.
 */
import type { MdbApi } from "../client/api";
import type { ConfigSource } from "../config";
import type { RunHolds } from "./lifecycle/holds";

/** The time, and a way to wait. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds, or as soon as `signal` aborts (the caller looks at it). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The machine's clock. */
export const REAL_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
    }),
};

/** The API session of a call: built from the settings, so it throws on a bad configuration. */
export interface Session {
  /** The API client. */
  api: MdbApi;
  /**
   * The project of a resource: `own` when given, else the configured one, else the key's, asked
   * through `via` when given (a view of {@link api} held to the run's cancellation, whose retries
   * are said: `api-view.ts`).
   */
  projectId(own?: string, via?: MdbApi): Promise<string>;
  /**
   * The project the API key belongs to (`GET /auth/info`, asked once, through `via` when given;
   * asked again after a failure).
   */
  keyProjectId(via?: MdbApi): Promise<string>;
  /** Whether creates adopt existing records of the same identity (`mdb:adoptExisting`). */
  adoptExisting: boolean;
  /**
   * How long a wait bears a status it does not expect before it fails, in ms
   * (`mdb:unexpectedStatusMs`, `wait-limits.ts`); absent: the default.
   */
  unexpectedStatusMs?: number;
  /**
   * Where the settings were given when not in stack config, as messages name them: an explicit
   * provider's arguments (`the arguments of provider prod`); absent: stack config.
   */
  settingsOrigin?: string;
}

/** Where the provider functions of a process get what they work with. */
export interface Runtime {
  /** Keeps the stack config the dynamic provider's `configure` hook hands over. */
  configure(config: ConfigSource | undefined): void;
  /** The stack config `configure` kept; undefined outside the provider host. */
  configSource(): ConfigSource | undefined;
  /** True once the provider host configured the provider: check may then ask the API (`preflight.ts`). */
  liveChecks(): boolean;
  /** Lets check ask the API from now on (the provider host's `configure` hook calls it). */
  enableLiveChecks(): void;
  /** The session of the current settings. */
  session(): Session;
  /**
   * The ids the resources of this run hold (`holds.ts`): the provider host's process serves one
   * run, from the `configure` hook on. Undefined (or absent) in a process no host configured.
   */
  holds?(): RunHolds | undefined;
  /**
   * True when a refresh calls the provider's diff after its read (Pulumi's engine does, unless its
   * legacy switch is set): the kit words that diff's line as the refresh's. Absent: it does.
   */
  refreshCallsDiff?(): boolean;
  /** Reports progress to the person running Pulumi. */
  log(message: string): void;
  /** Time and sleep. */
  clock: Clock;
  /**
   * Aborted once the run is cancelled (Ctrl-C: the engine's Cancel reached the provider): waits
   * end and nothing new is started. Absent: the run cannot be cancelled.
   */
  readonly cancellation?: AbortSignal;
  /** Cancels the run (see {@link cancellation}); each face calls it when the engine says so. */
  cancel?(): void;
}

/**
 * What an adapter hands the kit with each call about one resource: which resource it is, where
 * its progress goes, and the time limit the program set. The dynamic face reads these from its
 * hidden inputs; the plugin from the engine's request (its URN and timeout).
 */
export interface CallContext {
  /** The program's name of the resource (`db`); undefined when nothing says (states of 0.1.0). */
  name?: string;
  /** Reports progress of this call to the person running Pulumi. */
  log(message: string): void;
  /** Time limit of this create, update or delete, in ms (`customTimeouts`); absent: the default. */
  timeoutMs?: number;
  /**
   * Inputs the program gave as secrets (the plugin gets them as such; the dynamic face cannot
   * tell): check never prints their values (see `fields/check.ts`, `withoutPrintedValues`).
   */
  secretInputs?: ReadonlySet<string>;
  /**
   * The program adopts an existing record with the `import` option (on the dynamic face, whose
   * create adopts it; the plugin's engine reads it first): check asks nothing of its identity.
   */
  importing?: boolean;
  /**
   * The program may be in any Pulumi language (the plugin): advice names resource options as
   * every language reads them. Absent: a TypeScript or JavaScript program (the dynamic classes).
   */
  anyLanguage?: boolean;
}
