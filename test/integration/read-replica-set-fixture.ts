/**
 * What the `ReadReplicaSet` integration suites share: an emulator over real HTTP, the provider
 * pointed at it, and before each test a fresh READY service made through the API, with helpers
 * to read its replica sets.
 */
import { TEST_TRANSITION_MS, type TestEmulator } from "../helpers/emulator";
import { drive, type Props, useProviderEmulator } from "../helpers/provider";
import { PROVIDERS } from "../../provider/host";

/** The provider functions under test. */
export const impl = PROVIDERS["read-replica-set"];

/** The emulator's secret key, which no error may quote. */
export const SECRET_KEY = "rrs-integration-secret-5be1c2";

/** The provider functions driven as the engine drives them. */
export const sets = drive(impl);

/** Path of the calls, as `recordCalls` writes them. */
export const SETS = "/projects/{project}/services/{service}/replicaSets";
/** Path of one set's calls, as `recordCalls` writes them. */
export const ONE = `${SETS}/{replicaSet}`;

/** A lifecycle step long enough for a wait of 50 ms to time out, short enough to wait for. */
export const SLOW_MS = 600;

/** A replica set as the API answers it (the fields the suites read). */
export interface SetRecord {
  id: string;
  name: string;
  status: string;
  nodes: number;
  cpu_millis: number;
  memory_gbs: number;
  metadata: { environment: string };
  connection_pooler?: { endpoint: { host: string; port: number } };
  error_message?: string;
}

/** The emulator, the READY service of the current test, and the path of its replica sets. */
export interface ReplicaSetFixture {
  emu: TestEmulator;
  serviceId: string;
  setsPath: string;
}

let current: ReplicaSetFixture | undefined;

/** The fixture of the running test; only inside a test or hook after {@link useReplicaSetFixture}. */
export function fixture(): ReplicaSetFixture {
  if (!current) throw new Error("useReplicaSetFixture() was not called in this suite");
  return current;
}

/**
 * Registers the suite's hooks: one emulator for the file, the provider pointed at it, and
 * before each test a reset emulator holding one READY service; faults cleared after each test.
 */
export function useReplicaSetFixture(): void {
  let emu: TestEmulator;
  useProviderEmulator({ secretKey: SECRET_KEY }, (started) => (emu = started));
  beforeEach(async () => {
    await emu.reset();
    await emu.setTransitionMs(TEST_TRANSITION_MS);
    const made = await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, {
      name: "primary",
    });
    expect(made.status).toBe(202);
    const serviceId = made.body.service_id;
    current = { emu, serviceId, setsPath: `${emu.projectPath}/services/${serviceId}/replicaSets` };
    await emu.waitFor(
      async () => (await emu.api<{ status: string }>("GET", `${emu.projectPath}/services/${serviceId}`)).body,
      (s) => s.status === "READY",
      { what: "service READY" },
    );
  });
  afterEach(() => emu.setFaults({}));
}

/** Inputs of a set named `readers` of the current service, with `extra` over them. */
export function readers(extra: Props = {}): Props {
  return {
    serviceId: fixture().serviceId,
    name: "readers",
    nodes: 1,
    cpuMillis: 500,
    memoryGbs: 2,
    ...extra,
  };
}

/** The current service's replica sets, as the API lists them. */
export async function listSets(): Promise<SetRecord[]> {
  const { emu, setsPath } = fixture();
  const response = await emu.api<SetRecord[]>("GET", setsPath);
  expect(response.status).toBe(200);
  return response.body;
}

/** The current service's one replica set (fails unless there is exactly one). */
export async function only(): Promise<SetRecord> {
  const all = await listSets();
  expect(all).toHaveLength(1);
  return all[0];
}

/** Waits until the set `name` exists in the API (a create in progress has sent its POST). */
export function appeared(name: string): Promise<SetRecord | undefined> {
  return fixture().emu.waitFor(
    async () => (await listSets()).find((r) => r.name === name),
    (r) => r !== undefined,
    { what: `replica set ${name} to exist` },
  );
}
