/**
 * `getService` and `getVpc` by name, against an emulator over real HTTP: a name that one
 * record has gives that record (the same as by id); a name that none has, or several have,
 * fails naming the matches with their ids; exactly one of id and name must be given.
 */
import { getService, getVpc, MdbLookupError } from "../../provider/functions";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { describeCall, errorOf, pointProviderAt } from "../helpers/provider";

let emu: TestEmulator;
let restoreEnv: () => void;
/** Ids by name; the twins share one name. */
const services: Record<"orders" | "twinA" | "twinB", string> = { orders: "", twinA: "", twinB: "" };
const vpcs: Record<"core" | "twinA" | "twinB", string> = { core: "", twinA: "", twinB: "" };

async function createService(name: string, region: string): Promise<string> {
  const body = { name, region_code: region, cpu_millis: "500", memory_gbs: "2" };
  return (await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, body)).body.service_id;
}

async function createVpc(name: string, cidr: string): Promise<string> {
  const body = { name, cidr, region_code: "us-east-1" };
  return (await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, body)).body.id;
}

/** The result of `action` and every request it made (GETs included), as `GET /projects/{project}/...`. */
async function requestsDuring<T>(action: () => Promise<T>): Promise<{ result: T; calls: string[] }> {
  await emu.clearRequests();
  const result = await action();
  // The log takes an entry when the connection is done with it, just after the answer.
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { result, calls: (await emu.requests()).map((entry) => describeCall(emu, entry)) };
}

beforeAll(async () => {
  emu = await startTestEmulator();
  restoreEnv = pointProviderAt(emu);
  services.orders = await createService("orders", "us-east-1");
  services.twinA = await createService("twin", "us-east-1");
  services.twinB = await createService("twin", "eu-west-1");
  vpcs.core = await createVpc("core", "10.0.0.0/16");
  vpcs.twinA = await createVpc("shared", "10.1.0.0/16");
  vpcs.twinB = await createVpc("shared", "10.2.0.0/16");
  // Two reads of a service compare equal only once it stops moving through its lifecycle.
  await emu.waitFor(
    async () => (await emu.api<{ status: string }[]>("GET", `${emu.projectPath}/services`)).body,
    (list) => list.every((service) => service.status === "READY"),
    { what: "every service READY" },
  );
});
afterAll(async () => {
  restoreEnv();
  await emu.close();
});

describe("by a name that one record has", () => {
  it("getService gives the same service as by id, from one read of the project's list", async () => {
    const { result: byName, calls } = await requestsDuring(() => getService({ name: "orders" }));
    expect(calls).toEqual(["GET /projects/{project}/services"]);
    expect(byName).toEqual(await getService({ serviceId: services.orders }));
    expect(byName).toMatchObject({ serviceId: services.orders, name: "orders", regionCode: "us-east-1" });
  });

  it("getVpc gives the same VPC as by id", async () => {
    const byName = await getVpc({ name: "core" });
    expect(byName).toEqual(await getVpc({ vpcId: vpcs.core }));
    expect(byName).toMatchObject({ vpcId: vpcs.core, name: "core", cidr: "10.0.0.0/16" });
  });

  it("names match exactly: case and surrounding text count", async () => {
    for (const name of ["Orders", "order", "orders "]) {
      const error = await errorOf(getService({ name }));
      expect(error).toBeInstanceOf(MdbLookupError);
    }
  });
});

describe("by a name that no record has", () => {
  it.each([
    [
      "getService",
      () => getService({ name: "nosuch" }),
      /^no service named "nosuch" in project \S+ \(it has 3 services\)/,
    ],
    ["getVpc", () => getVpc({ name: "nosuch" }), /^no VPC named "nosuch" in project \S+ \(it has 3 VPCs\)/],
  ])("%s fails saying so, in the project it looked in", async (_name, call, message) => {
    const error = await errorOf(call());
    expect(error).toBeInstanceOf(MdbLookupError);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(emu.credentials.projectId);
    expect(error).toMatchObject({ lookedFor: "nosuch", matchIds: [] });
  });
});

describe("by a name that several records have", () => {
  it("getService fails naming each match with its id and region, and how to choose", async () => {
    const error = await errorOf(getService({ name: "twin" }));
    expect(error).toBeInstanceOf(MdbLookupError);
    expect(error.message).toMatch(/^2 services are named "twin" in project \S+: /);
    expect(error.message).toContain(`${services.twinA} (us-east-1, `);
    expect(error.message).toContain(`${services.twinB} (eu-west-1, `);
    expect(error.message).toMatch(/give serviceId instead of name$/);
    expect(error.matchIds).toEqual(expect.arrayContaining([services.twinA, services.twinB]));
    expect(error.matchIds).toHaveLength(2);
  });

  it("getVpc fails naming each match with its id and block", async () => {
    const error = await errorOf(getVpc({ name: "shared" }));
    expect(error.message).toMatch(/^2 VPCs are named "shared" in project \S+: /);
    expect(error.message).toContain(`${vpcs.twinA} (10.1.0.0/16, us-east-1)`);
    expect(error.message).toContain(`${vpcs.twinB} (10.2.0.0/16, us-east-1)`);
    expect(error.message).toMatch(/give vpcId instead of name$/);
  });
});

describe("exactly one of id and name", () => {
  it.each([
    [
      "getService, both",
      () => getService({ serviceId: services.orders, name: "orders" } as never),
      "serviceId",
    ],
    ["getService, neither", () => getService({} as never), "serviceId"],
    ["getService, empty name", () => getService({ name: "" }), "serviceId"],
    ["getVpc, both", () => getVpc({ vpcId: vpcs.core, name: "core" } as never), "vpcId"],
    ["getVpc, neither", () => getVpc({} as never), "vpcId"],
  ])("%s: refused before any API call, naming both arguments", async (_name, call, idArg) => {
    const { result: error, calls } = await requestsDuring(() => errorOf(call()));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain(`give exactly one of ${idArg} and name`);
    expect(calls).toEqual([]);
  });
});
