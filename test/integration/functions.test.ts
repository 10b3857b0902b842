/**
 * Integration of the invokes (`provider/functions/`, async forms) with an emulator over real HTTP: each
 * returns the API's records camelCase, without secrets; the project defaults like the
 * resources'; stack config wins over the environment; failures quote no secret.
 *
 * Settings come from `MDB_*` (set by `pointProviderAt`); stack config is set with
 * `pulumi.runtime.setAllConfig`, which is what a Pulumi program's config looks like to
 * `new pulumi.Config("mdb")` — no engine and no mocks are needed for either.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getAuthInfo,
  getService,
  getVpc,
  getVpcPeering,
  identify,
  listReadReplicaSets,
  listServices,
  listVpcPeerings,
  listVpcs,
  resetFunctionsClient,
  track,
} from "../../provider/functions";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { errorOf, errorText, pointProviderAt, recordCalls } from "../helpers/provider";

const SECRET_KEY = "functions-integration-secret-0c41e7";

let emu: TestEmulator;
let restoreEnv: () => void;
let serviceId: string;
let vpcId: string;
let peeringId: string;
let replicaSetId: string;

/** Keys of `value` at every depth, to check that nothing snake_case leaks through. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}

function expectCamelCase(value: unknown): void {
  expect(keysOf(value).filter((k) => k.includes("_"))).toEqual([]);
}

beforeAll(async () => {
  emu = await startTestEmulator({ secretKey: SECRET_KEY });
  restoreEnv = pointProviderAt(emu);
  const p = emu.projectPath;
  const service = await emu.api<{ service_id: string }>("POST", `${p}/services`, {
    name: "primary",
    addons: ["time-series"],
    region_code: "eu-west-1",
    cpu_millis: "1000",
    memory_gbs: "4",
  });
  serviceId = service.body.service_id;
  await emu.waitFor(
    async () => (await emu.api<{ status: string }>("GET", `${p}/services/${serviceId}`)).body,
    (s) => s.status === "READY",
    { what: "service READY" },
  );
  const set = await emu.api<{ id: string }>("POST", `${p}/services/${serviceId}/replicaSets`, {
    name: "readers",
    nodes: 2,
    cpu_millis: 500,
    memory_gbs: 2,
  });
  replicaSetId = set.body.id;
  const vpc = await emu.api<{ id: string }>("POST", `${p}/vpcs`, {
    name: "core",
    cidr: "10.0.0.0/16",
    region_code: "eu-west-1",
  });
  vpcId = vpc.body.id;
  const peering = await emu.api<{ id: string }>("POST", `${p}/vpcs/${vpcId}/peerings`, {
    peer_account_id: "123456789012",
    peer_region_code: "us-west-2",
    peer_vpc_id: "vpc-peer1",
  });
  peeringId = peering.body.id;
  await emu.waitFor(
    async () => (await emu.api<{ status: string }[]>("GET", `${p}/services/${serviceId}/replicaSets`)).body,
    (sets) => sets[0]?.status === "active",
    { what: "replica set active" },
  );
});
afterAll(async () => {
  restoreEnv();
  await emu.close();
});
afterEach(async () => {
  pulumi.runtime.setAllConfig({});
  restoreEnv();
  restoreEnv = pointProviderAt(emu);
  await emu.setFaults({});
});

describe("each invoke returns the API's data camelCase", () => {
  it("getAuthInfo: the key, its project and its issuer", async () => {
    const info = await getAuthInfo();
    expect(info).toEqual({
      type: "apiKey",
      publicKey: emu.credentials.publicKey,
      name: "mdb-emulator key",
      created: expect.any(String),
      project: { id: emu.credentials.projectId, name: emu.credentials.projectId, planType: "FREE" },
      issuingUser: { id: "user-emulator", name: "Emulator User", email: "emulator@mdb.local" },
    });
    expect(JSON.stringify(info)).not.toContain(SECRET_KEY);
  });

  it("getService and listServices: the service's settings, endpoint and replica sets, no password", async () => {
    const service = await getService({ serviceId });
    expect(service).toMatchObject({
      serviceId,
      projectId: emu.credentials.projectId,
      name: "primary",
      serviceType: "TIMESERIESDB",
      regionCode: "eu-west-1",
      cpuMillis: 1000,
      memoryGbs: 4,
      replicaCount: 0,
      environment: "DEV",
      connectionPooler: false,
      paused: false,
      status: "READY",
      endpoint: { host: expect.any(String), port: 5432 },
      readReplicaSets: [{ id: replicaSetId, name: "readers" }],
    });
    expect(service).not.toHaveProperty("password");
    expect(service).not.toHaveProperty("initialPassword");
    expectCamelCase(service);

    const all = await listServices();
    expect(all).toEqual([service]);
  });

  it("listReadReplicaSets: the sets of a service", async () => {
    const sets = await listReadReplicaSets({ serviceId });
    expect(sets).toEqual([
      {
        replicaSetId,
        serviceId,
        projectId: emu.credentials.projectId,
        name: "readers",
        status: "active",
        nodes: 2,
        cpuMillis: 500,
        memoryGbs: 2,
        environment: "DEV",
        connectionPooler: false,
        endpoint: { host: expect.any(String), port: 5432 },
      },
    ]);
  });

  it("getVpc and listVpcs", async () => {
    const vpc = await getVpc({ vpcId });
    expect(vpc).toEqual({
      vpcId,
      projectId: emu.credentials.projectId,
      name: "core",
      cidr: "10.0.0.0/16",
      regionCode: "eu-west-1",
    });
    expect(await listVpcs()).toEqual([vpc]);
  });

  it("getVpcPeering and listVpcPeerings", async () => {
    const peering = await emu.waitFor(
      () => getVpcPeering({ vpcId, peeringId }),
      (p) => p.status === "active",
      { what: "peering active" },
    );
    expect(peering).toEqual({
      peeringId,
      vpcId,
      projectId: emu.credentials.projectId,
      peerAccountId: "123456789012",
      peerRegionCode: "us-west-2",
      peerVpcId: "vpc-peer1",
      provisionedId: expect.stringMatching(/^pcx-prov-/),
      status: "active",
    });
    expect(await listVpcPeerings({ vpcId })).toEqual([peering]);
  });

  it("identify and track: one POST each, the API's status", async () => {
    const { result, calls } = await recordCalls(emu, async () => [
      await identify({ properties: { team: "infra" } }),
      await track({ event: "stack-deployed", properties: { resources: 4 } }),
    ]);
    expect(result).toEqual([{ status: "ok" }, { status: "ok" }]);
    expect(calls).toEqual(["POST /analytics/identify", "POST /analytics/track"]);
  });

  it("track is not sent again after an ambiguous failure (an event counts once)", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: "/analytics/track$", count: 1, status: 500 }] });
    const { result: error, calls } = await recordCalls(emu, () => errorOf(track({ event: "once" })));
    expect(error.message).toMatch(/HTTP 500/);
    expect(calls).toEqual(["POST /analytics/track"]);
  });
});

describe("project and settings", () => {
  it("without MDB_PROJECT_ID the key's project is used, asked once", async () => {
    restoreEnv();
    restoreEnv = pointProviderAt(emu, { projectId: null });
    await emu.clearRequests();
    expect((await getVpc({ vpcId })).projectId).toBe(emu.credentials.projectId);
    expect(await listServices()).toHaveLength(1);
    const authCalls = (await emu.requests()).filter((r) => r.path.endsWith("/auth/info"));
    expect(authCalls).toHaveLength(1);
  });

  it("an explicit projectId wins: another project is refused by the API", async () => {
    const error = await errorOf(listVpcs({ projectId: "proj-not-mine" }));
    expect(error.message).toMatch(/HTTP 403/);
  });

  it("stack config `mdb:*` wins over the environment", async () => {
    process.env.MDB_API_URL = "http://127.0.0.1:9/public/api/v1";
    process.env.MDB_SECRET_KEY = "wrong-secret-from-env";
    pulumi.runtime.setAllConfig({ "mdb:apiUrl": emu.url, "mdb:secretKey": SECRET_KEY });
    resetFunctionsClient();
    expect((await getVpc({ vpcId })).name).toBe("core");
  });

  it("settings are read once; resetFunctionsClient reads them again", async () => {
    expect(await listVpcs()).toHaveLength(1);
    process.env.MDB_SECRET_KEY = "changed-secret-key";
    expect(await listVpcs()).toHaveLength(1);
    resetFunctionsClient();
    const error = await errorOf(listVpcs());
    expect(error.message).toMatch(/HTTP 401/);
    expect(errorText(error)).not.toContain("changed-secret-key");
  });

  it("missing settings name the config key and the environment variable", async () => {
    delete process.env.MDB_API_URL;
    resetFunctionsClient();
    const error = await errorOf(getAuthInfo());
    expect(error.message).toContain("mdb:apiUrl");
    expect(error.message).toContain("MDB_API_URL");
  });
});

describe("failures", () => {
  it.each([
    ["getService", () => getService({ serviceId: "nosuchsvc1" })],
    ["getVpc", () => getVpc({ vpcId: "vpc-nosuch00" })],
    ["getVpcPeering", () => getVpcPeering({ vpcId, peeringId: "pcx-nosuch00" })],
    ["listReadReplicaSets", () => listReadReplicaSets({ serviceId: "nosuchsvc1" })],
  ])("%s of an unknown id: the API's 404, quoting no secret", async (_name, call) => {
    const error = await errorOf(call());
    expect(error.message).toMatch(/HTTP 404 NOT_FOUND/);
    const text = errorText(error);
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(Buffer.from(`${emu.credentials.publicKey}:${SECRET_KEY}`).toString("base64"));
  });
});

describe("a call the API does not answer at once", () => {
  /** The lines the functions said through Pulumi's log while `action` ran. */
  async function saidDuring<T>(action: () => Promise<T>): Promise<{ result: T; said: unknown[] }> {
    const info = jest.spyOn(pulumi.log, "info").mockResolvedValue();
    try {
      const result = await action();
      return { result, said: info.mock.calls.map((call) => call[0]) };
    } finally {
      info.mockRestore();
    }
  }
  const failingGets = (path: string, count: number) => ({
    rules: [{ method: "GET", path: `${emu.projectPath}${path}$`, count, status: 503 }],
  });

  it("says its retries past the second through Pulumi's log (the stack's row), then the answer", async () => {
    await emu.setFaults(failingGets("/services", 4));
    const { result, said } = await saidDuring(() => listServices());
    expect(result.map((s) => s.name)).toContain("primary");
    // Before, a program's function sat silent through every retry (about 16 s for six).
    expect(said).toEqual([
      expect.stringMatching(
        /^\[mdb\] listServices: the API answered HTTP 503; trying again in \S+ m?s \(retry 3 of 6\)$/,
      ),
      expect.stringMatching(
        /^\[mdb\] listServices: the API answered HTTP 503; trying again in \S+ m?s \(retry 4 of 6\)$/,
      ),
      "[mdb] listServices: the API answered at attempt 5",
    ]);
  }, 30_000);

  it("a blip mended at the first two retries is not said", async () => {
    await emu.setFaults(failingGets(`/services/${serviceId}`, 2));
    const { result, said } = await saidDuring(() => getService({ serviceId }));
    expect(result.serviceId).toBe(serviceId);
    expect(said).toEqual([]);
  }, 30_000);
});
