/**
 * The emulator serves clients written by others from the vendor's description of the API, unchanged:
 * what such clients send and read, over real HTTP, with the status and body they need. Every answer
 * is also checked against the strict contract (see helpers.ts).
 */
import { STRICT_RECORDS, type Service } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { startConformanceEmulator } from "./helpers";

const { ReadReplicaSet: ReplicaSetSchema, Service: ServiceSchema } = STRICT_RECORDS;

let emu: TestEmulator;
let p: string;

beforeAll(async () => {
  emu = await startConformanceEmulator();
  p = emu.projectPath;
});
afterAll(() => emu.close());

/** Waits until the service is READY, and reads it. */
function readyService(id: string): Promise<Service> {
  return emu.waitFor(
    async () => ServiceSchema.parse((await emu.api("GET", `${p}/services/${id}`)).body),
    (s) => s.status === "READY",
    { what: `service ${id} READY` },
  );
}

describe("create service with add-ons", () => {
  it.each([
    [["time-series", "ai"], "TIMESERIESDB"],
    [["ai", "time-series"], "TIMESERIESDB"],
    [["ai"], "VECTOR"],
    [["time-series"], "TIMESERIESDB"],
    [[], "POSTGRES"],
  ])("%j: 202 with service_type %s", async (addons, serviceType) => {
    const response = await emu.api("POST", `${p}/services`, { name: "addons", addons });
    expect(response.status).toBe(202);
    expect(ServiceSchema.parse(response.body)).toMatchObject({ name: "addons", service_type: serviceType });
  });

  it("the vendor's example pair is kept once READY", async () => {
    const created = await emu.api<Service>("POST", `${p}/services`, {
      name: "metrics",
      addons: ["time-series", "ai"],
    });
    const ready = await emu.waitFor(
      async () =>
        ServiceSchema.parse((await emu.api("GET", `${p}/services/${created.body.service_id}`)).body),
      (s) => s.status === "READY",
    );
    expect(ready.service_type).toBe("TIMESERIESDB");
  });
});

describe("connection details from the first answer", () => {
  it("create service answers 202 QUEUED with the endpoint the service keeps", async () => {
    const response = await emu.withTransitionMs(() => emu.api("POST", `${p}/services`, { name: "early" }));
    expect(response.status).toBe(202);
    const created = ServiceSchema.parse(response.body);
    expect(created.status).toBe("QUEUED");
    expect(created.endpoint).toEqual({ host: expect.stringContaining(created.service_id), port: 5432 });
    const ready = await readyService(created.service_id);
    expect(ready.endpoint).toEqual(created.endpoint);
  });

  it("fork answers 202 QUEUED with the fork's own endpoint", async () => {
    const source = (await emu.api<Service>("POST", `${p}/services`, { name: "source" })).body;
    await readyService(source.service_id);
    const response = await emu.api("POST", `${p}/services/${source.service_id}/forkService`, {
      fork_strategy: "NOW",
    });
    expect(response.status).toBe(202);
    const fork = ServiceSchema.parse(response.body);
    expect(fork.status).toBe("QUEUED");
    expect(fork.endpoint).toEqual({ host: expect.stringContaining(fork.service_id), port: 5432 });
    expect(fork.endpoint?.host).not.toBe(source.endpoint?.host);
  });

  it("create replica set answers 202 creating with its endpoint; the pooler's endpoint comes with enablePooler", async () => {
    const service = (await emu.api<Service>("POST", `${p}/services`, { name: "primary" })).body;
    await readyService(service.service_id);
    const sets = `${p}/services/${service.service_id}/replicaSets`;
    const response = await emu.withTransitionMs(() =>
      emu.api("POST", sets, { name: "readers", nodes: 1, cpu_millis: 250, memory_gbs: 1 }),
    );
    expect(response.status).toBe(202);
    const created = ReplicaSetSchema.parse(response.body);
    expect(created.status).toBe("creating");
    expect(created.endpoint).toEqual({ host: expect.stringContaining(created.id), port: 5432 });
    const active = await emu.waitFor(
      async () => ReplicaSetSchema.array().parse((await emu.api("GET", sets)).body)[0],
      (r) => r.status === "active",
    );
    expect((await emu.api("POST", `${sets}/${created.id}/enablePooler`)).status).toBe(200);
    const pooled = ReplicaSetSchema.array().parse((await emu.api("GET", sets)).body)[0];
    expect(pooled.endpoint).toEqual(active.endpoint);
    expect(pooled.connection_pooler?.endpoint).toEqual({ host: active.endpoint?.host, port: 6432 });
  });
});

describe("auth info under both names", () => {
  it("200 with the key as `api_key` (current name) and as `apiKey` (deprecated alias), the same object", async () => {
    const response = await emu.api<Record<string, unknown>>("GET", "/auth/info");
    expect(response.status).toBe(200);
    const key = {
      public_key: emu.credentials.publicKey,
      name: expect.any(String),
      created: expect.any(String),
      project: { id: emu.credentials.projectId, name: expect.any(String), plan_type: expect.any(String) },
      issuing_user: { id: expect.any(String), name: expect.any(String), email: expect.any(String) },
    };
    expect(response.body).toEqual({ type: "apiKey", api_key: key, apiKey: key });
    expect(response.body.api_key).toEqual(response.body.apiKey);
  });
});
