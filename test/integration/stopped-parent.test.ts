/**
 * A new resource whose create needs a running service (a read replica set on it, a fork of it),
 * against an emulator over real HTTP: when the service is stopped or stopping and no update of
 * this run starts it, or this run's update stops it, check fails naming the property (so a
 * preview says it before anything is made, not `up` half-way through); an update of this run
 * that starts it lets the check pass. A fork's create looks again and refuses with the same words
 * before it sends anything (the API would answer 409).
 */
import { type TestEmulator, waitFor } from "../helpers/emulator";
import {
  CheckFailedError,
  drive,
  errorOf,
  recordCalls,
  type Props,
  type ResourceState,
  useProviderEmulator,
} from "../helpers/provider";
import { PROVIDERS } from "../../provider/host";

let emu: TestEmulator;
useProviderEmulator({}, (started) => (emu = started));
// What the provider host does before the first check: checks then look at the API.
beforeAll(() => PROVIDERS.service.configure?.({ config: { get: () => undefined } } as never));

const services = drive(PROVIDERS.service);
const sets = drive(PROVIDERS["read-replica-set"]);
const BASE: Props = { serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4 };
const SET: Props = { name: "reads", nodes: 1, cpuMillis: 1000, memoryGbs: 4 };
const NEEDS_RUNNING = "a read replica set needs a running service (set paused: false on it)";
const FORK_NEEDS_RUNNING = "the API forks a running service only (set paused: false on it)";

/** A service made through the provider, as an earlier `up` left it. */
function service(name: string, paused: boolean): Promise<ResourceState> {
  return services.create({ ...BASE, name, paused });
}

/** The failures of checking `news` with `driver`, as `property: reason`; empty when it passes. */
async function failuresOf(driver: typeof sets, news: Props): Promise<string[]> {
  try {
    await driver.check(news);
    return [];
  } catch (error) {
    if (!(error instanceof CheckFailedError)) throw error;
    return error.failures.map((f) => `${f.property}: ${f.reason}`);
  }
}

/** A new fork of `serviceId`. */
function forkOf(serviceId: string): Props {
  return { ...BASE, name: "copy", forkFrom: { serviceId, strategy: "NOW" } };
}

describe("a read replica set of a stopped service", () => {
  it("fails check naming serviceId, when nothing in this run starts the service", async () => {
    const db = await service("stopped-db", true);
    expect(await failuresOf(sets, { ...SET, serviceId: db.id })).toEqual([
      `serviceId: service ${db.id} is PAUSED and this program does not start it; ${NEEDS_RUNNING}`,
    ]);
  });

  it("passes when this run's update of the service starts it (paused: true → false)", async () => {
    const db = await service("starting-db", true);
    const { diff } = await services.diff(db, { ...BASE, name: "starting-db", paused: false });
    expect(diff.changes).toBe(true);
    expect(await failuresOf(sets, { ...SET, serviceId: db.id })).toEqual([]);
  });

  it("fails check when this run's update of the service stops it", async () => {
    const db = await service("stopping-db", false);
    await services.diff(db, { ...BASE, name: "stopping-db", paused: true });
    expect(await failuresOf(sets, { ...SET, serviceId: db.id })).toEqual([
      `serviceId: this program stops service ${db.id} (paused: true); ${NEEDS_RUNNING}`,
    ]);
  });

  it("fails check while the service is stopping outside this program (PAUSING)", async () => {
    // Made outside this run: the run has no record of it as its own create left it.
    const body = { name: "pausing-db", region_code: "us-east-1", cpu_millis: "500", memory_gbs: "2" };
    const made = await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, body);
    const id = made.body.service_id;
    const path = `${emu.projectPath}/services/${id}`;
    await waitFor(
      () => emu.api<{ status: string }>("GET", path),
      (r) => r.body.status === "READY",
    );
    await emu.withTransitionMs(async () => {
      expect((await emu.api("POST", `${path}/stop`)).status).toBe(202);
      expect(await failuresOf(sets, { ...SET, serviceId: id })).toEqual([
        `serviceId: service ${id} is PAUSING and this program does not start it; ${NEEDS_RUNNING}`,
      ]);
    });
  });
});

describe("a fork of a stopped service", () => {
  it("fails check naming forkFrom.serviceId, and passes once this run's update starts it", async () => {
    const source = await service("stopped-source", true);
    expect(await failuresOf(services, forkOf(source.id))).toEqual([
      `: property forkFrom.serviceId service ${source.id} is PAUSED and this program does not start it; ` +
        FORK_NEEDS_RUNNING,
    ]);
    await services.diff(source, { ...BASE, name: "stopped-source", paused: false });
    expect(await failuresOf(services, forkOf(source.id))).toEqual([]);
  });

  it("create looks again before forking: a stopped source is refused with no call that changes anything", async () => {
    const source = await service("stopped-source-2", true);
    const inputs = { __provider: "p", ...forkOf(source.id) };
    const { result: error, calls } = await recordCalls(emu, () => errorOf(PROVIDERS.service.create(inputs)));
    expect(error.message).toBe(
      `cannot create service copy: forkFrom.serviceId: service ${source.id} is PAUSED and this program does ` +
        `not start it; ${FORK_NEEDS_RUNNING}`,
    );
    expect(calls).toEqual([]);
  });
});
