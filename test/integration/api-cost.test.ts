/**
 * How many API calls each provider operation makes while the emulator takes realistic steps
 * (300 ms each): polling must notice the settled state without hammering the API.
 * Prints the counts (figures for the docs) and bounds them.
 */
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { drive, pointProviderAt } from "../helpers/provider";
import { PROVIDERS } from "../../provider/host";

const serviceImpl = PROVIDERS.service;
const vpcImpl = PROVIDERS.vpc;
const replicaSetImpl = PROVIDERS["read-replica-set"];
const peeringImpl = PROVIDERS["vpc-peering"];

const STEP_MS = 300;
let emu: TestEmulator;
let restore: () => void;

beforeAll(async () => {
  emu = await startTestEmulator({ transitionMs: STEP_MS });
  restore = pointProviderAt(emu);
});
afterAll(async () => {
  restore();
  await emu.close();
});

async function cost<T>(
  label: string,
  action: () => Promise<T>,
): Promise<{ result: T; gets: number; writes: number }> {
  await emu.clearRequests();
  const started = Date.now();
  const result = await action();
  const elapsed = Date.now() - started;
  const log = await emu.requests();
  const gets = log.filter((r) => r.method === "GET").length;
  const writes = log.length - gets;
  process.stdout.write(`${label}: ${writes} change call(s), ${gets} GET(s), ${elapsed} ms\n`);
  return { result, gets, writes };
}

it("API calls per operation stay within two GETs a second of waiting", async () => {
  const services = drive(serviceImpl);
  const vpcs = drive(vpcImpl);
  const sets = drive(replicaSetImpl);
  const peerings = drive(peeringImpl);
  const base = {
    name: "cost",
    serviceType: "POSTGRES",
    regionCode: "us-east-1",
    cpuMillis: 1000,
    memoryGbs: 4,
  };
  // Create: QUEUED -> CONFIGURING -> READY is 2 steps (600 ms).
  const created = await cost("Service create", () => services.create(base));
  expect(created.writes).toBe(1);
  expect(created.gets).toBeLessThanOrEqual(2 + Math.ceil((2 * STEP_MS) / 500) * 2 + 4);
  const resized = await cost("Service update (resize)", () =>
    services.update(created.result, { ...base, cpuMillis: 2000 }),
  );
  expect(resized.writes).toBe(1);
  expect(resized.gets).toBeLessThanOrEqual(12);
  const vpc = await cost("Vpc create", () =>
    vpcs.create({ name: "cost-net", cidr: "10.9.0.0/16", regionCode: "us-east-1" }),
  );
  expect(vpc.writes).toBe(1);
  const renamed = await cost("Vpc update (rename)", () =>
    vpcs.update(vpc.result, { name: "cost-net-2", cidr: "10.9.0.0/16", regionCode: "us-east-1" }),
  );
  expect(renamed.writes).toBe(1);
  const set = await cost("ReadReplicaSet create", () =>
    sets.create({ serviceId: created.result.id, name: "cost-reads", nodes: 1, cpuMillis: 500, memoryGbs: 2 }),
  );
  expect(set.writes).toBe(1);
  const peering = await cost("VpcPeering create", () =>
    peerings.create({
      vpcId: vpc.result.id,
      peerAccountId: "acct",
      peerRegionCode: "us-east-1",
      peerVpcId: "vpc-x",
    }),
  );
  expect(peering.writes).toBe(1);
  await cost("VpcPeering delete", () => peerings.delete(peering.result));
  await cost("ReadReplicaSet delete", () => sets.delete(set.result));
  const deleted = await cost("Service delete", () => services.delete(resized.result.state));
  expect(deleted.writes).toBe(1);
  await cost("Vpc delete", () => vpcs.delete(renamed.result.state));
  expect(await emu.api("GET", `${emu.projectPath}/services`)).toMatchObject({ body: [] });
});
