/**
 * Test helpers shared by every suite: an emulator started in-process on a free port with short
 * transitions, driven over real HTTP with plain `fetch` (API and admin routes alike), and a
 * polling `waitFor`.
 */
import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator";
import type { FaultConfig, FaultConfigInput, LoggedRequest } from "../../emulator";

/** Duration of each lifecycle step in tests, in ms: short, so waiting for READY costs little. */
export const TEST_TRANSITION_MS = 30;
/**
 * A step long enough that a test can observe an intermediate state (CONFIGURING, PAUSING, ...)
 * with a request of its own, even on a loaded machine. See `withTransitionMs`.
 */
export const OBSERVABLE_TRANSITION_MS = 400;

/** The accepted key of a test emulator, and the ready-made Authorization header for it. */
export interface TestCredentials {
  publicKey: string;
  secretKey: string;
  projectId: string;
  /** `Basic base64(public:secret)`. */
  authorization: string;
}

/** An answer of the emulator: status, headers, raw text and the JSON body (undefined when empty). */
export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** Options of one call: `auth` replaces the Authorization header (`null`: send none). */
export interface CallOptions {
  auth?: string | null;
  /** Raw body text, sent as is with Content-Type application/json (for malformed JSON). */
  rawBody?: string;
}

/** Options of `waitFor`. */
export interface WaitOptions {
  /** Give up after this many ms. Default 5000. */
  timeoutMs?: number;
  /** Pause between probes, in ms. Default 10. */
  intervalMs?: number;
  /** What is awaited, for the timeout message. */
  what?: string;
}

/** A started test emulator. */
export interface TestEmulator {
  /** Base URL of the API (`.../public/api/v1`). */
  url: string;
  /** Scheme, host and port (admin routes live under `${origin}/_emulator`). */
  origin: string;
  credentials: TestCredentials;
  /** `/projects/<the key's project>`: prefix of the project routes. */
  projectPath: string;
  /** The in-process handle, for checks HTTP cannot make (e.g. the stored password). */
  emulator: Emulator;
  /** Calls the API: `path` is relative to `url`; answers are parsed, never thrown. */
  api<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    options?: CallOptions,
  ): Promise<TestResponse<T>>;
  /** Calls an admin route: `path` is relative to `${origin}/_emulator`. */
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<TestResponse<T>>;
  /** The request log (`GET /_emulator/requests`). */
  requests(): Promise<LoggedRequest[]>;
  /** Empties the request log. */
  clearRequests(): Promise<void>;
  /** Replaces the fault configuration (`PUT /_emulator/faults`). */
  setFaults(config: FaultConfigInput): Promise<FaultConfig>;
  /** Sets the duration of each lifecycle step (`PUT /_emulator/settings`). */
  setTransitionMs(transitionMs: number): Promise<void>;
  /**
   * Runs `action` with each lifecycle step lasting `transitionMs` (default `OBSERVABLE_TRANSITION_MS`),
   * then restores the previous duration. Steps keep the duration they were scheduled with, so the
   * states `action` starts stay observable while everything else stays fast.
   */
  withTransitionMs<T>(action: () => Promise<T>, transitionMs?: number): Promise<T>;
  /** Drops all records, the log and the faults (`POST /_emulator/reset`). */
  reset(): Promise<void>;
  /** Polls `probe` until `until` holds for its value (see `waitFor`). */
  waitFor: typeof waitFor;
  /** Stops the emulator. */
  close(): Promise<void>;
}

/** One sure fault of {@link randomFaults}. */
type FaultRuleInput = NonNullable<FaultConfigInput["rules"]>[number];

/**
 * Faults for a convergence test: 20 % of requests answered 429, 500 or 503 (a 429 with
 * `Retry-After: 0`), plus `rules`, sure faults that make every run meet at least one.
 */
export function randomFaults(...rules: FaultRuleInput[]): FaultConfigInput {
  return { rate: 0.2, statuses: [429, 500, 503], retryAfterSeconds: 0, rules };
}

/** `Basic base64(public:secret)`. */
export function basicAuth(publicKey: string, secretKey: string): string {
  return `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString("base64")}`;
}

/** Plain fetch with JSON in and out; the body is parsed when there is one. */
export async function request<T = unknown>(
  url: string,
  method: string,
  authorization: string | null,
  body?: unknown,
  rawBody?: string,
): Promise<TestResponse<T>> {
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.authorization = authorization;
  const payload = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(url, { method, headers, body: payload });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}

/**
 * Calls `probe` every `intervalMs` until `until(value)` holds, and returns that value; fails after
 * `timeoutMs` with the last value seen.
 */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  until: (value: T) => boolean,
  { timeoutMs = 5000, intervalMs = 10, what = "condition" }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (until(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(value)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Starts an emulator in-process on a free loopback port with `TEST_TRANSITION_MS` transitions. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ port: 0, transitionMs: TEST_TRANSITION_MS, ...options });
  const { publicKey, secretKey, projectId } = emulator.credentials;
  const authorization = basicAuth(publicKey, secretKey);

  const admin = <T>(method: string, path: string, body?: unknown) =>
    request<T>(`${emulator.origin}/_emulator${path}`, method, authorization, body);
  const expectStatus = (response: TestResponse, status: number, what: string): void => {
    if (response.status !== status) throw new Error(`${what}: HTTP ${response.status} ${response.text}`);
  };

  return {
    url: emulator.url,
    origin: emulator.origin,
    credentials: { publicKey, secretKey, projectId, authorization },
    projectPath: `/projects/${projectId}`,
    emulator,
    api: (method, path, body, options = {}) =>
      request(
        `${emulator.url}${path}`,
        method,
        options.auth === undefined ? authorization : options.auth,
        body,
        options.rawBody,
      ),
    admin,
    requests: async () => {
      const response = await admin<LoggedRequest[]>("GET", "/requests");
      expectStatus(response, 200, "GET /_emulator/requests");
      return response.body;
    },
    clearRequests: async () =>
      expectStatus(await admin("DELETE", "/requests"), 204, "DELETE /_emulator/requests"),
    setFaults: async (config) => {
      const response = await admin<FaultConfig>("PUT", "/faults", config);
      expectStatus(response, 200, "PUT /_emulator/faults");
      return response.body;
    },
    setTransitionMs: async (transitionMs) =>
      expectStatus(await admin("PUT", "/settings", { transitionMs }), 200, "PUT /_emulator/settings"),
    withTransitionMs: async (action, transitionMs = OBSERVABLE_TRANSITION_MS) => {
      const previous = emulator.model.transitionMs;
      expectStatus(await admin("PUT", "/settings", { transitionMs }), 200, "PUT /_emulator/settings");
      try {
        return await action();
      } finally {
        expectStatus(
          await admin("PUT", "/settings", { transitionMs: previous }),
          200,
          "PUT /_emulator/settings",
        );
      }
    },
    reset: async () => expectStatus(await admin("POST", "/reset"), 204, "POST /_emulator/reset"),
    waitFor,
    close: () => emulator.close(),
  };
}
