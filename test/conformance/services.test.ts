/**
 * Conformance of the service operations that create, read, pause, resize and delete over real HTTP:
 * success status and strict body, 400 naming the field, 409 in a forbidden state, and the lifecycle a
 * client waits for, in each dialect (its words for the time-series type and `paused`; sizes sent as
 * strings of digits, which both take). The other service operations: service-actions.test.ts.
 */
import { STRICT_RECORDS, type Service } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { DIALECT_CASES, expectConflict, expectInvalid, startConformanceEmulator } from "./helpers";
import { serviceCalls } from "./service-calls";

const { Service } = STRICT_RECORDS;

/** Each dialect's word for the time-series service type. */
const TIME_SERIES = { seed: "TIMESERIESDB", vendor: "TIMESCALEDB" } as const;

describe.each(DIALECT_CASES)("%s dialect", (dialect) => {
  let emu: TestEmulator;
  let p: string;

  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
    p = emu.projectPath;
  });
  afterAll(() => emu.close());

  const { path, getService, waitForStatus, createReadyService, createQueuedService } = serviceCalls(
    () => emu,
  );

  describe("Create a Service", () => {
    it("202 with the Service, its initial password and its endpoint; QUEUED, then CONFIGURING, then READY", async () => {
      const response = await emu.withTransitionMs(() =>
        emu.api("POST", `${p}/services`, {
          name: "metrics",
          addons: ["time-series"],
          region_code: "eu-west-1",
          replica_count: 1,
          cpu_millis: "1000",
          memory_gbs: "4",
          environment_tag: "PROD",
        }),
      );
      expect(response.status).toBe(202);
      const created = Service.parse(response.body);
      expect(created).toMatchObject({
        project_id: emu.credentials.projectId,
        name: "metrics",
        region_code: "eu-west-1",
        service_type: TIME_SERIES[dialect],
        status: "QUEUED",
        paused: false,
        metadata: { environment: "PROD" },
        ha_replicas: { replica_count: 1, sync_replica_count: 0 },
        read_replica_sets: [],
      });
      expect(created.service_id).toMatch(/^[a-z0-9]{10}$/);
      expect(created.resources?.[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
      expect(created.initial_password).toEqual(expect.stringMatching(/.{12,}/));
      const endpoint = { host: `${created.service_id}.${created.project_id}.db.mdb.local`, port: 5432 };
      expect(created.endpoint).toEqual(endpoint);
      expect(Date.parse(created.created!)).toBeGreaterThan(Date.now() - 60_000);

      const seen = new Set<string>();
      const ready = await emu.waitFor(
        async () => {
          const s = await getService(created.service_id);
          seen.add(s.status);
          return s;
        },
        (s) => s.status === "READY",
        { intervalMs: 5 },
      );
      expect(seen).toContain("CONFIGURING");
      expect([...seen].every((s) => ["QUEUED", "CONFIGURING", "READY"].includes(s))).toBe(true);
      expect(ready.endpoint).toEqual(endpoint);
      expect(ready.initial_password).toBeUndefined();
    });

    it("the add-on picks the service type; only a name is required", async () => {
      const types = [];
      for (const addons of [undefined, [], ["ai"], ["time-series"]]) {
        const response = await emu.api<Service>("POST", `${p}/services`, { name: "typed", addons });
        expect(response.status).toBe(202);
        types.push(response.body.service_type);
      }
      expect(types).toEqual(["POSTGRES", "POSTGRES", "VECTOR", TIME_SERIES[dialect]]);
      const minimal = Service.parse((await emu.api("POST", `${p}/services`, { name: "minimal" })).body);
      expect(minimal).toMatchObject({ region_code: expect.any(String), metadata: { environment: "DEV" } });
      expect(minimal.resources?.[0].spec.cpu_millis).toBeGreaterThan(0);
    });

    it.each([
      ["name", { cpu_millis: "500" }],
      ["name", { name: "" }],
      ["cpu_millis", { name: "x", cpu_millis: 300 }],
      ["cpu_millis", { name: "x", cpu_millis: "65000" }],
      ["cpu_millis", { name: "x", cpu_millis: "1e3" }],
      ["memory_gbs", { name: "x", memory_gbs: 2048 }],
      ["addons.0", { name: "x", addons: ["graph"] }],
      ["environment_tag", { name: "x", environment_tag: "STAGING" }],
      ["replica_count", { name: "x", replica_count: 5 }],
    ])("400 naming %s for %j", async (field, body) => {
      expectInvalid(await emu.api("POST", `${p}/services`, body), field);
    });
  });

  describe("List All Services and Get a Service", () => {
    it("200 with the records, without initial_password", async () => {
      const created = (await emu.api<Service>("POST", `${p}/services`, { name: "listed" })).body;
      const list = await emu.api<unknown[]>("GET", `${p}/services`);
      expect(list.status).toBe(200);
      const services = list.body.map((s) => Service.parse(s));
      const listed = services.find((s) => s.service_id === created.service_id);
      expect(listed).toMatchObject({ name: "listed", service_type: "POSTGRES" });
      expect(services.every((s) => s.initial_password === undefined)).toBe(true);
      const one = await getService(created.service_id);
      expect(one.name).toBe("listed");
      expect(one.initial_password).toBeUndefined();
    });
  });

  describe("Stop a Service and Start a Service", () => {
    it("stop: 202 Service, PAUSING then PAUSED with paused true; start: 202 Service, RESUMING then READY", async () => {
      const service = await createReadyService();
      const stop = await emu.api("POST", path(service.service_id, "stop"));
      expect(stop.status).toBe(202);
      expect(Service.parse(stop.body).status).toBe("PAUSING");
      const paused = await waitForStatus(service.service_id, "PAUSED");
      expect(paused.paused).toBe(true);

      const start = await emu.api("POST", path(service.service_id, "start"));
      expect(start.status).toBe(202);
      expect(Service.parse(start.body).status).toBe("RESUMING");
      const ready = await waitForStatus(service.service_id, "READY");
      expect(ready.paused).toBe(false);
    });

    it("a repeated stop or start is accepted and changes nothing", async () => {
      const service = await createReadyService();
      const again = await emu.api<Service>("POST", path(service.service_id, "start"));
      expect(again.status).toBe(202);
      expect(again.body.status).toBe("READY");

      await emu.withTransitionMs(() => emu.api("POST", path(service.service_id, "stop")));
      const whilePausing = await emu.api<Service>("POST", path(service.service_id, "stop"));
      expect(whilePausing.status).toBe(202);
      expect(whilePausing.body.status).toBe("PAUSING");
      await waitForStatus(service.service_id, "PAUSED");
      const whilePaused = await emu.api<Service>("POST", path(service.service_id, "stop"));
      expect(whilePaused.status).toBe(202);
      expect(whilePaused.body).toMatchObject({
        status: "PAUSED",
        ...(dialect === "seed" ? { paused: true } : {}),
      });
    });

    it("409 naming the state: stop while QUEUED, start while PAUSING", async () => {
      const queued = await createQueuedService();
      expectConflict(await emu.api("POST", path(queued.service_id, "stop")), "QUEUED");
      const service = await createReadyService();
      await emu.withTransitionMs(() => emu.api("POST", path(service.service_id, "stop")));
      expectConflict(await emu.api("POST", path(service.service_id, "start")), "PAUSING");
    });
  });

  describe("Resize a Service", () => {
    it("202 with the service, CONFIGURING, then READY with the new resources", async () => {
      const service = await createReadyService({ cpu_millis: "500", memory_gbs: "2" });
      const response = await emu.withTransitionMs(() =>
        emu.api("POST", path(service.service_id, "resize"), { cpu_millis: "2000", memory_gbs: "8" }),
      );
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ service_id: service.service_id, status: "CONFIGURING" });
      const during = await getService(service.service_id);
      expect(during.status).toBe("CONFIGURING");
      expect(during.resources?.[0].spec).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });
      expectConflict(
        await emu.api("POST", path(service.service_id, "resize"), { cpu_millis: "250", memory_gbs: "1" }),
        "CONFIGURING",
      );
      const ready = await waitForStatus(service.service_id, "READY");
      expect(ready.resources?.[0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
    });

    it.each([
      ["cpu_millis", { cpu_millis: "100", memory_gbs: "2" }],
      ["cpu_millis", { cpu_millis: "500m", memory_gbs: "2" }],
      ["memory_gbs", { cpu_millis: "500", memory_gbs: "0" }],
      ["cpu_millis", {}],
    ])("400 naming %s for %j", async (field, body) => {
      const service = (await emu.api<Service>("GET", `${p}/services`)).body[0] as Service;
      expectInvalid(await emu.api("POST", path(service.service_id, "resize"), body), field);
    });
  });
  describe("Delete a Service", () => {
    it("202 without body, DELETING, a repeat is accepted, then gone (404)", async () => {
      const service = await createReadyService();
      const response = await emu.withTransitionMs(() => emu.api("DELETE", path(service.service_id)));
      expect(response.status).toBe(202);
      expect(response.text).toBe("");
      expect((await getService(service.service_id)).status).toBe("DELETING");
      expectConflict(
        await emu.api("POST", path(service.service_id, "setEnvironment"), { environment: "PROD" }),
        "DELETING",
      );
      expect((await emu.api("DELETE", path(service.service_id))).status).toBe(202);
      await emu.waitFor(
        () => emu.api("GET", path(service.service_id)),
        (r) => r.status === 404,
        { what: "the service to be gone" },
      );
      const list = (await emu.api<Service[]>("GET", `${p}/services`)).body;
      expect(list.map((s) => s.service_id)).not.toContain(service.service_id);
    });

    it("a service can be deleted while it is still being created", async () => {
      const queued = await createQueuedService();
      expect((await emu.withTransitionMs(() => emu.api("DELETE", path(queued.service_id)))).status).toBe(202);
      expect((await getService(queued.service_id)).status).toBe("DELETING");
      await emu.waitFor(
        () => emu.api("GET", path(queued.service_id)),
        (r) => r.status === 404,
      );
    });
  });
});
