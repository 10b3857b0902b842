/**
 * `finalFork` of `Service` against an emulator over real HTTP: a delete first forks the last
 * snapshot (named `<name>-final-<id>` unless named), waits until the fork is READY, prints its
 * id, then deletes, leaving exactly the fork; the fork's options are sent; a paused service is
 * started to be forked; a delete that failed half-way (the fork's answer lost, or its wait
 * timed out) runs again without making a second fork.
 */
import { PROVIDERS } from "../../provider/host";
import type { TestEmulator } from "../helpers/emulator";
import {
  drive,
  errorOf,
  progressLines,
  recordCalls,
  type Props,
  useProviderEmulator,
} from "../helpers/provider";

let emu: TestEmulator;
const services = drive(PROVIDERS.service);

useProviderEmulator({}, (started) => (emu = started));
beforeEach(async () => {
  await emu.reset();
  progressLines.length = 0;
});

const BASE: Props = {
  name: "orders",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
};

interface ServiceRecord {
  service_id: string;
  name: string;
  status: string;
  forked_from?: { service_id?: string } | null;
  resources: Array<{ spec: { cpu_millis: number; memory_gbs: number } }>;
}

async function listServices(): Promise<ServiceRecord[]> {
  return (await emu.api<ServiceRecord[]>("GET", `${emu.projectPath}/services`)).body;
}

const FORK = "POST /projects/{project}/services/{service}/forkService";
const DELETE = "DELETE /projects/{project}/services/{service}";

it("forks the last snapshot, waits until READY, prints the fork's id, then deletes: only the fork is left", async () => {
  const state = await services.create({ ...BASE, finalFork: true });
  expect(state.outs.finalFork).toBe(true);
  const { calls } = await recordCalls(emu, () => services.delete(state));
  expect(calls).toEqual([FORK, DELETE]);
  const left = await listServices();
  expect(left).toHaveLength(1);
  expect(left[0]).toMatchObject({
    name: `orders-final-${state.id}`,
    status: "READY",
    forked_from: { service_id: state.id },
  });
  expect(left[0].resources[0].spec).toEqual(expect.objectContaining({ cpu_millis: 1000, memory_gbs: 4 }));
  const announced = progressLines.filter((l) => l.includes(`final fork ${left[0].service_id} `));
  expect(announced).toEqual([expect.stringMatching(/READY; it is not part of the stack/)]);
});

it("sends the fork's name and sizes when given", async () => {
  const state = await services.create({
    ...BASE,
    finalFork: { name: "orders-archive", cpuMillis: 500, memoryGbs: 2 },
  });
  await services.delete(state);
  const [fork] = await listServices();
  expect(fork).toMatchObject({ name: "orders-archive", forked_from: { service_id: state.id } });
  expect(fork.resources[0].spec).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });
});

it("without finalFork, deletes with no fork", async () => {
  const state = await services.create(BASE);
  const { calls } = await recordCalls(emu, () => services.delete(state));
  expect(calls).toEqual([DELETE]);
  expect(await listServices()).toEqual([]);
});

it("starts a paused service to fork it", async () => {
  const state = await services.create({ ...BASE, paused: true, finalFork: true });
  const { calls } = await recordCalls(emu, () => services.delete(state));
  expect(calls).toEqual(["POST /projects/{project}/services/{service}/start", FORK, DELETE]);
  expect((await listServices()).map((s) => s.forked_from?.service_id)).toEqual([state.id]);
});

it("after the fork's answer was lost, the next delete finds the fork instead of making a second", async () => {
  const state = await services.create({ ...BASE, finalFork: true });
  await emu.setFaults({ rules: [{ method: "POST", path: "/forkService$", drop: true, after: true }] });
  await errorOf(services.delete(state));
  await emu.setFaults({});
  expect((await listServices()).map((s) => s.service_id)).toContain(state.id);
  const { calls } = await recordCalls(emu, () => services.delete(state));
  expect(calls).toEqual([DELETE]);
  const left = await listServices();
  expect(left).toHaveLength(1);
  expect(left[0].forked_from?.service_id).toBe(state.id);
});

it("after the wait for the fork timed out, the next delete waits for that fork and deletes", async () => {
  const state = await services.create({ ...BASE, finalFork: true });
  const error = await emu.withTransitionMs(() =>
    errorOf(services.delete({ ...state, outs: { ...state.outs, __timeouts: { delete: 150 } } })),
  );
  expect(error.message).toMatch(/to be READY/);
  // No delete was sent: the advice says what is left and what to do.
  expect(error.message).toMatch(
    new RegExp(
      `customTimeouts resource option\\. service ${state.id} stays in the stack; the API has not accepted its ` +
        "delete\\. Run the command again to finish the delete\\.$",
    ),
  );
  const { calls } = await recordCalls(emu, () => services.delete(state));
  expect(calls).toEqual([DELETE]);
  expect((await listServices()).map((s) => s.forked_from?.service_id)).toEqual([state.id]);
});

it("a service already gone is not forked (the delete's 404 means done)", async () => {
  const state = await services.create({ ...BASE, finalFork: true });
  await emu.api("DELETE", `${emu.projectPath}/services/${state.id}`);
  await emu.waitFor(listServices, (list) => list.length === 0, { what: "service gone" });
  const { calls } = await recordCalls(emu, () => services.delete(state));
  expect(calls).toEqual([DELETE]);
  expect(await listServices()).toEqual([]);
});

describe("a fixed finalFork.name already held by an earlier final fork", () => {
  const archive = { ...BASE, finalFork: { name: "orders-final" } };

  it("names the second fork <name>-<service id>, says so, and every name stays unique (a lookup by name works)", async () => {
    const first = await services.create(archive);
    await services.delete(first);
    const second = await services.create(archive);
    progressLines.length = 0;
    const { calls } = await recordCalls(emu, () => services.delete(second));
    expect(calls).toEqual([FORK, DELETE]);
    const left = await listServices();
    expect(left.map((s) => [s.name, s.forked_from?.service_id]).sort()).toEqual(
      [
        ["orders-final", first.id],
        [`orders-final-${second.id}`, second.id],
      ].sort(),
    );
    expect(progressLines).toContainEqual(
      expect.stringMatching(
        new RegExp(`is already named "orders-final" .*this final fork is named "orders-final-${second.id}"`),
      ),
    );
    const { getService } = await import("../../provider/functions");
    expect((await getService({ name: "orders-final" })).forkFrom?.serviceId).toBe(first.id);
    expect((await getService({ name: `orders-final-${second.id}` })).forkFrom?.serviceId).toBe(second.id);
  });

  it("a delete that failed after that fork runs again without a second one", async () => {
    const first = await services.create(archive);
    await services.delete(first);
    const second = await services.create(archive);
    await emu.setFaults({
      rules: [{ method: "DELETE", path: `/services/${second.id}$`, status: 400, count: 10 }],
    });
    await errorOf(services.delete(second));
    await emu.setFaults({});
    const { calls } = await recordCalls(emu, () => services.delete(second));
    expect(calls).toEqual([DELETE]);
    expect((await listServices()).map((s) => s.name).sort()).toEqual(
      ["orders-final", `orders-final-${second.id}`].sort(),
    );
  });

  it("when <name>-<service id> is held too, refuses before forking or deleting anything", async () => {
    const first = await services.create(archive);
    await services.delete(first);
    const second = await services.create(archive);
    await services.create({ ...BASE, name: `orders-final-${second.id}` });
    const { calls, result } = await recordCalls(emu, () => errorOf(services.delete(second)));
    expect(result.message).toMatch(
      /cannot take its final fork: services named "orders-final" \(.*\) and "orders-final-.*" \(.*\) exist; set finalFork.name to a name no service has. Nothing was forked or deleted/,
    );
    expect(calls).toEqual([]);
    expect((await listServices()).map((s) => s.service_id)).toContain(second.id);
  });
});
