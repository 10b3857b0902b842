/**
 * Conformance of what differs between the dialects (docs/api.md#dialects), over real HTTP: the
 * words of records (service type, `paused`, VPC endpoint names, id forms), the answers of renameVpc
 * and delete replica set, the request validation of the current document, and the vendor's
 * additions (renameService in both dialects; projects, logs, metrics and logout in `vendor` only).
 * The shapes both dialects share: the table-driven suites (contract, access).
 */
import type { Dialect } from "../../api/dialects";
import { OPERATIONS, VENDOR_OPERATION_IDS, fillPath } from "../../api/operations";
import { STRICT_RECORDS, type Service, type Vpc } from "../../api/schemas";
import { LOG_INTERVAL_MS, LOG_PAGE_SIZE } from "../../emulator/models/telemetry";
import type { TestEmulator } from "../helpers/emulator";
import { DIALECT_CASES, dialectFaults, expectInvalid, startConformanceEmulator } from "./helpers";
import { serviceCalls } from "./service-calls";

const { ErrorBody } = STRICT_RECORDS;

/** A READY TIMESERIESDB service attached to a VPC of its region, with a replica set: every word in view. */
async function attachedService(emu: TestEmulator) {
  const calls = serviceCalls(() => emu);
  const service = await calls.createReadyService({ addons: ["time-series"] });
  const vpc = await calls.createVpc();
  expect(
    (await emu.api("POST", calls.path(service.service_id, "attachToVPC"), { vpc_id: vpc.id })).status,
  ).toBe(202);
  const attached = await emu.waitFor(
    () => calls.getService(service.service_id),
    (s) => s.status === "READY" && (s.vpc_endpoint ?? s.vpcEndpoint) !== undefined,
    { what: "service attached" },
  );
  return { calls, service: attached, vpc };
}

describe.each(DIALECT_CASES)("%s dialect", (dialect: Dialect) => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
  });
  afterAll(() => emu.close());
  beforeEach(() => emu.reset());

  it("speaks its words in service records, and VPC and peering ids of its form", async () => {
    const { calls, service, vpc } = await attachedService(emu);
    const raw = (await emu.api<Record<string, unknown>>("GET", calls.path(service.service_id))).body;
    expect(dialectFaults(dialect, raw)).toEqual([]);
    const endpoint = { host: expect.any(String), port: expect.any(Number), vpc_id: vpc.id };
    if (dialect === "seed") {
      expect(raw).toMatchObject({ service_type: "TIMESERIESDB", paused: false, vpcEndpoint: endpoint });
      expect(vpc.id).toMatch(/^vpc-[a-z0-9]{8}$/);
    } else {
      expect(raw).toMatchObject({
        service_type: "TIMESCALEDB",
        vpc_endpoint: endpoint,
        vpcEndpoint: endpoint,
      });
      expect(raw).not.toHaveProperty("paused");
      expect(vpc.id).toMatch(/^[0-9]+$/);
    }
    const peering = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs/${vpc.id}/peerings`, {
      peer_account_id: "acct",
      peer_region_code: "us-east-1",
      peer_vpc_id: "peer-1",
    });
    expect(peering.body.id).toMatch(dialect === "seed" ? /^pcx-[a-z0-9]{8}$/ : /^[0-9]+$/);
  });

  it("renameVpc answers the VPC (seed) or {message} (vendor); the name changes either way", async () => {
    const { createVpc } = serviceCalls(() => emu);
    const vpc = await createVpc();
    const response = await emu.api("POST", `${emu.projectPath}/vpcs/${vpc.id}/rename`, { name: "renamed" });
    expect(response.status).toBe(200);
    if (dialect === "seed") expect(response.body).toEqual({ ...vpc, name: "renamed" });
    else expect(response.body).toEqual({ message: expect.any(String) });
    expect((await emu.api<Vpc>("GET", `${emu.projectPath}/vpcs/${vpc.id}`)).body.name).toBe("renamed");
  });

  it("delete replica set answers 202 with {code, message} (seed) or no body (vendor)", async () => {
    const { createReadyService, path } = serviceCalls(() => emu);
    const service = await createReadyService();
    const sets = path(service.service_id, "replicaSets");
    const set = await emu.api<{ id: string }>("POST", sets, {
      name: "r",
      nodes: 1,
      cpu_millis: 250,
      memory_gbs: 1,
    });
    await emu.waitFor(
      () => emu.api<{ status: string }[]>("GET", sets),
      (r) => r.body[0]?.status === "active",
    );
    const response = await emu.api("DELETE", `${sets}/${set.body.id}`);
    expect(response.status).toBe(202);
    if (dialect === "seed") expect(ErrorBody.parse(response.body).code).toBe("ACCEPTED");
    else expect(response.text).toBe("");
  });

  it("GET /services/{replica set id}: the set as a standby Service (vendor), 404 (seed)", async () => {
    const calls = serviceCalls(() => emu);
    const service = await calls.createReadyService();
    const created = await emu.api<{ id: string }>("POST", calls.path(service.service_id, "replicaSets"), {
      name: "reader",
      nodes: 1,
      cpu_millis: 500,
      memory_gbs: 2,
    });
    const response = await emu.api<Service>("GET", calls.path(created.body.id));
    if (dialect === "seed") {
      expect(response.status).toBe(404);
    } else {
      expect(response.status).toBe(200);
      expect(response.body.forked_from).toEqual({
        project_id: emu.credentials.projectId,
        service_id: service.service_id,
        is_standby: true,
      });
    }
  });

  describe("Rename a Service (the vendor's addition, in both dialects)", () => {
    it("200 with the service renamed in place: same id, same endpoint, same password", async () => {
      const { createReadyService, path, getService } = serviceCalls(() => emu);
      const service = await createReadyService({ name: "before" });
      const response = await emu.api<Service>("POST", path(service.service_id, "rename"), { name: "after" });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ service_id: service.service_id, name: "after", status: "READY" });
      expect((await getService(service.service_id)).endpoint).toEqual(service.endpoint);
    });

    it("400 naming name when it is missing or empty; 409 while DELETING", async () => {
      const { createReadyService, path } = serviceCalls(() => emu);
      const service = await createReadyService();
      expectInvalid(await emu.api("POST", path(service.service_id, "rename"), {}), "name");
      expectInvalid(await emu.api("POST", path(service.service_id, "rename"), { name: "" }), "name");
      await emu.withTransitionMs(() => emu.api("DELETE", path(service.service_id)));
      const deleting = await emu.api("POST", path(service.service_id, "rename"), { name: "late" });
      expect(deleting.status).toBe(409);
      expect(ErrorBody.parse(deleting.body).message).toContain("DELETING");
    });
  });

  it.each(VENDOR_OPERATION_IDS.filter((id) => !OPERATIONS[id].dialects.includes("seed")))(
    "%s: served in vendor only; seed answers 404 naming no route",
    async (id) => {
      const op = OPERATIONS[id];
      const path = fillPath(
        op.path,
        op.params.map((param) => (param === "project_id" ? emu.credentials.projectId : "1234567890")),
      );
      const response = await emu.api(op.method, path, op.method === "POST" ? {} : undefined);
      if (dialect === "seed") {
        expect(response.status).toBe(404);
        expect(ErrorBody.parse(response.body).message).toMatch(/^no route /);
      } else {
        // Served: an answer of the operation itself (a 404 names the service, a 400 the body).
        expect(ErrorBody.safeParse(response.body).data?.message ?? "").not.toMatch(/^no route /);
      }
    },
  );
});

describe("vendor dialect", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect: "vendor" });
  });
  afterAll(() => emu.close());
  beforeEach(() => emu.reset());
  const calls = serviceCalls(() => emu);

  describe("validates requests as the current document types them", () => {
    it.each([
      [
        "create service, sizes as numbers",
        "",
        { name: "n", cpu_millis: 1000, memory_gbs: "4" },
        "cpu_millis",
      ],
      ["create service, HA count as a string", "", { name: "n", replica_count: "1" }, "replica_count"],
      ["fork without fork_strategy", "forkService", {}, "fork_strategy"],
      ["resize, sizes as numbers", "resize", { cpu_millis: 1000, memory_gbs: 4 }, "cpu_millis"],
      ["resize, one size only", "resize", { cpu_millis: "1000" }, "memory_gbs"],
      ["setHA, a count as a string", "setHA", { replica_count: "1" }, "replica_count"],
      ["attach, a VPC id not of digits", "attachToVPC", { vpc_id: "vpc-1" }, "vpc_id"],
    ])("%s: 400 naming the field", async (_what, action, body, field) => {
      const service = await calls.createReadyService();
      const target = action ? calls.path(service.service_id, action) : `${emu.projectPath}/services`;
      expectInvalid(await emu.api("POST", target, body), field);
    });

    it("create replica set takes integers; its resize both sizes as strings", async () => {
      const service = await calls.createReadyService();
      const sets = calls.path(service.service_id, "replicaSets");
      expectInvalid(
        await emu.api("POST", sets, { name: "r", nodes: 1, cpu_millis: "250", memory_gbs: 1 }),
        "cpu_millis",
      );
      const set = await emu.api<{ id: string }>("POST", sets, {
        name: "r",
        nodes: 1,
        cpu_millis: 250,
        memory_gbs: 1,
      });
      await emu.waitFor(
        () => emu.api<{ status: string }[]>("GET", sets),
        (r) => r.body[0]?.status === "active",
      );
      expectInvalid(
        await emu.api("POST", `${sets}/${set.body.id}/resize`, { cpu_millis: "500" }),
        "memory_gbs",
      );
      const resized = await emu.api("POST", `${sets}/${set.body.id}/resize`, {
        cpu_millis: "500",
        memory_gbs: "2",
      });
      expect(resized.status).toBe(202);
    });

    it("create VPC needs region_code; a path VPC id not of digits is a 400 naming vpc_id", async () => {
      expectInvalid(
        await emu.api("POST", `${emu.projectPath}/vpcs`, { name: "v", cidr: "10.0.0.0/16" }),
        "region_code",
      );
      expectInvalid(await emu.api("GET", `${emu.projectPath}/vpcs/vpc-abc`), "vpc_id");
    });
  });

  it("without deprecated fields: vpc_endpoint alone, auth info's api_key alone", async () => {
    const bare = await startConformanceEmulator({ dialect: "vendor", deprecatedFields: false });
    try {
      const { service } = await attachedService(bare);
      const raw = (
        await bare.api<Record<string, unknown>>("GET", `${bare.projectPath}/services/${service.service_id}`)
      ).body;
      expect(raw).toHaveProperty("vpc_endpoint");
      expect(raw).not.toHaveProperty("vpcEndpoint");
      const info = (await bare.api<Record<string, unknown>>("GET", "/auth/info")).body;
      expect(info).toHaveProperty("api_key");
      expect(info).not.toHaveProperty("apiKey");
    } finally {
      await bare.close();
    }
  });

  it("GET /projects lists the key's one project", async () => {
    const response = await emu.api("GET", "/projects");
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ id: emu.credentials.projectId, name: expect.any(String) }]);
  });

  it("POST /auth/logout answers 204 with no body, with or without a refresh token", async () => {
    for (const body of [undefined, {}, { refresh_token: "rt-1" }]) {
      const response = await emu.api("POST", "/auth/logout", body);
      expect(response.status).toBe(204);
      expect(response.text).toBe("");
    }
    // Logging out revokes no API key: the next call still passes.
    expect((await emu.api("GET", "/auth/info")).status).toBe(200);
  });

  describe("Get service logs", () => {
    it("newest first, lines and entries alike, from the service's creation; 404 for an unknown service", async () => {
      const service = await calls.createReadyService();
      const response = await emu.api<{ logs: string[]; entries: { timestamp: string; message: string }[] }>(
        "GET",
        calls.path(service.service_id, "logs"),
      );
      expect(response.status).toBe(200);
      const { logs, entries } = response.body;
      expect(entries.at(-1)).toMatchObject({
        message: "database system is ready to accept connections",
        severity: "LOG",
        timestamp: service.created,
      });
      expect(logs).toEqual(entries.map((e) => e.message));
      const times = entries.map((e) => Date.parse(e.timestamp));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect((await emu.api("GET", calls.path("zzzzzzzzzz", "logs"))).status).toBe(404);
    });

    it("pages by last_cursor (and its deprecated lastCursor) to the first line, each entry once", async () => {
      let now = Date.parse("2026-01-01T00:00:00Z");
      const clocked = await startConformanceEmulator({ dialect: "vendor", now: () => now });
      try {
        const service = (
          await clocked.api<Service>("POST", `${clocked.projectPath}/services`, { name: "old" })
        ).body;
        now += (LOG_PAGE_SIZE + 20) * LOG_INTERVAL_MS;
        const path = `${clocked.projectPath}/services/${service.service_id}/logs`;
        const first = await clocked.api<{ entries: unknown[]; last_cursor?: string; lastCursor?: string }>(
          "GET",
          path,
        );
        expect(first.body.entries).toHaveLength(LOG_PAGE_SIZE);
        expect(first.body.last_cursor).toEqual(expect.any(String));
        expect(first.body.lastCursor).toBe(first.body.last_cursor);
        const second = await clocked.api<{ entries: { timestamp: string }[]; last_cursor?: string }>(
          "GET",
          `${path}?cursor=${encodeURIComponent(first.body.last_cursor!)}`,
        );
        expect(second.body.entries).toHaveLength(21);
        expect(second.body.entries.at(-1)!.timestamp).toBe(service.created);
        expect(second.body).not.toHaveProperty("last_cursor");
      } finally {
        await clocked.close();
      }
    });

    it("filters by severities and search terms (repeatable), since and until; 400 naming a bad parameter", async () => {
      const service = await calls.createReadyService();
      const path = calls.path(service.service_id, "logs");
      const severities = await emu.api<{ entries: { severity: string }[] }>(
        "GET",
        `${path}?severities=LOG&severities=ERROR`,
      );
      expect(severities.body.entries.every((e) => ["LOG", "ERROR"].includes(e.severity))).toBe(true);
      const searched = await emu.api<{ entries: unknown[] }>(
        "GET",
        `${path}?search=ready&search=connections`,
      );
      expect(searched.body.entries).toHaveLength(1);
      const before = await emu.api<{ entries: unknown[] }>("GET", `${path}?until=2000-01-01T00:00:00Z`);
      expect(before.body.entries).toEqual([]);
      const after = await emu.api<{ entries: unknown[] }>("GET", `${path}?since=2999-01-01T00:00:00Z`);
      expect(after.body.entries).toEqual([]);
      expectInvalid(await emu.api("GET", `${path}?since=yesterday`), "since");
      expectInvalid(await emu.api("GET", `${path}?node=-1`), "node");
      expectInvalid(await emu.api("GET", `${path}?node=1`), "node");
      expectInvalid(await emu.api("GET", `${path}?cursor=not-ours`), "cursor");
    });
  });

  describe("metrics", () => {
    it("lists the series, and answers one per bucket of the window, null before the service existed", async () => {
      const service = await calls.createReadyService({ cpu_millis: "1000", memory_gbs: "4" });
      const names = await emu.api<string[]>(
        "GET",
        calls.path(service.service_id, "metrics/available-series"),
      );
      expect(names.body).toContain("timescale_cloud_system_cpu_usage_millicores");
      const created = Date.parse(service.created!);
      const response = await emu.api<
        { labels: Record<string, string>; data: { time: string; value: number | null }[] }[]
      >("POST", calls.path(service.service_id, "metrics/series"), {
        name: "timescale_cloud_system_cpu_usage_millicores",
        from: new Date(created - 600_000).toISOString(),
        to: new Date(created + 600_000).toISOString(),
        filters: [{ key: "role", value: "primary" }],
      });
      expect(response.status).toBe(200);
      const [series] = response.body;
      expect(series.labels).toEqual({ role: "primary" });
      expect(series.data).toHaveLength(20);
      expect(series.data[0].value).toBeNull();
      const values = series.data.filter((d) => d.value !== null).map((d) => d.value!);
      expect(values.length).toBeGreaterThan(0);
      expect(values.every((v) => v > 0 && v <= 1000)).toBe(true);
    });

    it("400 naming an unknown series, a function these series refuse, a reversed window, an unknown field", async () => {
      const service = await calls.createReadyService();
      const path = calls.path(service.service_id, "metrics/series");
      const window = { from: "2026-01-01T00:00:00Z", to: "2026-01-01T01:00:00Z" };
      // Names of Object's own members are unknown series too, not a server error.
      for (const name of ["nope", "__proto__", "constructor", "toString"])
        expectInvalid(await emu.api("POST", path, { name, ...window }), "name");
      expectInvalid(
        await emu.api("POST", path, { name: "timescale_cloud_database_qps", fn: "AVG", ...window }),
        "fn",
      );
      expectInvalid(
        await emu.api("POST", path, {
          name: "timescale_cloud_database_qps",
          from: window.to,
          to: window.from,
        }),
        "to",
      );
      expectInvalid(
        await emu.api("POST", path, { name: "timescale_cloud_database_qps", ...window, step: 5 }),
        "\\(body\\)",
      );
    });
  });
});
