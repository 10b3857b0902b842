/**
 * The lifecycle timing, exactly: with a fake clock, each state lasts one transition (1000 ms
 * here) and no more, whatever the wall clock does. This is what a state file restart relies on:
 * states are computed from timestamps, not from timers.
 */
import type { ReadReplicaSet, Service, VpcPeering } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { startConformanceEmulator } from "./helpers";

const STEP = 1000;
let clock = Date.parse("2030-01-01T00:00:00Z");
let emu: TestEmulator;
let p: string;

beforeAll(async () => {
  emu = await startConformanceEmulator({ transitionMs: STEP, now: () => clock });
  p = emu.projectPath;
});
afterAll(() => emu.close());

/** The statuses seen just before each step ends and just after, over `steps` steps. */
async function statusesOver(steps: number, read: () => Promise<string>): Promise<string[]> {
  const seen = [await read()];
  for (let i = 0; i < steps; i++) {
    clock += STEP - 1;
    seen.push(await read());
    clock += 1;
    seen.push(await read());
  }
  return seen;
}

async function serviceStatus(id: string): Promise<string> {
  const response = await emu.api<Service>("GET", `${p}/services/${id}`);
  return response.status === 404 ? "gone" : response.body.status;
}

it("service: create, stop, start, resize, delete each take their steps, one transition each", async () => {
  const created = (await emu.api<Service>("POST", `${p}/services`, { name: "timed" })).body;
  expect(created.created).toBe(new Date(clock).toISOString());
  const id = created.service_id;
  const status = () => serviceStatus(id);
  expect(await statusesOver(2, status)).toEqual(["QUEUED", "QUEUED", "CONFIGURING", "CONFIGURING", "READY"]);

  await emu.api("POST", `${p}/services/${id}/stop`);
  expect(await statusesOver(1, status)).toEqual(["PAUSING", "PAUSING", "PAUSED"]);
  await emu.api("POST", `${p}/services/${id}/start`);
  expect(await statusesOver(1, status)).toEqual(["RESUMING", "RESUMING", "READY"]);
  await emu.api("POST", `${p}/services/${id}/resize`, { cpu_millis: 1000, memory_gbs: 4 });
  expect(await statusesOver(1, status)).toEqual(["CONFIGURING", "CONFIGURING", "READY"]);
  await emu.api("DELETE", `${p}/services/${id}`);
  expect(await statusesOver(1, status)).toEqual(["DELETING", "DELETING", "gone"]);
});

it("replica set: creating -> active, resizing -> active, deleting -> gone", async () => {
  const service = (await emu.api<Service>("POST", `${p}/services`, { name: "with-readers" })).body;
  clock += 2 * STEP;
  const sets = `${p}/services/${service.service_id}/replicaSets`;
  const created = (
    await emu.api<ReadReplicaSet>("POST", sets, { name: "r", nodes: 1, cpu_millis: 250, memory_gbs: 1 })
  ).body;
  const status = async () =>
    (await emu.api<ReadReplicaSet[]>("GET", sets)).body.find((r) => r.id === created.id)?.status ?? "gone";
  expect(await statusesOver(1, status)).toEqual(["creating", "creating", "active"]);
  await emu.api("POST", `${sets}/${created.id}/resize`, { cpu_millis: 500, memory_gbs: 2 });
  expect(await statusesOver(1, status)).toEqual(["resizing", "resizing", "active"]);
  await emu.api("DELETE", `${sets}/${created.id}`);
  expect(await statusesOver(1, status)).toEqual(["deleting", "deleting", "gone"]);
});

it("peering: pending -> active, and pending -> failed for an unreachable peer", async () => {
  const vpc = (
    await emu.api<{ id: string }>("POST", `${p}/vpcs`, { name: "v", cidr: "10.0.0.0/16", region_code: "r" })
  ).body;
  const peerings = `${p}/vpcs/${vpc.id}/peerings`;
  const create = async (peerVpcId: string) =>
    (
      await emu.api<VpcPeering>("POST", peerings, {
        peer_account_id: "a",
        peer_region_code: "r",
        peer_vpc_id: peerVpcId,
      })
    ).body.id;
  const [ok, bad] = [await create("vpc-peer"), await create("unreachable-peer")];
  const status = (id: string) => async () =>
    (await emu.api<VpcPeering>("GET", `${peerings}/${id}`)).body.status;
  const both = async () => `${await status(ok)()} / ${await status(bad)()}`;
  expect(await statusesOver(1, both)).toEqual(["pending / pending", "pending / pending", "active / failed"]);
});
