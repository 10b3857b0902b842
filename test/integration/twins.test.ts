/**
 * Twins at check: two resources of one program with the values a create matches records by (a
 * service's name, type, region and fork source; a VPC's name, block and region; a read replica
 * set's service and name; a peering's VPC and peer), one of them to be created. One record
 * cannot belong to both, so the second check fails naming the first, before anything is created.
 */
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PROVIDERS } from "../../provider/host";
import { RESOURCE_NAME_INPUT } from "../../provider/adapters/dynamic/hidden";
import { UNKNOWN } from "../../provider/kit/fields/check";
import { describeCall, pointProviderAt } from "../helpers/provider";

type Props = Record<string, unknown>;
type Provider = (typeof PROVIDERS)["service"];

let emu: TestEmulator;
let restore: () => void;

beforeAll(async () => {
  emu = await startTestEmulator();
  restore = pointProviderAt(emu);
  // What the provider host does before the first check: the run starts.
  await PROVIDERS.service.configure?.({ config: { get: () => undefined } } as never);
});
afterAll(async () => {
  restore();
  await emu.close();
});

/** check of resource `name` as the host calls it: the failures, as `property: reason`. */
async function failures(provider: Provider, name: string, news: Props, olds: Props = {}): Promise<string[]> {
  const result = await provider.check(olds, { __provider: "p", [RESOURCE_NAME_INPUT]: name, ...news });
  return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

const service = { serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4 };
const TWIN_SERVICE = (first: string) =>
  `name: resource ${first} of this program is a service of the same name, type, region and fork source; ` +
  "one record cannot belong to both, so up would refuse to create the second: make them differ, or declare it once";

describe("services", () => {
  it("the second of two new services of one name, type and region fails, naming the first", async () => {
    expect(await failures(PROVIDERS.service, "a", { ...service, name: "twin-db" })).toEqual([]);
    expect(await failures(PROVIDERS.service, "b", { ...service, name: "twin-db" })).toEqual([
      TWIN_SERVICE("a"),
    ]);
  });

  it("a type written another way (TIMESCALEDB for TIMESERIESDB) is the same type", async () => {
    const tsdb = { ...service, name: "twin-ts" };
    expect(await failures(PROVIDERS.service, "ts1", { ...tsdb, serviceType: "TIMESERIESDB" })).toEqual([]);
    expect(await failures(PROVIDERS.service, "ts2", { ...tsdb, serviceType: "TIMESCALEDB" })).toEqual([
      TWIN_SERVICE("ts1"),
    ]);
  });

  it("a new service with an existing resource's identity fails: up would refuse the new one", async () => {
    const twin = { ...service, name: "twin-old" };
    expect(await failures(PROVIDERS.service, "old", twin, twin)).toEqual([]);
    expect(await failures(PROVIDERS.service, "new", twin)).toEqual([
      TWIN_SERVICE("old").replace("the second", "the new one"),
    ]);
  });

  it("passes: checked again, two already in the stack, another region, or a name not yet known", async () => {
    const named = { ...service, name: "twin-ok" };
    expect(await failures(PROVIDERS.service, "c", named)).toEqual([]);
    expect(await failures(PROVIDERS.service, "c", named)).toEqual([]);
    const kept = { ...service, name: "twin-kept" };
    expect(await failures(PROVIDERS.service, "k1", kept, kept)).toEqual([]);
    expect(await failures(PROVIDERS.service, "k2", kept, kept)).toEqual([]);
    expect(await failures(PROVIDERS.service, "d", { ...named, regionCode: "eu-west-1" })).toEqual([]);
    expect(await failures(PROVIDERS.service, "e", { ...named, name: UNKNOWN })).toEqual([]);
    expect(await failures(PROVIDERS.service, "f", { ...named, name: UNKNOWN })).toEqual([]);
  });

  it("asks the API nothing for it", async () => {
    await emu.clearRequests();
    await failures(PROVIDERS.service, "g1", { ...service, name: "twin-quiet" });
    await failures(PROVIDERS.service, "g2", { ...service, name: "twin-quiet" });
    const calls = (await emu.requests()).map((entry) => describeCall(emu, entry));
    expect(calls.filter((call) => !call.startsWith("GET /auth"))).toEqual([]);
  });
});

describe("the other kinds", () => {
  it("VPCs of one name, block and region", async () => {
    const vpc = { name: "twin-net", cidr: "10.9.0.0/16", regionCode: "us-east-1" };
    expect(await failures(PROVIDERS.vpc, "v1", vpc)).toEqual([]);
    expect(await failures(PROVIDERS.vpc, "v2", { ...vpc, cidr: "10.8.0.0/16" })).toEqual([]);
    expect(await failures(PROVIDERS.vpc, "v3", vpc)).toEqual([
      "name: resource v1 of this program is a VPC of the same name, CIDR block and region; one record cannot " +
        "belong to both, so up would refuse to create the second: make them differ, or declare it once",
    ]);
  });

  it("read replica sets of one service and name, and peerings of one VPC to one peer", async () => {
    const source = (
      await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, {
        name: "twin-source",
        region_code: "us-east-1",
        cpu_millis: "500",
        memory_gbs: "2",
      })
    ).body.service_id;
    const set = { serviceId: source, name: "reads", nodes: 1, cpuMillis: 500, memoryGbs: 2 };
    expect(await failures(PROVIDERS["read-replica-set"], "r1", set)).toEqual([]);
    expect(await failures(PROVIDERS["read-replica-set"], "r2", set)).toEqual([
      expect.stringMatching(
        /^name: resource r1 of this program is a read replica set of the same service and name;/,
      ),
    ]);
    const vpcId = (
      await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
        name: "twin-peer",
        cidr: "10.7.0.0/16",
        region_code: "us-east-1",
      })
    ).body.id;
    const peering = {
      vpcId,
      peerAccountId: "123456789012",
      peerRegionCode: "us-east-1",
      peerVpcId: "vpc-far",
    };
    expect(await failures(PROVIDERS["vpc-peering"], "p1", peering)).toEqual([]);
    expect(await failures(PROVIDERS["vpc-peering"], "p2", peering)).toEqual([
      expect.stringMatching(
        /^peerVpcId: resource p1 of this program is a VPC peering of the same VPC, peer account, peer region and peer VPC;/,
      ),
    ]);
  });
});
