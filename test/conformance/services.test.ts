/**
 * Conformance of the 15 service operations over real HTTP: success status and body shape, 400
 * naming the field, 409 in a forbidden state, and the lifecycle a client waits for.
 */
import {
  ActionResultSchema,
  ErrorBodySchema,
  ServiceSchema,
  type Service,
  type Vpc,
} from "../../provider/client/schemas";
import { startTestEmulator, type TestEmulator, type TestResponse } from "../helpers/emulator";

let emu: TestEmulator;
let p: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  p = emu.projectPath;
});
afterAll(() => emu.close());

const path = (id: string, action = "") => `${p}/services/${id}${action ? `/${action}` : ""}`;

async function getService(id: string): Promise<Service> {
  const response = await emu.api("GET", path(id));
  expect(response.status).toBe(200);
  return ServiceSchema.parse(response.body);
}

function waitForStatus(id: string, status: string): Promise<Service> {
  return emu.waitFor(
    () => getService(id),
    (s) => s.status === status,
    { what: `service ${id} ${status}` },
  );
}

async function createReadyService(body: Record<string, unknown> = {}): Promise<Service> {
  const response = await emu.api<Service>("POST", `${p}/services`, { name: "db", ...body });
  expect(response.status).toBe(202);
  return waitForStatus(response.body.service_id, "READY");
}

/** A service that stays QUEUED long enough for the test's own requests. */
async function createQueuedService(): Promise<Service> {
  const response = await emu.withTransitionMs(() =>
    emu.api<Service>("POST", `${p}/services`, { name: "young" }),
  );
  expect(response.body.status).toBe("QUEUED");
  return response.body;
}

async function createVpc(regionCode = "us-east-1"): Promise<Vpc> {
  const response = await emu.api<Vpc>("POST", `${p}/vpcs`, {
    name: "v",
    cidr: "10.9.0.0/16",
    region_code: regionCode,
  });
  expect(response.status).toBe(201);
  return response.body;
}

/** Asserts a 400 INVALID_REQUEST whose message starts with the field. */
function expectInvalid(response: TestResponse, field: string): void {
  expect(response.status).toBe(400);
  expect(ErrorBodySchema.parse(response.body)).toEqual({
    code: "INVALID_REQUEST",
    message: expect.stringMatching(new RegExp(`^${field}: `)),
  });
}

/** Asserts a 409 CONFLICT whose message names the state that forbids the action. */
function expectConflict(response: TestResponse, state: string): void {
  expect(response.status).toBe(409);
  expect(ErrorBodySchema.parse(response.body)).toEqual({
    code: "CONFLICT",
    message: expect.stringContaining(state),
  });
}

describe("Create a Service", () => {
  test("202 with the Service and its initial password; QUEUED, then CONFIGURING, then READY with an endpoint", async () => {
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
    const created = ServiceSchema.parse(response.body);
    expect(created).toMatchObject({
      project_id: emu.credentials.projectId,
      name: "metrics",
      region_code: "eu-west-1",
      service_type: "TIMESERIESDB",
      status: "QUEUED",
      paused: false,
      metadata: { environment: "PROD" },
      ha_replicas: { replica_count: 1, sync_replica_count: 0 },
      read_replica_sets: [],
    });
    expect(created.service_id).toMatch(/^[a-z0-9]{10}$/);
    expect(created.resources?.[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
    expect(created.initial_password).toEqual(expect.stringMatching(/.{12,}/));
    expect(created.endpoint).toBeUndefined();
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
    expect(ready.endpoint).toEqual({
      host: `${created.service_id}.${created.project_id}.db.mdb.local`,
      port: 5432,
    });
    expect(ready.initial_password).toBeUndefined();
  });

  test("the add-on picks the service type; only a name is required", async () => {
    const types = [];
    for (const addons of [undefined, [], ["ai"], ["time-series"]]) {
      const response = await emu.api<Service>("POST", `${p}/services`, { name: "typed", addons });
      expect(response.status).toBe(202);
      types.push(response.body.service_type);
    }
    expect(types).toEqual(["POSTGRES", "POSTGRES", "VECTOR", "TIMESERIESDB"]);
    const minimal = ServiceSchema.parse((await emu.api("POST", `${p}/services`, { name: "minimal" })).body);
    expect(minimal).toMatchObject({ region_code: expect.any(String), metadata: { environment: "DEV" } });
    expect(minimal.resources?.[0].spec.cpu_millis).toBeGreaterThan(0);
  });

  test.each([
    ["name", { cpu_millis: 500 }],
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
  test("200 with the records, without initial_password", async () => {
    const created = (await emu.api<Service>("POST", `${p}/services`, { name: "listed" })).body;
    const list = await emu.api<unknown[]>("GET", `${p}/services`);
    expect(list.status).toBe(200);
    const services = list.body.map((s) => ServiceSchema.parse(s));
    const listed = services.find((s) => s.service_id === created.service_id);
    expect(listed).toMatchObject({ name: "listed", service_type: "POSTGRES" });
    expect(services.every((s) => s.initial_password === undefined)).toBe(true);
    const one = await getService(created.service_id);
    expect(one.name).toBe("listed");
    expect(one.initial_password).toBeUndefined();
  });
});

describe("Stop a Service and Start a Service", () => {
  test("stop: 202 Service, PAUSING then PAUSED with paused true; start: 202 Service, RESUMING then READY", async () => {
    const service = await createReadyService();
    const stop = await emu.api("POST", path(service.service_id, "stop"));
    expect(stop.status).toBe(202);
    expect(ServiceSchema.parse(stop.body).status).toBe("PAUSING");
    const paused = await waitForStatus(service.service_id, "PAUSED");
    expect(paused.paused).toBe(true);

    const start = await emu.api("POST", path(service.service_id, "start"));
    expect(start.status).toBe(202);
    expect(ServiceSchema.parse(start.body).status).toBe("RESUMING");
    const ready = await waitForStatus(service.service_id, "READY");
    expect(ready.paused).toBe(false);
  });

  test("a repeated stop or start is accepted and changes nothing", async () => {
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
    expect(whilePaused.body).toMatchObject({ status: "PAUSED", paused: true });
  });

  test("409 naming the state: stop while QUEUED, start while PAUSING", async () => {
    const queued = await createQueuedService();
    expectConflict(await emu.api("POST", path(queued.service_id, "stop")), "QUEUED");
    const service = await createReadyService();
    await emu.withTransitionMs(() => emu.api("POST", path(service.service_id, "stop")));
    expectConflict(await emu.api("POST", path(service.service_id, "start")), "PAUSING");
  });
});

describe("Resize a Service", () => {
  test("202 without body, CONFIGURING, then READY with the new resources", async () => {
    const service = await createReadyService({ cpu_millis: 500, memory_gbs: 2 });
    const response = await emu.withTransitionMs(() =>
      emu.api("POST", path(service.service_id, "resize"), { cpu_millis: 2000, memory_gbs: 8 }),
    );
    expect(response.status).toBe(202);
    expect(response.text).toBe("");
    const during = await getService(service.service_id);
    expect(during.status).toBe("CONFIGURING");
    expect(during.resources?.[0].spec).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });
    expectConflict(
      await emu.api("POST", path(service.service_id, "resize"), { cpu_millis: 250, memory_gbs: 1 }),
      "CONFIGURING",
    );
    const ready = await waitForStatus(service.service_id, "READY");
    expect(ready.resources?.[0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
  });

  test.each([
    ["cpu_millis", { cpu_millis: 100, memory_gbs: 2 }],
    ["cpu_millis", { cpu_millis: "500", memory_gbs: 2 }],
    ["memory_gbs", { cpu_millis: 500, memory_gbs: 0 }],
    ["memory_gbs", { cpu_millis: 500 }],
  ])("400 naming %s for %j", async (field, body) => {
    const service = (await emu.api<Service>("GET", `${p}/services`)).body[0] as Service;
    expectInvalid(await emu.api("POST", path(service.service_id, "resize"), body), field);
  });
});

describe("Update Service Password", () => {
  test("204 without body; the new password is stored, never returned", async () => {
    const service = await createReadyService();
    const response = await emu.api("POST", path(service.service_id, "updatePassword"), {
      password: "a-new-long-password",
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(
      emu.emulator.model.verifyPassword(emu.credentials.projectId, service.service_id, "a-new-long-password"),
    ).toBe(true);
    expect(JSON.stringify(await getService(service.service_id))).not.toContain("a-new-long-password");
  });

  test("400 naming password when too short; 409 while QUEUED", async () => {
    const queued = await createQueuedService();
    expectInvalid(
      await emu.api("POST", path(queued.service_id, "updatePassword"), { password: "short" }),
      "password",
    );
    expectConflict(
      await emu.api("POST", path(queued.service_id, "updatePassword"), { password: "long-enough-now" }),
      "QUEUED",
    );
  });
});

describe("Set Environment for a Service", () => {
  test("200 Action result; metadata.environment changes at once, in any state but DELETING", async () => {
    const queued = await createQueuedService();
    const response = await emu.api("POST", path(queued.service_id, "setEnvironment"), {
      environment: "PROD",
    });
    expect(response.status).toBe(200);
    expect(ActionResultSchema.parse(response.body).message).toEqual(expect.any(String));
    expect(await getService(queued.service_id)).toMatchObject({
      status: "QUEUED",
      metadata: { environment: "PROD" },
    });
  });

  test("400 naming environment", async () => {
    const service = (await emu.api<Service>("POST", `${p}/services`, { name: "env" })).body;
    expectInvalid(
      await emu.api("POST", path(service.service_id, "setEnvironment"), { environment: "prod" }),
      "environment",
    );
  });
});

describe("Change HA Configuration for a Service", () => {
  test("202 Service, CONFIGURING, then READY with the new ha_replicas", async () => {
    const service = await createReadyService();
    const response = await emu.withTransitionMs(() =>
      emu.api("POST", path(service.service_id, "setHA"), { replica_count: 2, sync_replica_count: 1 }),
    );
    expect(response.status).toBe(202);
    expect(ServiceSchema.parse(response.body).status).toBe("CONFIGURING");
    expectConflict(
      await emu.api("POST", path(service.service_id, "setHA"), { replica_count: 1 }),
      "CONFIGURING",
    );
    const ready = await waitForStatus(service.service_id, "READY");
    expect(ready.ha_replicas).toEqual({ replica_count: 2, sync_replica_count: 1 });
  });

  test.each([
    ["sync_replica_count", { replica_count: 1, sync_replica_count: 2 }],
    ["sync_replica_count", { sync_replica_count: 1 }],
    ["replica_count", { replica_count: 3 }],
    ["replica_count", {}],
  ])("400 naming %s for %j", async (field, body) => {
    const service = await createReadyService();
    expectInvalid(await emu.api("POST", path(service.service_id, "setHA"), body), field);
    expect((await getService(service.service_id)).status).toBe("READY");
  });
});

describe("Enable and Disable Connection Pooler for a Service", () => {
  test("200 Action result; connection_pooler appears with port 6432, then goes", async () => {
    const service = await createReadyService();
    const enable = await emu.api("POST", path(service.service_id, "enablePooler"));
    expect(enable.status).toBe(200);
    ActionResultSchema.parse(enable.body);
    expect((await getService(service.service_id)).connection_pooler?.endpoint).toEqual({
      host: expect.any(String),
      port: 6432,
    });
    const disable = await emu.api("POST", path(service.service_id, "disablePooler"));
    expect(disable.status).toBe(200);
    ActionResultSchema.parse(disable.body);
    expect((await getService(service.service_id)).connection_pooler).toBeUndefined();
  });

  test("works while PAUSED; 409 while QUEUED", async () => {
    const service = await createReadyService();
    await emu.api("POST", path(service.service_id, "stop"));
    await waitForStatus(service.service_id, "PAUSED");
    expect((await emu.api("POST", path(service.service_id, "enablePooler"))).status).toBe(200);
    const queued = await createQueuedService();
    expectConflict(await emu.api("POST", path(queued.service_id, "enablePooler")), "QUEUED");
    expectConflict(await emu.api("POST", path(queued.service_id, "disablePooler")), "QUEUED");
  });
});

describe("Fork a Service", () => {
  test("202 with the fork: same type and region, no HA replicas, forked_from, initial password; then READY", async () => {
    const source = await createReadyService({
      addons: ["ai"],
      region_code: "eu-central-1",
      replica_count: 2,
    });
    const response = await emu.api("POST", path(source.service_id, "forkService"), {
      fork_strategy: "LAST_SNAPSHOT",
      name: "the-fork",
    });
    expect(response.status).toBe(202);
    const fork = ServiceSchema.parse(response.body);
    expect(fork.service_id).not.toBe(source.service_id);
    expect(fork).toMatchObject({
      name: "the-fork",
      service_type: "VECTOR",
      region_code: "eu-central-1",
      status: "QUEUED",
      ha_replicas: { replica_count: 0 },
      forked_from: {
        project_id: emu.credentials.projectId,
        service_id: source.service_id,
        is_standby: false,
      },
      initial_password: expect.any(String),
    });
    expect(fork.resources?.[0].spec).toMatchObject({ cpu_millis: source.resources?.[0].spec.cpu_millis });
    const ready = await waitForStatus(fork.service_id, "READY");
    expect(ready.initial_password).toBeUndefined();
  });

  test("PITR: target_time required, not in the future, not before the source was created", async () => {
    const source = await createReadyService();
    const fork = (body: Record<string, unknown>) =>
      emu.api("POST", path(source.service_id, "forkService"), { fork_strategy: "PITR", ...body });
    expectInvalid(await fork({}), "target_time");
    expectInvalid(await fork({ target_time: new Date(Date.now() + 3_600_000).toISOString() }), "target_time");
    expectInvalid(await fork({ target_time: "2001-01-01T00:00:00Z" }), "target_time");
    expectInvalid(await fork({ target_time: "yesterday" }), "target_time");
    expect((await fork({ target_time: source.created })).status).toBe(202);
  });

  test("400 naming fork_strategy; 409 when the source is not READY", async () => {
    const queued = await createQueuedService();
    expectInvalid(
      await emu.api("POST", path(queued.service_id, "forkService"), { fork_strategy: "LATER" }),
      "fork_strategy",
    );
    expectConflict(
      await emu.api("POST", path(queued.service_id, "forkService"), { fork_strategy: "NOW" }),
      "QUEUED",
    );
  });
});

describe("Attach Service to VPC and Detach Service from VPC", () => {
  test("attach: 202 Action result, CONFIGURING, then READY with vpcEndpoint; detach: 202, then no vpcEndpoint", async () => {
    const service = await createReadyService();
    const vpc = await createVpc();
    const attach = await emu.withTransitionMs(() =>
      emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: vpc.id }),
    );
    expect(attach.status).toBe(202);
    ActionResultSchema.parse(attach.body);
    expect((await getService(service.service_id)).status).toBe("CONFIGURING");
    const attached = await waitForStatus(service.service_id, "READY");
    expect(attached.vpcEndpoint).toEqual({
      host: expect.any(String),
      port: expect.any(Number),
      vpc_id: vpc.id,
    });

    const detach = await emu.withTransitionMs(() =>
      emu.api("POST", path(service.service_id, "detachFromVPC"), { vpc_id: vpc.id }),
    );
    expect(detach.status).toBe(202);
    ActionResultSchema.parse(detach.body);
    expect((await getService(service.service_id)).status).toBe("CONFIGURING");
    const detached = await waitForStatus(service.service_id, "READY");
    expect(detached.vpcEndpoint).toBeUndefined();
    expect((await emu.api("DELETE", `${p}/vpcs/${vpc.id}`)).status).toBe(204);
  });

  test("attaching again to the same VPC is accepted and changes nothing; another VPC is a 409", async () => {
    const service = await createReadyService();
    const [vpc, other] = [await createVpc(), await createVpc()];
    await emu.withTransitionMs(() =>
      emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: vpc.id }),
    );
    expect((await getService(service.service_id)).status).toBe("CONFIGURING");
    const retry = await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: vpc.id });
    expect(retry.status).toBe(202);
    await waitForStatus(service.service_id, "READY");
    const again = await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: vpc.id });
    expect(again.status).toBe(202);
    expect((await getService(service.service_id)).status).toBe("READY");
    expectConflict(
      await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: other.id }),
      vpc.id,
    );
    expectConflict(
      await emu.api("POST", path(service.service_id, "detachFromVPC"), { vpc_id: other.id }),
      other.id,
    );
    expectConflict(await emu.api("DELETE", `${p}/vpcs/${vpc.id}`), service.service_id);
  });

  test("400 naming vpc_id for a VPC of another region or a missing vpc_id; 404 for an unknown VPC; 409 while QUEUED", async () => {
    const service = await createReadyService({ region_code: "us-east-1" });
    const elsewhere = await createVpc("ap-south-1");
    expectInvalid(
      await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: elsewhere.id }),
      "vpc_id",
    );
    expectInvalid(await emu.api("POST", path(service.service_id, "attachToVPC"), {}), "vpc_id");
    expectInvalid(await emu.api("POST", path(service.service_id, "detachFromVPC"), { vpc_id: 7 }), "vpc_id");
    const unknown = await emu.api("POST", path(service.service_id, "attachToVPC"), {
      vpc_id: "vpc-nothere0",
    });
    expect(unknown.status).toBe(404);
    expect(ErrorBodySchema.parse(unknown.body).message).toContain("vpc-nothere0");
    const queued = await createQueuedService();
    expectConflict(
      await emu.api("POST", path(queued.service_id, "attachToVPC"), { vpc_id: (await createVpc()).id }),
      "QUEUED",
    );
  });
});

describe("Delete a Service", () => {
  test("202 without body, DELETING, a repeat is accepted, then gone (404)", async () => {
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

  test("a service can be deleted while it is still being created", async () => {
    const queued = await createQueuedService();
    expect((await emu.withTransitionMs(() => emu.api("DELETE", path(queued.service_id)))).status).toBe(202);
    expect((await getService(queued.service_id)).status).toBe("DELETING");
    await emu.waitFor(
      () => emu.api("GET", path(queued.service_id)),
      (r) => r.status === 404,
    );
  });
});
