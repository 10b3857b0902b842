/**
 * The API client against the emulator over real HTTP: every one of the 34 operations in a realistic
 * flow (each called at least once, see "coverage"), and the endpoint rules. Retries, ambiguous
 * creates, error details and redaction: client-failures.test.ts.
 */
import * as http from "node:http";
import { OPERATION_IDS } from "../../api/operations";
import { MdbApi } from "../../provider/client/api";
import type { VpcPeering } from "../../provider/client/schemas";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSWORD, SECRET_KEY, apiFailure, clientHelpers, presence } from "./client-helpers";

/** The 34 operations of the spec and the vendor's 6 additions, as the client names them. */
const OPERATIONS = [
  "getAuthInfo",
  "identify",
  "track",
  "listServices",
  "createService",
  "getService",
  "deleteService",
  "startService",
  "stopService",
  "resizeService",
  "updatePassword",
  "setServiceEnvironment",
  "setHA",
  "enablePooler",
  "disablePooler",
  "forkService",
  "attachToVpc",
  "detachFromVpc",
  "listReplicaSets",
  "createReplicaSet",
  "deleteReplicaSet",
  "resizeReplicaSet",
  "enableReplicaSetPooler",
  "disableReplicaSetPooler",
  "setReplicaSetEnvironment",
  "listVpcs",
  "createVpc",
  "getVpc",
  "renameVpc",
  "deleteVpc",
  "listPeerings",
  "createPeering",
  "getPeering",
  "deletePeering",
  // The vendor's additions (current document).
  "renameService",
  "listProjects",
  "getServiceLogs",
  "listServiceMetricSeries",
  "getServiceMetricSeries",
  "logout",
] as const;

const exercised = new Set<string>();

/** Wraps a client so that every method called on it is noted in `exercised`. */
function recording(client: MdbApi): MdbApi {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        exercised.add(property);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

let emu: TestEmulator;
let projectId: string;
/** The client under test; records which operations the tests called. */
let api: MdbApi;

beforeAll(async () => {
  emu = await startTestEmulator({ secretKey: SECRET_KEY });
  projectId = emu.credentials.projectId;
  api = recording(newClient());
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const { newClient, until, serviceInStatus, readyService, replicaSetOf } = clientHelpers(() => ({
  emu,
  projectId,
  api,
}));

describe("every operation against the emulator", () => {
  it("reads the key's auth info and acknowledges identify and track", async () => {
    const info = await api.getAuthInfo();
    expect(info.type).toBe("apiKey");
    expect(info.apiKey.public_key).toBe(emu.credentials.publicKey);
    expect(info.apiKey.project.id).toBe(projectId);

    await expect(api.identify({ properties: { team: "infra", plan: "pro" } })).resolves.toEqual({
      status: "ok",
    });
    await expect(api.identify()).resolves.toEqual({ status: "ok" });
    await expect(api.track({ event: "stack-updated", properties: { resources: 3 } })).resolves.toEqual({
      status: "ok",
    });
    expect(await emu.requests()).toEqual([
      expect.objectContaining({ method: "GET", path: "/public/api/v1/auth/info", status: 200 }),
      expect.objectContaining({ method: "POST", path: "/public/api/v1/analytics/identify", status: 200 }),
      expect.objectContaining({ method: "POST", path: "/public/api/v1/analytics/identify", status: 200 }),
      expect.objectContaining({ method: "POST", path: "/public/api/v1/analytics/track", status: 200 }),
    ]);
  });

  it("creates a service from camelCase inputs, then resizes, sets HA, pooler, environment and password", async () => {
    const created = await api.createService(projectId, {
      name: "orders",
      addons: ["ai"],
      regionCode: "eu-west-1",
      cpuMillis: 1000,
      memoryGbs: 4,
      replicaCount: 1,
      environmentTag: "PROD",
    });
    expect(created).toMatchObject({
      project_id: projectId,
      name: "orders",
      service_type: "VECTOR",
      region_code: "eu-west-1",
      status: "QUEUED",
      metadata: { environment: "PROD" },
      ha_replicas: { replica_count: 1 },
      resources: [{ spec: { cpu_millis: 1000, memory_gbs: 4 } }],
    });
    expect(created.initial_password).toEqual(expect.any(String));
    const id = created.service_id;

    const ready = await serviceInStatus(id, "READY");
    expect(ready.endpoint).toEqual({ host: expect.any(String), port: 5432 });
    expect(ready.initial_password).toBeUndefined();
    expect((await api.listServices(projectId)).map((s) => s.service_id)).toEqual([id]);

    await expect(api.resizeService(projectId, id, { cpuMillis: 2000, memoryGbs: 8 })).resolves.toMatchObject({
      service_id: id,
      status: "CONFIGURING",
    });
    expect((await api.getService(projectId, id)).status).toBe("CONFIGURING");
    const resized = await serviceInStatus(id, "READY");
    expect(resized.resources?.[0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });

    const ha = await api.setHA(projectId, id, { replicaCount: 2, syncReplicaCount: 1 });
    expect(ha.status).toBe("CONFIGURING");
    expect((await serviceInStatus(id, "READY")).ha_replicas).toEqual({
      replica_count: 2,
      sync_replica_count: 1,
    });

    expect((await api.enablePooler(projectId, id)).message).toEqual(expect.any(String));
    expect((await api.getService(projectId, id)).connection_pooler?.endpoint?.port).toBe(6432);
    expect((await api.disablePooler(projectId, id)).message).toEqual(expect.any(String));
    expect((await api.getService(projectId, id)).connection_pooler ?? null).toBeNull();

    expect((await api.setServiceEnvironment(projectId, id, { environment: "DEV" })).message).toContain("DEV");
    expect((await api.getService(projectId, id)).metadata?.environment).toBe("DEV");

    await expect(api.updatePassword(projectId, id, { password: PASSWORD })).resolves.toBeUndefined();
    expect(emu.emulator.model.verifyPassword(projectId, id, PASSWORD)).toBe(true);
  });

  it("defaults to a POSTGRES DEV service; TIMESERIESDB maps to its add-on", async () => {
    const plain = await api.createService(projectId, {
      name: "plain",
      regionCode: "us-east-1",
      cpuMillis: 500,
      memoryGbs: 2,
    });
    expect(plain).toMatchObject({ service_type: "POSTGRES", metadata: { environment: "DEV" } });
    const series = await api.createService(projectId, {
      name: "metrics",
      addons: ["time-series"],
      regionCode: "us-east-1",
      cpuMillis: 500,
      memoryGbs: 2,
    });
    expect(series.service_type).toBe("TIMESERIESDB");
  });

  it("stops, starts and deletes a service", async () => {
    const { service_id: id } = await readyService();

    const stopping = await api.stopService(projectId, id);
    expect(stopping.status).toBe("PAUSING");
    expect((await serviceInStatus(id, "PAUSED")).paused).toBe(true);

    const resuming = await api.startService(projectId, id);
    expect(resuming.status).toBe("RESUMING");
    expect((await serviceInStatus(id, "READY")).paused).toBe(false);
    // A repeated start is harmless: the service stays as it is.
    expect((await api.startService(projectId, id)).status).toBe("READY");

    await expect(api.deleteService(projectId, id)).resolves.toBeUndefined();
    expect((await api.getService(projectId, id)).status).toBe("DELETING");
    await until(
      () => presence(() => api.getService(projectId, id)),
      (p) => p === "gone",
      "service gone",
    );
    expect(await api.listServices(projectId)).toEqual([]);
  });

  it("forks a service now and at a point in time", async () => {
    const source = await readyService("source");
    const fork = await api.forkService(projectId, source.service_id, {
      forkStrategy: "NOW",
      name: "source-copy",
      cpuMillis: 1000,
      memoryGbs: 4,
      environmentTag: "PROD",
    });
    expect(fork).toMatchObject({
      name: "source-copy",
      status: "QUEUED",
      service_type: source.service_type,
      region_code: source.region_code,
      forked_from: { service_id: source.service_id, project_id: projectId },
      ha_replicas: { replica_count: 0 },
      metadata: { environment: "PROD" },
      resources: [{ spec: { cpu_millis: 1000, memory_gbs: 4 } }],
    });
    expect(fork.initial_password).toEqual(expect.any(String));
    expect(fork.service_id).not.toBe(source.service_id);
    await serviceInStatus(fork.service_id, "READY");

    const pitr = await api.forkService(projectId, source.service_id, {
      forkStrategy: "PITR",
      targetTime: new Date().toISOString(),
    });
    expect(pitr.forked_from?.service_id).toBe(source.service_id);
    expect((await api.listServices(projectId)).map((s) => s.service_id).sort()).toEqual(
      [source.service_id, fork.service_id, pitr.service_id].sort(),
    );
  });

  it("creates, reads, renames and deletes a VPC, and attaches a service to it", async () => {
    const vpc = await api.createVpc(projectId, { name: "net", cidr: "10.8.0.0/16", regionCode: "us-east-1" });
    expect(vpc).toEqual({
      id: expect.any(String),
      name: "net",
      cidr: "10.8.0.0/16",
      region_code: "us-east-1",
    });
    expect(await api.getVpc(projectId, vpc.id)).toEqual(vpc);
    expect(await api.listVpcs(projectId)).toEqual([vpc]);
    expect(await api.renameVpc(projectId, vpc.id, { name: "net-renamed" })).toEqual({
      ...vpc,
      name: "net-renamed",
    });
    expect((await api.getVpc(projectId, vpc.id)).name).toBe("net-renamed");

    const { service_id: id } = await readyService();
    expect((await api.attachToVpc(projectId, id, { vpcId: vpc.id })).message).toContain(vpc.id);
    const attached = await serviceInStatus(id, "READY");
    expect(attached.vpcEndpoint).toMatchObject({ vpc_id: vpc.id, port: 5432 });
    // A VPC in use cannot go.
    expect((await apiFailure(api.deleteVpc(projectId, vpc.id))).status).toBe(409);

    expect((await api.detachFromVpc(projectId, id, { vpcId: vpc.id })).message).toContain(vpc.id);
    expect((await serviceInStatus(id, "READY")).vpcEndpoint ?? null).toBeNull();

    await expect(api.deleteVpc(projectId, vpc.id)).resolves.toBeUndefined();
    expect(await presence(() => api.getVpc(projectId, vpc.id))).toBe("gone");
    expect(await api.listVpcs(projectId)).toEqual([]);
  });

  it("creates, reads, lists and deletes VPC peerings, active or failed", async () => {
    const vpc = await api.createVpc(projectId, { name: "net", cidr: "10.8.0.0/16", regionCode: "us-east-1" });
    const peering = await api.createPeering(projectId, vpc.id, {
      peerAccountId: "123456789012",
      peerRegionCode: "us-east-1",
      peerVpcId: "vpc-peer-1",
    });
    expect(peering).toMatchObject({
      peer_account_id: "123456789012",
      peer_region_code: "us-east-1",
      peer_vpc_id: "vpc-peer-1",
      status: "pending",
    });
    const active = await until(
      () => api.getPeering(projectId, vpc.id, peering.id),
      (p) => p.status !== "pending",
      "peering settled",
    );
    expect(active.status).toBe("active");
    expect(active.provisioned_id).toEqual(expect.any(String));

    const broken = await api.createPeering(projectId, vpc.id, {
      peerAccountId: "123456789012",
      peerRegionCode: "eu-west-1",
      peerVpcId: "unreachable-vpc",
    });
    const failed: VpcPeering = await until(
      () => api.getPeering(projectId, vpc.id, broken.id),
      (p) => p.status !== "pending",
      "peering settled",
    );
    expect(failed.status).toBe("failed");
    expect(failed.error_message).toContain("unreachable-vpc");

    expect((await api.listPeerings(projectId, vpc.id)).map((p) => p.id)).toEqual([peering.id, broken.id]);
    await expect(api.deletePeering(projectId, vpc.id, peering.id)).resolves.toBeUndefined();
    await api.deletePeering(projectId, vpc.id, broken.id);
    expect(await api.listPeerings(projectId, vpc.id)).toEqual([]);
    expect(await presence(() => api.getPeering(projectId, vpc.id, peering.id))).toBe("gone");
  });

  it("creates, resizes, pools, tags and deletes a read replica set", async () => {
    const { service_id: id } = await readyService("primary", "PROD");
    const created = await api.createReplicaSet(projectId, id, {
      name: "reads",
      nodes: 2,
      cpuMillis: 500,
      memoryGbs: 2,
    });
    expect(created).toMatchObject({
      name: "reads",
      nodes: 2,
      cpu_millis: 500,
      memory_gbs: 2,
      status: "creating",
      metadata: { environment: "PROD" },
    });
    const rsId = created.id;
    const active = await until(
      () => replicaSetOf(id, rsId),
      (r) => r?.status === "active",
      "replica set active",
    );
    expect(active?.endpoint?.port).toBe(5432);

    await expect(
      api.resizeReplicaSet(projectId, id, rsId, { cpuMillis: 1000, memoryGbs: 4, nodes: 3 }),
    ).resolves.toEqual({ message: expect.any(String) });
    expect((await replicaSetOf(id, rsId))?.status).toBe("resizing");
    const resized = await until(
      () => replicaSetOf(id, rsId),
      (r) => r?.status === "active",
      "resized",
    );
    expect(resized).toMatchObject({ nodes: 3, cpu_millis: 1000, memory_gbs: 4 });

    expect((await api.enableReplicaSetPooler(projectId, id, rsId)).message).toEqual(expect.any(String));
    expect((await replicaSetOf(id, rsId))?.connection_pooler?.endpoint?.port).toBe(6432);
    expect((await api.disableReplicaSetPooler(projectId, id, rsId)).message).toEqual(expect.any(String));
    expect((await replicaSetOf(id, rsId))?.connection_pooler ?? null).toBeNull();

    expect(
      (await api.setReplicaSetEnvironment(projectId, id, rsId, { environment: "DEV" })).message,
    ).toContain("DEV");
    expect((await replicaSetOf(id, rsId))?.metadata?.environment).toBe("DEV");
    // The service's own record lists its replica sets too.
    expect((await api.getService(projectId, id)).read_replica_sets?.map((r) => r.id)).toEqual([rsId]);

    await expect(api.deleteReplicaSet(projectId, id, rsId)).resolves.toMatchObject({ code: "ACCEPTED" });
    await until(
      () => api.listReplicaSets(projectId, id),
      (sets) => sets.length === 0,
      "replica set gone",
    );
  });
});

describe("endpoint rules", () => {
  it("refuses http:// to a non-loopback host at construction, accepts https and loopback http", () => {
    expect(() => newClient({ baseUrl: "http://api.example.com" })).toThrow(/https:\/\//);
    expect(() => newClient({ baseUrl: "http://10.0.0.5:8080/public/api/v1" })).toThrow(/non-loopback/);
    expect(newClient({ baseUrl: "https://api.example.com" }).http.baseUrl).toBe(
      "https://api.example.com/public/api/v1",
    );
    expect(newClient({ baseUrl: emu.url }).http.baseUrl).toBe(emu.url);
    expect(newClient({ baseUrl: emu.origin }).http.baseUrl).toBe(emu.url);
  });

  it("reaches the emulator through its origin alone (the API prefix is added)", async () => {
    const info = await newClient({ baseUrl: emu.origin }).getAuthInfo();
    expect(info.apiKey.project.id).toBe(projectId);
    expect((await emu.requests()).map((r) => r.path)).toEqual(["/public/api/v1/auth/info"]);
  });

  it("names the package and its version in the User-Agent", async () => {
    await newClient().getAuthInfo();
    const { version } = require("../../package.json") as { version: string };
    const [entry] = await emu.requests();
    expect(entry.userAgent).toBe(`pulumi-managed-db/${version} (node ${process.version})`);
  });
});

describe("auth info under either name", () => {
  /** A loopback server answering `GET /auth/info` with `body`, as another service version would. */
  async function authInfoServer(body: unknown): Promise<http.Server> {
    const server = http.createServer((request, response) => {
      const known = request.method === "GET" && request.url === "/public/api/v1/auth/info";
      response.writeHead(known ? 200 : 404, { "content-type": "application/json" });
      response.end(JSON.stringify(known ? body : { code: "NOT_FOUND", message: "no route" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return server;
  }

  const key = { public_key: "pk-1", project: { id: "proj-1", name: "one" } };

  it.each([
    ["api_key only (the current name)", { type: "apiKey", api_key: key }],
    ["apiKey only (the deprecated alias)", { type: "apiKey", apiKey: key }],
    ["both", { type: "apiKey", api_key: key, apiKey: key }],
  ])("reads %s, and gives it as apiKey", async (_what, body) => {
    const server = await authInfoServer(body);
    try {
      const { port } = server.address() as { port: number };
      const info = await newClient({ baseUrl: `http://127.0.0.1:${port}` }).getAuthInfo();
      expect(info.apiKey).toEqual(key);
      expect(info.apiKey.project.id).toBe("proj-1");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("fails as an unexpected answer when neither is there", async () => {
    const server = await authInfoServer({ type: "apiKey" });
    try {
      const { port } = server.address() as { port: number };
      const error = await apiFailure(newClient({ baseUrl: `http://127.0.0.1:${port}` }).getAuthInfo());
      expect(error).toMatchObject({ status: 200, code: "UNEXPECTED_RESPONSE" });
      expect(error.apiMessage).toContain("api_key");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("reads both from the emulator, the same key", async () => {
    const info = await api.getAuthInfo();
    expect(info.api_key).toEqual(info.apiKey);
  });
});

describe("the vendor's additions, against the emulator speaking the vendor's words", () => {
  let vendor: TestEmulator;
  let client: MdbApi;
  beforeAll(async () => {
    vendor = await startTestEmulator({ dialect: "vendor" });
    const { publicKey, secretKey } = vendor.credentials;
    client = recording(new MdbApi({ baseUrl: vendor.url, publicKey, secretKey }));
  });
  afterAll(() => vendor.close());

  /** A READY service of the vendor emulator's project. */
  async function vendorService(name: string): Promise<string> {
    const project = vendor.credentials.projectId;
    const created = await client.createService(project, { name, cpuMillis: 1000, memoryGbs: 4 });
    for (let i = 0; i < 200; i++) {
      if ((await client.getService(project, created.service_id)).status === "READY") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return created.service_id;
  }

  it("renames a service in place, lists the key's projects, and logs out", async () => {
    const project = vendor.credentials.projectId;
    const id = await vendorService("before");
    const renamed = await client.renameService(project, id, { name: "after" });
    expect(renamed).toMatchObject({ service_id: id, name: "after" });
    expect(await client.listProjects()).toContainEqual(expect.objectContaining({ id: project }));
    await expect(client.logout()).resolves.toBeUndefined();
  });

  it("reads a service's logs (its query as the URL's, checked first) and metric series", async () => {
    const project = vendor.credentials.projectId;
    const id = await vendorService("observed");
    const logs = await client.getServiceLogs(project, id, {
      since: "2020-01-01T00:00:00Z",
      search: ["a", "b"],
    });
    expect(Array.isArray(logs.logs)).toBe(true);
    await expect(client.getServiceLogs(project, id, { node: "first" })).rejects.toThrow(/node: must be/);
    const names = await client.listServiceMetricSeries(project, id);
    expect(names.length).toBeGreaterThan(0);
    const now = Date.now();
    const series = await client.getServiceMetricSeries(project, id, {
      name: names[0],
      from: new Date(now - 3_600_000).toISOString(),
      to: new Date(now).toISOString(),
    });
    expect(Array.isArray(series)).toBe(true);
  });
});

describe("coverage", () => {
  it("the tests above called each of the 40 operations of MdbApi", () => {
    const helpers = new Set(["constructor", "call", "withSignal"]);
    const methods = Object.getOwnPropertyNames(MdbApi.prototype).filter((name) => !helpers.has(name));
    expect(OPERATIONS).toHaveLength(40);
    expect([...methods].sort()).toEqual([...OPERATIONS].sort());
    // The client's method names are the ids of the operations table that drives it.
    expect([...OPERATION_IDS].sort()).toEqual([...OPERATIONS].sort());
    expect(OPERATIONS.filter((op) => !exercised.has(op))).toEqual([]);
  });
});
