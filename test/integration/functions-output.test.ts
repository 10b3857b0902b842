/**
 * The Output forms of the functions in a Pulumi program (`pulumi.runtime` mocks stand in for
 * the engine; the API is an emulator over real HTTP): each gives what its async form gives,
 * takes resources' outputs as inputs, keeps a secret input's result secret, stays unknown
 * without calling the API while an input or a `dependsOn` resource is unknown in a preview,
 * and fails with the async form's error.
 */
import * as pulumi from "@pulumi/pulumi";
import * as fns from "../../provider/functions";
import { Service } from "../../provider/resources/service";
import { Vpc } from "../../provider/resources/vpc";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { errorOf, pointProviderAt } from "../helpers/provider";

let emu: TestEmulator;
let restoreEnv: () => void;
let serviceId: string;
let vpcId: string;
let peeringId: string;

/** Ids the mocked engine gives resources, by resource name; a name not listed gets none. */
const mockIds: Record<string, string> = {};

/** Runs the program under mocks, as `pulumi up` (or `pulumi preview` when `preview`). */
async function mockEngine(preview: boolean): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: mockIds[args.name], state: args.inputs }),
      call: (args) => args.inputs,
    },
    "functions-output",
    "test",
    preview,
  );
}

/** What a program can tell of an output: its value, and whether it is known and secret. */
async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; known: boolean; secret: boolean }> {
  // `promise()` and `isKnown` are the SDK's own accessors, used by Pulumi's testing guides.
  const impl = output as unknown as { promise(): Promise<T>; isKnown: Promise<boolean> };
  const [value, known, secret] = await Promise.all([impl.promise(), impl.isKnown, pulumi.isSecret(output)]);
  return { value, known, secret };
}

/** The requests logged while `action` ran, after the program's pending work settled. */
async function requestsDuring(action: () => Promise<unknown>): Promise<string[]> {
  await emu.clearRequests();
  await action();
  await new Promise((resolve) => setTimeout(resolve, 50));
  return (await emu.requests()).map((r) => `${r.method} ${r.path}`);
}

beforeAll(async () => {
  emu = await startTestEmulator();
  restoreEnv = pointProviderAt(emu);
  const p = emu.projectPath;
  const service = await emu.api<{ service_id: string }>("POST", `${p}/services`, {
    name: "orders",
    region_code: "us-east-1",
    cpu_millis: "1000",
    memory_gbs: "4",
  });
  serviceId = service.body.service_id;
  await emu.waitFor(
    () => fns.getService({ serviceId }),
    (s) => s.status === "READY",
    { what: "service READY" },
  );
  await emu.api("POST", `${p}/services/${serviceId}/replicaSets`, {
    name: "readers",
    nodes: 1,
    cpu_millis: 500,
    memory_gbs: 2,
  });
  vpcId = (
    await emu.api<{ id: string }>("POST", `${p}/vpcs`, {
      name: "core",
      cidr: "10.0.0.0/16",
      region_code: "us-east-1",
    })
  ).body.id;
  peeringId = (
    await emu.api<{ id: string }>("POST", `${p}/vpcs/${vpcId}/peerings`, {
      peer_account_id: "123456789012",
      peer_region_code: "us-east-1",
      peer_vpc_id: "vpc-peer1",
    })
  ).body.id;
  // Let every transition settle, so both forms read the same records.
  await emu.waitFor(
    () => fns.listReadReplicaSets({ serviceId }),
    (sets) => sets[0]?.status === "active",
    { what: "replica set active" },
  );
  await emu.waitFor(
    () => fns.getVpcPeering({ vpcId, peeringId }),
    (peering) => peering.status === "active",
    { what: "peering active" },
  );
  Object.assign(mockIds, { core: vpcId, orders: serviceId });
});
afterAll(async () => {
  restoreEnv();
  await emu.close();
});
beforeEach(() => mockEngine(false));

describe("each Output form gives what its async form gives", () => {
  it.each<[string, () => pulumi.Output<unknown>, () => Promise<unknown>]>([
    ["getAuthInfo", () => fns.getAuthInfoOutput(), () => fns.getAuthInfo()],
    ["getService by id", () => fns.getServiceOutput({ serviceId }), () => fns.getService({ serviceId })],
    [
      "getService by name",
      () => fns.getServiceOutput({ name: "orders" }),
      () => fns.getService({ serviceId }),
    ],
    ["listServices", () => fns.listServicesOutput(), () => fns.listServices()],
    ["getVpc by id", () => fns.getVpcOutput({ vpcId }), () => fns.getVpc({ vpcId })],
    ["getVpc by name", () => fns.getVpcOutput({ name: "core" }), () => fns.getVpc({ vpcId })],
    ["listVpcs", () => fns.listVpcsOutput({}), () => fns.listVpcs()],
    [
      "listReadReplicaSets",
      () => fns.listReadReplicaSetsOutput({ serviceId }),
      () => fns.listReadReplicaSets({ serviceId }),
    ],
    [
      "getVpcPeering",
      () => fns.getVpcPeeringOutput({ vpcId, peeringId }),
      () => fns.getVpcPeering({ vpcId, peeringId }),
    ],
    ["listVpcPeerings", () => fns.listVpcPeeringsOutput({ vpcId }), () => fns.listVpcPeerings({ vpcId })],
    ["identify", () => fns.identifyOutput({ properties: { team: "infra" } }), () => fns.identify()],
    ["track", () => fns.trackOutput({ event: "deployed" }), () => fns.track({ event: "deployed" })],
  ])("%s", async (_name, outputForm, asyncForm) => {
    const settled = await settle(outputForm());
    expect(settled).toEqual({ value: await asyncForm(), known: true, secret: false });
    expect(settled.value).toBeTruthy();
  });
});

describe("inputs from a program", () => {
  it("takes resources' outputs, and the result depends on those resources", async () => {
    const vpc = new Vpc("core", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
    const db = new Service("orders", {
      serviceType: "POSTGRES",
      regionCode: "us-east-1",
      cpuMillis: 1000,
      memoryGbs: 4,
    });
    const found = fns.getVpcOutput({ vpcId: vpc.vpcId });
    const sets = fns.listReadReplicaSetsOutput({ serviceId: db.serviceId });
    expect((await settle(found)).value).toMatchObject({ vpcId, name: "core", cidr: "10.0.0.0/16" });
    expect((await settle(sets)).value).toEqual([expect.objectContaining({ serviceId, name: "readers" })]);
    // The SDK's record of what an output depends on: what `dependsOn` of a resource using it gets.
    const resources = (o: pulumi.Output<unknown>) =>
      (o as unknown as { resources(): Set<pulumi.Resource> }).resources();
    expect([...resources(found)]).toEqual([vpc]);
    expect([...resources(sets)]).toEqual([db]);
  });

  it("lifts the result: its members are Outputs a program passes on", async () => {
    const region = fns.getServiceOutput({ serviceId: pulumi.output(serviceId) }).regionCode;
    expect(await settle(region)).toEqual({ value: "us-east-1", known: true, secret: false });
  });

  it("a secret input makes the result secret, members included", async () => {
    const service = fns.getServiceOutput({ serviceId: pulumi.secret(serviceId) });
    expect(await settle(service)).toMatchObject({
      value: { serviceId, name: "orders" },
      known: true,
      secret: true,
    });
    expect(await settle(service.name)).toEqual({ value: "orders", known: true, secret: true });
    const tracked = fns.trackOutput({ event: "deployed", properties: pulumi.secret({ token: "abc" }) });
    expect(await settle(tracked)).toEqual({ value: { status: "ok" }, known: true, secret: true });
  });

  it("fails with the async form's error: a name that two VPCs have", async () => {
    await emu.api("POST", `${emu.projectPath}/vpcs`, {
      name: "twin",
      cidr: "10.8.0.0/16",
      region_code: "us-east-1",
    });
    await emu.api("POST", `${emu.projectPath}/vpcs`, {
      name: "twin",
      cidr: "10.9.0.0/16",
      region_code: "us-east-1",
    });
    const error = await errorOf(settle(fns.getVpcOutput({ name: "twin" })));
    expect(error).toBeInstanceOf(fns.MdbLookupError);
    expect(error.message).toMatch(/^2 VPCs are named "twin" in project /);
  });
});

describe("in a preview", () => {
  beforeEach(() => mockEngine(true));

  it("with known inputs the call is made and the result known, like any invoke", async () => {
    let result: unknown;
    const calls = await requestsDuring(async () => (result = await settle(fns.getVpcOutput({ vpcId }))));
    expect(result).toMatchObject({ value: { vpcId, name: "core" }, known: true });
    expect(calls).toEqual([
      `GET ${emu.url.replace(/^https?:\/\/[^/]+/, "")}/projects/${emu.credentials.projectId}/vpcs/${vpcId}`,
    ]);
  });

  it("while an input is unknown (a resource to be created), the result is unknown and no call is made", async () => {
    let result: unknown;
    const calls = await requestsDuring(async () => {
      const vpc = new Vpc("new-vpc", { cidr: "10.5.0.0/16", regionCode: "us-east-1" });
      result = await settle(fns.getVpcOutput({ vpcId: vpc.vpcId }));
    });
    expect(result).toEqual({ value: undefined, known: false, secret: false });
    expect(calls).toEqual([]);
  });

  it("while a dependsOn resource is to be created, the result is unknown and no call is made", async () => {
    let result: unknown;
    const calls = await requestsDuring(async () => {
      const vpc = new Vpc("new-vpc", { cidr: "10.5.0.0/16", regionCode: "us-east-1" });
      result = await settle(fns.listVpcsOutput({}, { dependsOn: vpc }));
    });
    expect(result).toEqual({ value: undefined, known: false, secret: false });
    expect(calls).toEqual([]);
  });

  it("once the dependsOn resources exist, the call is made", async () => {
    const vpc = new Vpc("core", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
    const listed = await settle(fns.listVpcsOutput({}, { dependsOn: [vpc] }));
    expect(listed.known).toBe(true);
    expect(listed.value).toEqual(expect.arrayContaining([expect.objectContaining({ vpcId, name: "core" })]));
  });
});
