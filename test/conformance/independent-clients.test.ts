/**
 * The emulator serves clients written by others from the vendor's description of the API, unchanged:
 * what such clients send and read, over real HTTP, with the status and body they need. Every answer
 * is also checked against the strict contract (see helpers.ts).
 */
import { LENIENT_RECORDS, STRICT_RECORDS, type Service } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { expectInvalid, startConformanceEmulator } from "./helpers";

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

describe("resize answers with a body, as the vendor's current API", () => {
  it("resize service: 202 with the service record, CONFIGURING, its sizes still the old ones", async () => {
    const created = (await emu.api<Service>("POST", `${p}/services`, { name: "grow", cpu_millis: 500 })).body;
    await readyService(created.service_id);
    const response = await emu.withTransitionMs(() =>
      emu.api("POST", `${p}/services/${created.service_id}/resize`, { cpu_millis: 1000, memory_gbs: 4 }),
    );
    expect(response.status).toBe(202);
    const answered = ServiceSchema.parse(response.body);
    expect(answered).toMatchObject({ service_id: created.service_id, status: "CONFIGURING" });
    expect(answered.resources?.[0].spec).toMatchObject({ cpu_millis: 500, memory_gbs: 2 });
    expect(answered).not.toHaveProperty("initial_password");
  });

  it("resize replica set: 202 with {message} naming the set", async () => {
    const service = (await emu.api<Service>("POST", `${p}/services`, { name: "primary" })).body;
    await readyService(service.service_id);
    const sets = `${p}/services/${service.service_id}/replicaSets`;
    const set = (
      await emu.api<{ id: string }>("POST", sets, { name: "r", nodes: 1, cpu_millis: 250, memory_gbs: 1 })
    ).body;
    await emu.waitFor(
      async () => ReplicaSetSchema.array().parse((await emu.api("GET", sets)).body)[0],
      (r) => r.status === "active",
    );
    const response = await emu.api("POST", `${sets}/${set.id}/resize`, { nodes: 2 });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: expect.stringContaining(set.id) });
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

describe("sizes as strings of digits, on every size field", () => {
  /** A READY service, optionally with an active replica set; their paths. */
  async function records(withReplicaSet: boolean) {
    const service = (await emu.api<Service>("POST", `${p}/services`, { name: "sized" })).body;
    const servicePath = `${p}/services/${service.service_id}`;
    await readyService(service.service_id);
    if (!withReplicaSet) return { servicePath, setPath: "" };
    const set = await emu.api<{ id: string }>("POST", `${servicePath}/replicaSets`, {
      name: "readers",
      nodes: "2",
      cpu_millis: "500",
      memory_gbs: "2",
    });
    expect(set.status).toBe(202);
    expect(ReplicaSetSchema.parse(set.body)).toMatchObject({ nodes: 2, cpu_millis: 500, memory_gbs: 2 });
    const setPath = `${servicePath}/replicaSets/${set.body.id}`;
    await emu.waitFor(
      async () =>
        ReplicaSetSchema.array().parse((await emu.api("GET", `${servicePath}/replicaSets`)).body)[0],
      (r) => r.status === "active",
    );
    return { servicePath, setPath };
  }

  it("resize service: 202, and the service answers the new sizes as numbers", async () => {
    const { servicePath } = await records(false);
    const response = await emu.api("POST", `${servicePath}/resize`, { cpu_millis: "2000", memory_gbs: "8" });
    expect(response.status).toBe(202);
    const service = await emu.waitFor(
      async () => ServiceSchema.parse((await emu.api("GET", servicePath)).body),
      (s) => s.status === "READY" && s.resources?.[0].spec.cpu_millis === 2000,
    );
    expect(service.resources?.[0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
  });

  it("create and resize replica set: 202, and the set answers the sizes as numbers", async () => {
    const { servicePath, setPath } = await records(true);
    const response = await emu.api("POST", `${setPath}/resize`, {
      cpu_millis: "1000",
      memory_gbs: "4",
      nodes: "3",
    });
    expect(response.status).toBe(202);
    const resized = await emu.waitFor(
      async () =>
        ReplicaSetSchema.array().parse((await emu.api("GET", `${servicePath}/replicaSets`)).body)[0],
      (r) => r.status === "active",
    );
    expect(resized).toMatchObject({ nodes: 3, cpu_millis: 1000, memory_gbs: 4 });
  });

  it("create service and fork: 202, sizes answered as numbers", async () => {
    const created = await emu.api("POST", `${p}/services`, {
      name: "s",
      cpu_millis: "1000",
      memory_gbs: "4",
    });
    expect(created.status).toBe(202);
    const service = ServiceSchema.parse(created.body);
    expect(service.resources?.[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
    await readyService(service.service_id);
    const fork = await emu.api("POST", `${p}/services/${service.service_id}/forkService`, {
      fork_strategy: "NOW",
      cpu_millis: "2000",
      memory_gbs: "8",
    });
    expect(fork.status).toBe(202);
    expect(ServiceSchema.parse(fork.body).resources?.[0].spec).toMatchObject({
      cpu_millis: 2000,
      memory_gbs: 8,
    });
  });
});

describe("one message per field", () => {
  const CPU = "cpu_millis: must be a multiple of 250 from 250 to 64000, as a number or a string of digits";
  const MEMORY = "memory_gbs: must be a whole number from 1 to 1024, as a number or a string of digits";
  // Create and fork also take "shared", and say so.
  const SIZES = `${CPU}; ${MEMORY}`;
  const OR_SHARED = `${CPU}, or "shared"; ${MEMORY}, or "shared"`;

  it.each([
    ["create service", () => `${p}/services`, { name: "x", cpu_millis: "abc", memory_gbs: "x" }, OR_SHARED],
    [
      "resize service",
      () => `${p}/services/zzzzzzzzzz/resize`,
      { cpu_millis: "abc", memory_gbs: true },
      SIZES,
    ],
    [
      "fork",
      () => `${p}/services/zzzzzzzzzz/forkService`,
      { fork_strategy: "NOW", cpu_millis: "1e3", memory_gbs: "" },
      OR_SHARED,
    ],
    [
      "create replica set",
      () => `${p}/services/zzzzzzzzzz/replicaSets`,
      { name: "r", nodes: 1, cpu_millis: "many", memory_gbs: -1 },
      SIZES,
    ],
    [
      "resize replica set",
      () => `${p}/services/zzzzzzzzzz/replicaSets/rrs-zzzzzzzz/resize`,
      { cpu_millis: 100, memory_gbs: "2048" },
      SIZES,
    ],
  ])("%s: 400 naming cpu_millis once and memory_gbs once", async (_what, path, body, message) => {
    const response = await emu.api("POST", path(), body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_REQUEST", message });
  });
});

describe('shared-resource services: "shared" sizes on create and fork', () => {
  const SHARED_SPEC = { cpu_millis: 0, memory_gbs: 0 };

  /** A READY service created with `sizes`: its path and its record. */
  async function readyWith(sizes: Record<string, unknown>) {
    const created = await emu.api<Service>("POST", `${p}/services`, { name: "sized", ...sizes });
    expect(created.status).toBe(202);
    const ready = await readyService(created.body.service_id);
    return { path: `${p}/services/${created.body.service_id}`, ready };
  }

  it("create: 202, the record shows both sizes as 0 (integers) from the first answer to READY", async () => {
    const response = await emu.api("POST", `${p}/services`, {
      name: "hobby",
      cpu_millis: "shared",
      memory_gbs: "shared",
    });
    expect(response.status).toBe(202);
    const created = ServiceSchema.parse(response.body);
    expect(created.resources?.[0].spec).toMatchObject(SHARED_SPEC);
    const ready = await readyService(created.service_id);
    expect(ready.resources?.[0].spec).toMatchObject(SHARED_SPEC);
    // The provider's client reads records leniently: it takes the shared record as it is.
    expect(LENIENT_RECORDS.Service.parse(ready).resources?.[0].spec).toMatchObject(SHARED_SPEC);
  });

  it('fork: "shared" makes a shared fork of a dedicated service; a shared source forks shared unless both sizes are given', async () => {
    const dedicated = await readyWith({ cpu_millis: 1000, memory_gbs: 4 });
    const shared = await emu.api("POST", `${dedicated.path}/forkService`, {
      fork_strategy: "NOW",
      cpu_millis: "shared",
      memory_gbs: "shared",
    });
    expect(shared.status).toBe(202);
    expect(ServiceSchema.parse(shared.body).resources?.[0].spec).toMatchObject(SHARED_SPEC);

    const source = await readyWith({ cpu_millis: "shared", memory_gbs: "shared" });
    const inherited = await emu.api("POST", `${source.path}/forkService`, { fork_strategy: "NOW" });
    expect(inherited.status).toBe(202);
    expect(ServiceSchema.parse(inherited.body).resources?.[0].spec).toMatchObject(SHARED_SPEC);
    const sized = await emu.api("POST", `${source.path}/forkService`, { cpu_millis: 2000, memory_gbs: 8 });
    expect(sized.status).toBe(202);
    expect(ServiceSchema.parse(sized.body).resources?.[0].spec).toMatchObject({
      cpu_millis: 2000,
      memory_gbs: 8,
    });
    expectInvalid(await emu.api("POST", `${source.path}/forkService`, { cpu_millis: 2000 }), "memory_gbs");
  });

  it.each([
    [{ cpu_millis: "shared" }, "memory_gbs"],
    [{ cpu_millis: "shared", memory_gbs: 2 }, "memory_gbs"],
    [{ cpu_millis: 500, memory_gbs: "shared" }, "cpu_millis"],
  ])('"shared" for one size only: 400 naming the other (%j)', async (sizes, field) => {
    const response = await emu.api("POST", `${p}/services`, { name: "half", ...sizes });
    expectInvalid(response, field);
    expect((response.body as { message: string }).message).toContain("shares both or neither");
  });

  it("resize of a shared service to dedicated sizes: 202, READY with both; one size alone is a 400", async () => {
    const { path } = await readyWith({ cpu_millis: "shared", memory_gbs: "shared" });
    expectInvalid(await emu.api("POST", `${path}/resize`, { cpu_millis: 1000 }), "memory_gbs");
    const response = await emu.api("POST", `${path}/resize`, { cpu_millis: "1000", memory_gbs: "4" });
    expect(response.status).toBe(202);
    const resized = await emu.waitFor(
      async () => ServiceSchema.parse((await emu.api("GET", path)).body),
      (s) => s.status === "READY" && s.resources?.[0].spec.cpu_millis === 1000,
    );
    expect(resized.resources?.[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
  });

  it('resize to "shared": 400 saying only create and fork take it', async () => {
    const { path } = await readyWith({});
    const response = await emu.api("POST", `${path}/resize`, { cpu_millis: "shared", memory_gbs: "shared" });
    expectInvalid(response, "cpu_millis");
    expect((response.body as { message: string }).message).toContain(
      '"shared" is taken by create service and fork only',
    );
  });
});

describe("nodes on service resize, as the vendor's spec-era resize input has it", () => {
  it.each([1, "1"])("nodes %j with the sizes: 202, the sizes applied", async (nodes) => {
    const created = (await emu.api<Service>("POST", `${p}/services`, { name: "one-node" })).body;
    const path = `${p}/services/${created.service_id}`;
    await readyService(created.service_id);
    const response = await emu.api("POST", `${path}/resize`, { cpu_millis: 1000, memory_gbs: 4, nodes });
    expect(response.status).toBe(202);
    const resized = await emu.waitFor(
      async () => ServiceSchema.parse((await emu.api("GET", path)).body),
      (s) => s.status === "READY" && s.resources?.[0].spec.cpu_millis === 1000,
    );
    expect(resized.resources?.[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
  });

  it("another node count: 400 naming nodes, pointing to setHA and read replica sets", async () => {
    const response = await emu.api("POST", `${p}/services/zzzzzzzzzz/resize`, { cpu_millis: 1000, nodes: 3 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: "INVALID_REQUEST",
      message:
        "nodes: must be exactly 1, as a number or a string of digits (a service has one node: HA replicas are setHA's, read capacity a read replica set's)",
    });
  });
});

describe("fields the spec does not require and formats it does not fix", () => {
  /** A READY service and its path. */
  async function readyServicePath(body: Record<string, unknown> = {}): Promise<string> {
    const service = (await emu.api<Service>("POST", `${p}/services`, { name: "loose", ...body })).body;
    await readyService(service.service_id);
    return `${p}/services/${service.service_id}`;
  }

  it("resize service with one size: 202, the other size kept", async () => {
    const servicePath = await readyServicePath({ cpu_millis: 500, memory_gbs: 2 });
    const response = await emu.api("POST", `${servicePath}/resize`, { cpu_millis: 1000 });
    expect(response.status).toBe(202);
    const resized = await emu.waitFor(
      async () => ServiceSchema.parse((await emu.api("GET", servicePath)).body),
      (s) => s.status === "READY" && s.resources?.[0].spec.cpu_millis === 1000,
    );
    expect(resized.resources?.[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 2 });
  });

  it("resize replica set with nodes only: 202, the sizes kept", async () => {
    const sets = `${await readyServicePath()}/replicaSets`;
    const set = (
      await emu.api<{ id: string }>("POST", sets, { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 })
    ).body;
    const active = () =>
      emu.waitFor(
        async () => ReplicaSetSchema.array().parse((await emu.api("GET", sets)).body)[0],
        (r) => r.status === "active",
      );
    await active();
    expect((await emu.api("POST", `${sets}/${set.id}/resize`, { nodes: 3 })).status).toBe(202);
    await emu.waitFor(
      async () => ReplicaSetSchema.array().parse((await emu.api("GET", sets)).body)[0],
      (r) => r.nodes === 3,
    );
    expect(await active()).toMatchObject({ nodes: 3, cpu_millis: 500, memory_gbs: 2 });
  });

  it("fork without a body: 202, a fork of the service as it is now", async () => {
    const servicePath = await readyServicePath();
    const response = await emu.api("POST", `${servicePath}/forkService`);
    expect(response.status).toBe(202);
    expect(ServiceSchema.parse(response.body)).toMatchObject({ name: "loose-fork", status: "QUEUED" });
  });

  it("create VPC without a region: 201 in the default region", async () => {
    const response = await emu.api("POST", `${p}/vpcs`, { name: "no-region", cidr: "10.1.0.0/16" });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: "no-region", region_code: "us-east-1" });
  });

  it("an IPv6 block is CIDR notation too: 201", async () => {
    const response = await emu.api("POST", `${p}/vpcs`, {
      name: "v6",
      cidr: "fd00:10::/48",
      region_code: "r",
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ cidr: "fd00:10::/48" });
  });

  it("names are kept as sent, blanks included", async () => {
    const vpc = await emu.api("POST", `${p}/vpcs`, { name: " padded ", cidr: "10.2.0.0/16" });
    expect(vpc.status).toBe(201);
    expect(vpc.body).toMatchObject({ name: " padded " });
    const service = await emu.api("POST", `${p}/services`, { name: "Orders DB (eu) " });
    expect(service.status).toBe(202);
    expect(service.body).toMatchObject({ name: "Orders DB (eu) " });
  });

  it("a body sent to an operation that takes none is ignored: stop with {} answers 202", async () => {
    const servicePath = await readyServicePath();
    const response = await emu.api("POST", `${servicePath}/stop`, {});
    expect(response.status).toBe(202);
    expect(ServiceSchema.parse(response.body).status).toBe("PAUSING");
  });

  it("add-ons may repeat", async () => {
    const response = await emu.api("POST", `${p}/services`, { name: "twice", addons: ["ai", "ai"] });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ service_type: "VECTOR" });
  });

  it("the Authorization scheme name in lower case", async () => {
    const auth = emu.credentials.authorization.replace(/^Basic /, "basic ");
    expect((await emu.api("GET", "/auth/info", undefined, { auth })).status).toBe(200);
  });

  it("a path with a trailing slash reaches its operation", async () => {
    const response = await emu.api("GET", `${p}/vpcs/`);
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
  });
});
