/**
 * The emulator's own features that clients are tested with: fault injection (rules before and
 * after processing, dropped connections, random rates, latency, Retry-After), the request log,
 * reset and settings. All over real HTTP.
 */
import { STRICT_RECORDS, type Service, type Vpc } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { startConformanceEmulator } from "./helpers";

const { ErrorBody } = STRICT_RECORDS;

let emu: TestEmulator;
let p: string;

beforeAll(async () => {
  emu = await startConformanceEmulator();
  p = emu.projectPath;
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const VPC = { name: "v", cidr: "10.0.0.0/16", region_code: "us-east-1" };
const servicesPath = () => `/public/api/v1${p}/services`;

async function serviceNames(): Promise<string[]> {
  return (await emu.api<Service[]>("GET", `${p}/services`)).body.map((s) => s.name);
}

async function vpcNames(): Promise<string[]> {
  return (await emu.api<Vpc[]>("GET", `${p}/vpcs`)).body.map((v) => v.name);
}

describe("fault rules", () => {
  it("after: true on POST services creates the service but answers 500; the request log shows it", async () => {
    await emu.setFaults({
      rules: [{ method: "POST", path: "/services$", count: 1, status: 500, after: true }],
    });
    const response = await emu.api("POST", `${p}/services`, { name: "ambiguous" });
    expect(response.status).toBe(500);
    expect(ErrorBody.parse(response.body).code).toBe("INTERNAL");
    expect(await serviceNames()).toEqual(["ambiguous"]);
    expect(await emu.requests()).toContainEqual({
      method: "POST",
      path: servicesPath(),
      status: 500,
      at: expect.any(String),
      userAgent: "node",
    });
    // The rule is used up: the next create succeeds.
    expect((await emu.api("POST", `${p}/services`, { name: "second" })).status).toBe(202);
    expect((await emu.admin<{ rules: unknown[] }>("GET", "/faults")).body.rules).toEqual([]);
  });

  it("a rule before processing fails `count` matching requests and changes nothing", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: "/services$", count: 2, status: 503 }] });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await emu.api("POST", `${p}/services`, { name: `try-${i}` })).status);
    expect(statuses).toEqual([503, 503, 202]);
    expect(await serviceNames()).toEqual(["try-2"]);
  });

  it("a rule only matches its method and path; `*` matches any method", async () => {
    await emu.setFaults({ rules: [{ method: "DELETE", path: "/vpcs/", status: 500, count: 5 }] });
    expect((await emu.api("POST", `${p}/vpcs`, VPC)).status).toBe(201);
    expect((await emu.api("GET", `${p}/vpcs`)).status).toBe(200);
    await emu.setFaults({ rules: [{ method: "*", path: "/vpcs", status: 502, count: 2 }] });
    expect((await emu.api("GET", `${p}/vpcs`)).status).toBe(502);
    expect((await emu.api("POST", `${p}/vpcs`, VPC)).status).toBe(502);
    expect((await emu.api("GET", `${p}/services`)).status).toBe(200);
  });

  it("a 429 carries Retry-After and the RATE_LIMITED code", async () => {
    await emu.setFaults({ retryAfterSeconds: 7, rules: [{ method: "GET", path: "/vpcs$", status: 429 }] });
    const response = await emu.api("GET", `${p}/vpcs`);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(ErrorBody.parse(response.body).code).toBe("RATE_LIMITED");
  });

  it("drop before processing: no answer, nothing created, logged with status 0", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: "/vpcs$", drop: true }] });
    await expect(emu.api("POST", `${p}/vpcs`, VPC)).rejects.toThrow();
    expect(await vpcNames()).toEqual([]);
    expect((await emu.requests()).filter((r) => r.method === "POST")).toEqual([
      {
        method: "POST",
        path: `/public/api/v1${p}/vpcs`,
        status: 0,
        at: expect.any(String),
        userAgent: "node",
      },
    ]);
  });

  it("drop after processing: no answer, but the VPC was created", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: "/vpcs$", drop: true, after: true }] });
    await expect(emu.api("POST", `${p}/vpcs`, VPC)).rejects.toThrow();
    expect(await vpcNames()).toEqual(["v"]);
    expect((await emu.requests()).find((r) => r.method === "POST")?.status).toBe(0);
  });

  it("down: the request is answered, then every API request is dropped until the faults are replaced", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: "/vpcs$", down: true }] });
    expect((await emu.api("POST", `${p}/vpcs`, VPC)).status).toBe(201);
    await expect(emu.api("GET", `${p}/vpcs`)).rejects.toThrow();
    expect((await emu.requests()).map((r) => [r.method, r.status])).toEqual([
      ["POST", 201],
      ["GET", 0],
    ]);
    await emu.setFaults({});
    expect(await vpcNames()).toEqual(["v"]);
  });

  it("an invalid configuration is refused with 400 naming the field", async () => {
    for (const [config, field] of [
      [{ rules: [{ method: "GET", path: "(" }] }, "rules.0.path"],
      [{ rate: 2 }, "rate"],
      [{ statuses: [200] }, "statuses.0"],
      [{ rules: [{ path: "x", drop: true, status: 500 }] }, "rules.0.drop"],
    ] as const) {
      const response = await emu.admin("PUT", "/faults", config);
      expect(response.status).toBe(400);
      expect(ErrorBody.parse(response.body).message).toMatch(new RegExp(`^${field.replace(".", "\\.")}: `));
    }
  });
});

describe("random faults", () => {
  it("rate 1 fails every API request with one of the statuses; admin routes are never faulted", async () => {
    await emu.setFaults({ rate: 1, statuses: [503] });
    for (let i = 0; i < 3; i++) expect((await emu.api("GET", `${p}/vpcs`)).status).toBe(503);
    expect((await emu.admin("GET", "/faults")).status).toBe(200);
    expect((await emu.requests()).map((r) => r.status)).toEqual([503, 503, 503]);
    await emu.setFaults({ rate: 0 });
    expect((await emu.api("GET", `${p}/vpcs`)).status).toBe(200);
  });

  it("dropRate 1 drops every API request", async () => {
    await emu.setFaults({ dropRate: 1 });
    await expect(emu.api("GET", `${p}/vpcs`)).rejects.toThrow();
  });

  it("latencyMs delays every API request", async () => {
    await emu.setFaults({ latencyMs: 150 });
    const started = Date.now();
    expect((await emu.api("GET", `${p}/vpcs`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
  });

  it("GET /_emulator/faults returns the configuration with defaults filled in", async () => {
    await emu.setFaults({ rate: 0.25, rules: [{ path: "/services$" }] });
    expect((await emu.admin("GET", "/faults")).body).toEqual({
      rate: 0.25,
      statuses: [500, 503, 429],
      retryAfterSeconds: 1,
      latencyMs: 0,
      dropRate: 0,
      rules: [{ method: "*", path: "/services$", count: 1 }],
    });
  });
});

describe("request log, reset, settings", () => {
  it("logs API requests with their status, refused ones included, admin ones not; DELETE clears it", async () => {
    await emu.api("GET", `${p}/vpcs`);
    await emu.api("GET", `${p}/vpcs`, undefined, { auth: null });
    await emu.api("GET", "/projects/elsewhere/vpcs");
    await emu.api("GET", `${p}/vpcs/vpc-missing0`);
    const log = await emu.requests();
    expect(log.map((r) => [r.method, r.path, r.status])).toEqual([
      ["GET", `/public/api/v1${p}/vpcs`, 200],
      ["GET", `/public/api/v1${p}/vpcs`, 401],
      ["GET", "/public/api/v1/projects/elsewhere/vpcs", 403],
      ["GET", `/public/api/v1${p}/vpcs/vpc-missing0`, 404],
    ]);
    expect(Number.isNaN(Date.parse(log[0].at))).toBe(false);
    await emu.clearRequests();
    expect(await emu.requests()).toEqual([]);
  });

  it("reset drops every record, the log and the faults", async () => {
    await emu.api("POST", `${p}/vpcs`, VPC);
    await emu.api("POST", `${p}/services`, { name: "gone-after-reset" });
    await emu.setFaults({ rules: [{ path: "/nothing", count: 3 }] });
    expect((await emu.admin("POST", "/reset")).status).toBe(204);
    expect(await emu.requests()).toEqual([]);
    expect((await emu.admin<{ rules: unknown[] }>("GET", "/faults")).body.rules).toEqual([]);
    expect(await vpcNames()).toEqual([]);
    expect(await serviceNames()).toEqual([]);
  });

  it("settings: transitionMs applies to actions accepted afterwards", async () => {
    expect((await emu.admin("GET", "/settings")).body).toEqual({ transitionMs: 30 });
    const set = await emu.admin("PUT", "/settings", { transitionMs: 0 });
    expect(set.body).toEqual({ transitionMs: 0 });
    const created = (await emu.api<Service>("POST", `${p}/services`, { name: "instant" })).body;
    expect(created.status).toBe("QUEUED");
    expect((await emu.api<Service>("GET", `${p}/services/${created.service_id}`)).body.status).toBe("READY");
    expect((await emu.admin("PUT", "/settings", { transitionMs: -1 })).status).toBe(400);
    await emu.setTransitionMs(30);
  });

  it("admin routes need the same credentials", async () => {
    const response = await fetch(`${emu.origin}/_emulator/requests`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic/);
  });
});
