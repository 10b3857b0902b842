/**
 * What the client suites share: the distinctive secrets they hunt for in error texts, clients of the
 * test emulator, the emulator's request log by path, and waits on services through the client.
 */
import { MdbApi } from "../../provider/client/api";
import { MdbApiError } from "../../provider/client/errors";
import type { HttpClientOptions } from "../../provider/client/http";
import type { ReadReplicaSet, Service } from "../../provider/client/schemas";
import type { TestEmulator } from "../helpers/emulator";

/** Distinctive, so that a leak into any error text cannot go unnoticed. */
export const SECRET_KEY = "sk-VERY-SECRET-123";
/** A password as distinctive as {@link SECRET_KEY}. */
export const PASSWORD = "pw-DISTINCTIVE-hunter2-456";
/** Retries 10 to 50 ms apart: fault tests stay fast. */
export const FAST_BACKOFF = { initialMs: 10, maxMs: 50 };

/** The emulator of a suite, its project and the client under test. */
export interface ClientBed {
  emu: TestEmulator;
  projectId: string;
  api: MdbApi;
}

/** Awaits `promise` and returns what it rejected with; fails the test if it resolved. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** Like {@link failure}, and the rejection is an {@link MdbApiError}. */
export async function apiFailure(promise: Promise<unknown>): Promise<MdbApiError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(MdbApiError);
  return error as MdbApiError;
}

/** "gone" once a get of the record answers 404; other failures fail the test. */
export async function presence(get: () => Promise<unknown>): Promise<"present" | "gone"> {
  try {
    await get();
    return "present";
  } catch (error) {
    if (error instanceof MdbApiError && error.status === 404) return "gone";
    throw error;
  }
}

/** The helpers of a suite, reading its bed through `bed()` (set in its beforeAll). */
export function clientHelpers(bed: () => ClientBed) {
  /** A client of the test emulator; `overrides` change any option (e.g. a wrong secret). */
  const newClient = (overrides: Partial<HttpClientOptions> = {}): MdbApi =>
    new MdbApi({
      baseUrl: bed().emu.url,
      publicKey: bed().emu.credentials.publicKey,
      secretKey: SECRET_KEY,
      backoff: FAST_BACKOFF,
      ...overrides,
    });

  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  /** The full path the request log shows for an API path below the project. */
  const loggedPath = (path: string) => `/public/api/v1/projects/${bed().projectId}${path}`;
  /** The regular expression of a fault rule matching exactly this API path. */
  const exactPath = (path: string) => `^${escape(loggedPath(path))}$`;

  /** The logged requests to one path, as `METHOD status` strings, in order. */
  async function logOf(method: string, path: string): Promise<string[]> {
    const log = await bed().emu.requests();
    return log
      .filter((r) => r.method === method && r.path === loggedPath(path))
      .map((r) => `${method} ${r.status}`);
  }

  /** Polls `probe` until `ok` holds (lifecycle steps last 30 ms here). */
  function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
    return bed().emu.waitFor(probe, ok, { what, intervalMs: 10, timeoutMs: 5000 });
  }

  function serviceInStatus(id: string, status: string): Promise<Service> {
    return until(
      () => bed().api.getService(bed().projectId, id),
      (s) => s.status === status,
      `service ${id} ${status}`,
    );
  }

  async function readyService(name = "db", environment: "PROD" | "DEV" = "DEV"): Promise<Service> {
    const created = await bed().api.createService(bed().projectId, {
      name,
      regionCode: "us-east-1",
      cpuMillis: 500,
      memoryGbs: 2,
      environmentTag: environment,
    });
    return serviceInStatus(created.service_id, "READY");
  }

  function replicaSetOf(serviceId: string, id: string): Promise<ReadReplicaSet | undefined> {
    return bed()
      .api.listReplicaSets(bed().projectId, serviceId)
      .then((sets) => sets.find((r) => r.id === id));
  }

  return { newClient, loggedPath, exactPath, logOf, until, serviceInStatus, readyService, replicaSetOf };
}
