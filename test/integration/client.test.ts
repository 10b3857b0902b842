/**
 * The API client against the emulator over real HTTP: every one of the 34 operations in a
 * realistic flow, retries under injected 429/5xx/dropped connections (counted in the emulator's
 * request log), creates that are never sent twice after an ambiguous failure, the details errors
 * carry, and no credential or password in any error text.
 *
 * The emulator's request log records method, path, status and arrival time only, not headers, so
 * the User-Agent is not checked here.
 */
import * as net from "node:net";
import * as util from "node:util";
import { OPERATION_IDS } from "../../api/operations";
import { MdbApi } from "../../provider/client/api";
import { MdbApiError, MdbRequestError } from "../../provider/client/errors";
import type { HttpClientOptions } from "../../provider/client/http";
import type { ReadReplicaSet, Service, VpcPeering } from "../../provider/client/schemas";
import type { LoggedRequest } from "../../emulator";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

/** Distinctive, so that a leak into any error text cannot go unnoticed. */
const SECRET_KEY = "sk-VERY-SECRET-123";
const PASSWORD = "pw-DISTINCTIVE-hunter2-456";
const FAST_BACKOFF = { initialMs: 10, maxMs: 50 };

/** The 34 operations of the spec, as the client names them. */
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
] as const;

let emu: TestEmulator;
let projectId: string;
/** The client under test; records which operations the tests called. */
let api: MdbApi;
const exercised = new Set<string>();

/** A client of the test emulator; `overrides` change any option (e.g. a wrong secret). */
function newClient(overrides: Partial<HttpClientOptions> = {}): MdbApi {
  return new MdbApi({
    baseUrl: emu.url,
    publicKey: emu.credentials.publicKey,
    secretKey: SECRET_KEY,
    backoff: FAST_BACKOFF,
    ...overrides,
  });
}

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

beforeAll(async () => {
  emu = await startTestEmulator({ secretKey: SECRET_KEY });
  projectId = emu.credentials.projectId;
  api = recording(newClient());
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The regular expression of a fault rule matching exactly this API path. */
const exactPath = (path: string) => `^${escape(`/public/api/v1/projects/${projectId}${path}`)}$`;
/** The full path the request log shows for an API path below the project. */
const loggedPath = (path: string) => `/public/api/v1/projects/${projectId}${path}`;

/** The logged requests to one path, as `METHOD status` strings, in order. */
async function logOf(method: string, path: string): Promise<string[]> {
  const log = await emu.requests();
  return log
    .filter((r) => r.method === method && r.path === loggedPath(path))
    .map((r) => `${method} ${r.status}`);
}

/** Polls `probe` until `ok` holds (lifecycle steps last 30 ms here). */
function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  return emu.waitFor(probe, ok, { what, intervalMs: 10, timeoutMs: 5000 });
}

function serviceInStatus(id: string, status: string): Promise<Service> {
  return until(
    () => api.getService(projectId, id),
    (s) => s.status === status,
    `service ${id} ${status}`,
  );
}

/** "gone" once a get of the record answers 404; other failures fail the test. */
async function presence(get: () => Promise<unknown>): Promise<"present" | "gone"> {
  try {
    await get();
    return "present";
  } catch (error) {
    if (error instanceof MdbApiError && error.status === 404) return "gone";
    throw error;
  }
}

async function readyService(name = "db", environment: "PROD" | "DEV" = "DEV"): Promise<Service> {
  const created = await api.createService(projectId, {
    name,
    regionCode: "us-east-1",
    cpuMillis: 500,
    memoryGbs: 2,
    environment,
  });
  return serviceInStatus(created.service_id, "READY");
}

function replicaSetOf(serviceId: string, id: string): Promise<ReadReplicaSet | undefined> {
  return api.listReplicaSets(projectId, serviceId).then((sets) => sets.find((r) => r.id === id));
}

/** Awaits `promise` and returns what it rejected with; fails the test if it resolved. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

async function apiFailure(promise: Promise<unknown>): Promise<MdbApiError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(MdbApiError);
  return error as MdbApiError;
}

describe("every operation against the emulator", () => {
  it("reads the key's auth info and acknowledges identify and track", async () => {
    const info = await api.getAuthInfo();
    expect(info.type).toBe("apiKey");
    expect(info.apiKey.public_key).toBe(emu.credentials.publicKey);
    expect(info.apiKey.project.id).toBe(projectId);

    await expect(api.identify({ team: "infra", plan: "pro" })).resolves.toEqual({ status: "ok" });
    await expect(api.identify()).resolves.toEqual({ status: "ok" });
    await expect(api.track("stack-updated", { resources: 3 })).resolves.toEqual({ status: "ok" });
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
      serviceType: "VECTOR",
      regionCode: "eu-west-1",
      cpuMillis: 1000,
      memoryGbs: 4,
      replicaCount: 1,
      environment: "PROD",
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

    await expect(api.resizeService(projectId, id, 2000, 8)).resolves.toBeUndefined();
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

    expect((await api.setServiceEnvironment(projectId, id, "DEV")).message).toContain("DEV");
    expect((await api.getService(projectId, id)).metadata?.environment).toBe("DEV");

    await expect(api.updatePassword(projectId, id, PASSWORD)).resolves.toBeUndefined();
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
      serviceType: "TIMESERIESDB",
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
      strategy: "NOW",
      name: "source-copy",
      cpuMillis: 1000,
      memoryGbs: 4,
      environment: "PROD",
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
      strategy: "PITR",
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
    expect(await api.renameVpc(projectId, vpc.id, "net-renamed")).toEqual({ ...vpc, name: "net-renamed" });
    expect((await api.getVpc(projectId, vpc.id)).name).toBe("net-renamed");

    const { service_id: id } = await readyService();
    expect((await api.attachToVpc(projectId, id, vpc.id)).message).toContain(vpc.id);
    const attached = await serviceInStatus(id, "READY");
    expect(attached.vpcEndpoint).toMatchObject({ vpc_id: vpc.id, port: 5432 });
    // A VPC in use cannot go.
    expect((await apiFailure(api.deleteVpc(projectId, vpc.id))).status).toBe(409);

    expect((await api.detachFromVpc(projectId, id, vpc.id)).message).toContain(vpc.id);
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
    ).resolves.toBeUndefined();
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

    expect((await api.setReplicaSetEnvironment(projectId, id, rsId, "DEV")).message).toContain("DEV");
    expect((await replicaSetOf(id, rsId))?.metadata?.environment).toBe("DEV");
    // The service's own record lists its replica sets too.
    expect((await api.getService(projectId, id)).read_replica_sets?.map((r) => r.id)).toEqual([rsId]);

    await expect(api.deleteReplicaSet(projectId, id, rsId)).resolves.toBeUndefined();
    await until(
      () => api.listReplicaSets(projectId, id),
      (sets) => sets.length === 0,
      "replica set gone",
    );
  });
});

describe("retries", () => {
  it("a GET that meets two 503s succeeds on the third request", async () => {
    const { service_id: id } = await readyService();
    const retries: string[] = [];
    const client = newClient({ onRetry: (info) => retries.push(`${info.operation} ${info.reason}`) });
    await emu.setFaults({
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 2, status: 503 }],
    });
    await emu.clearRequests();

    const service = await client.getService(projectId, id);
    expect(service.service_id).toBe(id);
    expect(await emu.requests()).toEqual([
      expect.objectContaining({ method: "GET", path: loggedPath(`/services/${id}`), status: 503 }),
      expect.objectContaining({ method: "GET", path: loggedPath(`/services/${id}`), status: 503 }),
      expect.objectContaining({ method: "GET", path: loggedPath(`/services/${id}`), status: 200 }),
    ]);
    expect(retries).toEqual(["getService HTTP 503", "getService HTTP 503"]);
  });

  it("a GET rate limited twice waits the Retry-After of each 429, then succeeds", async () => {
    const { service_id: id } = await readyService();
    const delays: number[] = [];
    const client = newClient({ onRetry: (info) => delays.push(info.delayMs) });
    await emu.setFaults({
      retryAfterSeconds: 1,
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 2, status: 429 }],
    });
    await emu.clearRequests();

    expect((await client.getService(projectId, id)).service_id).toBe(id);
    const log: LoggedRequest[] = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["GET 429", "GET 429", "GET 200"]);
    const at = log.map((r) => Date.parse(r.at));
    // 1 s asked, not the 10-50 ms backoff; a few ms of timer slack allowed.
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(990);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(990);
    expect(delays).toEqual([1000, 1000]);
  });

  it("a GET whose connection is dropped twice succeeds on the third request", async () => {
    const { service_id: id } = await readyService();
    await emu.setFaults({
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 2, drop: true }],
    });
    await emu.clearRequests();

    expect((await api.getService(projectId, id)).service_id).toBe(id);
    // The log reports a dropped connection as status 0.
    expect(await logOf("GET", `/services/${id}`)).toEqual(["GET 0", "GET 0", "GET 200"]);
    expect(await emu.requests()).toHaveLength(3);
  });

  it("an idempotent POST (resize) that meets a 500 is sent again and takes effect", async () => {
    const { service_id: id } = await readyService();
    await emu.setFaults({
      rules: [{ method: "POST", path: exactPath(`/services/${id}/resize`), status: 500 }],
    });
    await emu.clearRequests();

    await expect(api.resizeService(projectId, id, 1000, 4)).resolves.toBeUndefined();
    expect(await logOf("POST", `/services/${id}/resize`)).toEqual(["POST 500", "POST 202"]);
    const resized = await serviceInStatus(id, "READY");
    expect(resized.resources?.[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
  });

  it("gives up after maxRetries and reports the last status", async () => {
    const { service_id: id } = await readyService();
    const client = newClient({ maxRetries: 2 });
    await emu.setFaults({
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 10, status: 502 }],
    });
    await emu.clearRequests();

    const error = await apiFailure(client.getService(projectId, id));
    expect(error).toMatchObject({
      status: 502,
      code: "BAD_GATEWAY",
      operation: "getService",
      resourceId: id,
    });
    expect(await logOf("GET", `/services/${id}`)).toEqual(["GET 502", "GET 502", "GET 502"]);
  });
});

describe("a create is never sent twice after an ambiguous failure", () => {
  const servicesPath = () => exactPath("/services");
  const input = { name: "once", regionCode: "us-east-1", cpuMillis: 500, memoryGbs: 2 };

  it("a 500 after the service was created: ambiguous, one POST, one service", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: servicesPath(), status: 500, after: true }] });

    const error = await apiFailure(api.createService(projectId, input));
    expect(error).toMatchObject({ status: 500, operation: "createService", ambiguous: true });
    expect(await logOf("POST", "/services")).toEqual(["POST 500"]);
    expect((await api.listServices(projectId)).map((s) => s.name)).toEqual(["once"]);
  });

  it("a connection dropped after the service was created: ambiguous, one POST, one service", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: servicesPath(), drop: true, after: true }] });

    const error = await apiFailure(api.createService(projectId, input));
    expect(error).toMatchObject({ status: undefined, code: "NETWORK_ERROR", ambiguous: true });
    expect(await logOf("POST", "/services")).toEqual(["POST 0"]);
    expect((await api.listServices(projectId)).map((s) => s.name)).toEqual(["once"]);
  });

  it("a 5xx before processing is not retried either: the client cannot tell it from one after", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: servicesPath(), status: 503 }] });

    const error = await apiFailure(api.createService(projectId, input));
    expect(error).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", ambiguous: true });
    expect(await logOf("POST", "/services")).toEqual(["POST 503"]);
    expect(await api.listServices(projectId)).toEqual([]);
  });

  it("a 429 is retried (never processed): two POSTs, one service", async () => {
    await emu.setFaults({
      retryAfterSeconds: 0,
      rules: [{ method: "POST", path: servicesPath(), status: 429 }],
    });

    const created = await api.createService(projectId, input);
    expect(created.name).toBe("once");
    expect(await logOf("POST", "/services")).toEqual(["POST 429", "POST 202"]);
    expect((await api.listServices(projectId)).map((s) => s.service_id)).toEqual([created.service_id]);
  });

  it("the other creates (fork, replica set, VPC, peering, track) are not repeated after a 500 either", async () => {
    const { service_id: id } = await readyService();
    const vpc = await api.createVpc(projectId, { name: "n", cidr: "10.1.0.0/16", regionCode: "us-east-1" });
    await emu.setFaults({
      rules: [
        { method: "POST", path: exactPath(`/services/${id}/forkService`), status: 500, after: true },
        { method: "POST", path: exactPath(`/services/${id}/replicaSets`), status: 500, after: true },
        { method: "POST", path: exactPath("/vpcs"), status: 500, after: true },
        { method: "POST", path: exactPath(`/vpcs/${vpc.id}/peerings`), status: 500, after: true },
        { method: "POST", path: "^/public/api/v1/analytics/track$", status: 500, after: true },
      ],
    });
    await emu.clearRequests();

    const attempts: Array<[string, () => Promise<unknown>]> = [
      ["forkService", () => api.forkService(projectId, id, { strategy: "NOW" })],
      [
        "createReplicaSet",
        () => api.createReplicaSet(projectId, id, { name: "r", nodes: 1, cpuMillis: 500, memoryGbs: 2 }),
      ],
      [
        "createVpc",
        () => api.createVpc(projectId, { name: "n2", cidr: "10.2.0.0/16", regionCode: "us-east-1" }),
      ],
      [
        "createPeering",
        () =>
          api.createPeering(projectId, vpc.id, { peerAccountId: "a", peerRegionCode: "r", peerVpcId: "v" }),
      ],
      ["track", () => api.track("deployed")],
    ];
    for (const [operation, attempt] of attempts) {
      expect(await apiFailure(attempt())).toMatchObject({ operation, status: 500, ambiguous: true });
    }
    const posts = (await emu.requests()).filter((r) => r.method === "POST");
    expect(posts.map((r) => r.status)).toEqual([500, 500, 500, 500, 500]);
    expect(await api.listServices(projectId)).toHaveLength(2);
    expect(await api.listReplicaSets(projectId, id)).toHaveLength(1);
    expect(await api.listVpcs(projectId)).toHaveLength(2);
    expect(await api.listPeerings(projectId, vpc.id)).toHaveLength(1);
  });
});

describe("errors carry status, code and message", () => {
  it("404 for an unknown id names the operation and the resource", async () => {
    const error = await apiFailure(api.getService(projectId, "svc-does-not-exist"));
    expect(error).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
      operation: "getService",
      resourceId: "svc-does-not-exist",
      ambiguous: false,
      isNotFound: true,
    });
    expect(error.apiMessage).toContain("svc-does-not-exist");
    expect(error.message).toBe(
      `getService (svc-does-not-exist) failed: HTTP 404 NOT_FOUND: ${error.apiMessage}`,
    );
    // A definite answer is not retried.
    expect(await emu.requests()).toHaveLength(1);
  });

  it("409 for a resize while CONFIGURING, with the API's message, not retried", async () => {
    const { service_id: id } = await readyService();
    const error = await emu.withTransitionMs(async () => {
      await api.resizeService(projectId, id, 1000, 4);
      await emu.clearRequests();
      return apiFailure(api.resizeService(projectId, id, 2000, 8));
    });
    expect(error).toMatchObject({
      status: 409,
      code: "CONFLICT",
      operation: "resizeService",
      resourceId: id,
      isConflict: true,
      ambiguous: false,
    });
    expect(error.apiMessage).toContain("CONFIGURING");
    expect(error.message).toContain("HTTP 409 CONFLICT");
    expect(await logOf("POST", `/services/${id}/resize`)).toEqual(["POST 409"]);
  });

  it("401 for a wrong secret key, not retried", async () => {
    const error = await apiFailure(newClient({ secretKey: "sk-WRONG-KEY-000" }).getAuthInfo());
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED", operation: "getAuthInfo" });
    expect(await emu.requests()).toHaveLength(1);
  });

  it("an invalid input is refused before sending, naming the API field", async () => {
    const { service_id: id } = await readyService();
    await emu.clearRequests();

    const resize = await failure(api.resizeService(projectId, id, -5, 4));
    expect(resize).toBeInstanceOf(MdbRequestError);
    expect((resize as Error).message).toMatch(/^resizeService: invalid request: .*cpu_millis/);

    const create = await failure(
      api.createService(projectId, { name: "x", regionCode: "us-east-1", cpuMillis: -5, memoryGbs: 2 }),
    );
    expect(create).toBeInstanceOf(MdbRequestError);
    expect((create as Error).message).toContain("cpu_millis");

    const fork = await failure(api.forkService(projectId, id, { strategy: "PITR" }));
    expect(fork).toBeInstanceOf(MdbRequestError);
    expect((fork as Error).message).toContain("target_time");

    const vpc = await failure(api.createVpc(projectId, { name: "n", cidr: "10.0.0.0/99", regionCode: "r" }));
    expect(vpc).toBeInstanceOf(MdbRequestError);
    expect((vpc as Error).message).toContain("cidr");

    expect(await emu.requests()).toEqual([]);
  });

  it("a timeout is retried for a GET, then reported as TIMEOUT", async () => {
    const { service_id: id } = await readyService();
    const client = newClient({ timeoutMs: 50, maxRetries: 1 });
    await emu.setFaults({ latencyMs: 200 });
    await emu.clearRequests();

    const error = await apiFailure(client.getService(projectId, id));
    expect(error).toMatchObject({
      code: "TIMEOUT",
      status: undefined,
      ambiguous: true,
      operation: "getService",
    });
    // Both attempts reached the emulator; wait for their connections to end before the next test.
    await emu.setFaults({});
    await until(emu.requests, (log) => log.length === 2, "both attempts logged");
  });
});

describe("no secret in any error", () => {
  const basic = (publicKey: string, secretKey: string) =>
    Buffer.from(`${publicKey}:${secretKey}`).toString("base64");

  /** Asserts that no text form of `error` holds any of `secrets`. */
  function expectClean(error: unknown, secrets: string[]): void {
    expect(error).toBeInstanceOf(Error);
    const e = error as Error;
    const texts = {
      string: String(e),
      message: e.message,
      json: JSON.stringify(e),
      stack: e.stack ?? "",
      inspect: util.inspect(e, { depth: 10 }),
    };
    for (const [form, text] of Object.entries(texts)) {
      for (const secret of secrets) {
        if (text.includes(secret)) throw new Error(`${form} of ${e.name} holds "${secret}":\n${text}`);
      }
    }
  }

  /** A loopback port on which nothing listens. */
  async function closedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it("holds for 401, 404, 409, network, timeout and invalid-input errors, and for a failed password change", async () => {
    const publicKey = emu.credentials.publicKey;
    const secrets = [SECRET_KEY, PASSWORD, basic(publicKey, SECRET_KEY)];
    const errors: unknown[] = [];

    const wrongSecret = "sk-WRONG-BUT-SECRET-777";
    const unauthorized = await apiFailure(
      newClient({ secretKey: wrongSecret }).getService(projectId, "svc-x"),
    );
    expect(unauthorized.status).toBe(401);
    expectClean(unauthorized, [wrongSecret, basic(publicKey, wrongSecret), PASSWORD]);

    const notFound = await apiFailure(api.updatePassword(projectId, "svc-unknown", PASSWORD));
    expect(notFound.status).toBe(404);
    errors.push(notFound, await apiFailure(api.getService(projectId, "svc-unknown")));

    const { service_id: id } = await readyService();
    const conflict = await emu.withTransitionMs(async () => {
      await api.resizeService(projectId, id, 1000, 4);
      return apiFailure(api.updatePassword(projectId, id, PASSWORD));
    });
    expect(conflict.status).toBe(409);
    errors.push(conflict);

    const injected = await emu.setFaults({
      rules: [{ method: "POST", path: exactPath(`/services/${id}/updatePassword`), count: 10, status: 500 }],
    });
    expect(injected.rules).toHaveLength(1);
    const serverError = await apiFailure(
      newClient({ maxRetries: 1 }).updatePassword(projectId, id, PASSWORD),
    );
    expect(serverError.status).toBe(500);
    errors.push(serverError);
    await emu.setFaults({});

    const port = await closedPort();
    const offline = newClient({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
    const refused = await apiFailure(offline.updatePassword(projectId, id, PASSWORD));
    expect(refused).toMatchObject({ code: "NETWORK_ERROR", status: undefined, ambiguous: false });
    expect(refused.apiMessage).toContain("ECONNREFUSED");
    errors.push(refused, await apiFailure(offline.getAuthInfo()));

    await emu.setFaults({ latencyMs: 200 });
    const timedOut = await apiFailure(
      newClient({ timeoutMs: 50, maxRetries: 0 }).updatePassword(projectId, id, PASSWORD),
    );
    expect(timedOut.code).toBe("TIMEOUT");
    errors.push(timedOut);
    await emu.setFaults({});

    const tooShort = "Zq9#xY7";
    const invalid = await failure(api.updatePassword(projectId, id, tooShort));
    expect(invalid).toBeInstanceOf(MdbRequestError);
    expectClean(invalid, [...secrets, tooShort]);

    for (const error of errors) expectClean(error, secrets);
    // Let the timed-out request finish on the emulator before the next test resets it.
    await new Promise((resolve) => setTimeout(resolve, 250));
  });

  it("holds when the URL is refused at construction", () => {
    let error: unknown;
    try {
      newClient({ baseUrl: "http://api.example.com/public/api/v1" });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toMatch(/plain http:\/\/ to a non-loopback host/);
    expectClean(error, [SECRET_KEY, basic(emu.credentials.publicKey, SECRET_KEY)]);
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

describe("coverage", () => {
  it("the tests above called each of the 34 operations of MdbApi", () => {
    const helpers = new Set(["constructor", "call", "svc", "rrs", "vpc", "peering"]);
    const methods = Object.getOwnPropertyNames(MdbApi.prototype).filter((name) => !helpers.has(name));
    expect(OPERATIONS).toHaveLength(34);
    expect([...methods].sort()).toEqual([...OPERATIONS].sort());
    // The client's method names are the ids of the operations table that drives it.
    expect([...OPERATION_IDS].sort()).toEqual([...OPERATIONS].sort());
    expect(OPERATIONS.filter((op) => !exercised.has(op))).toEqual([]);
  });
});
