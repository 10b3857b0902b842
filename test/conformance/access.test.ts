/**
 * Conformance, for every operation of api/operations.ts at once, in each dialect: HTTP Basic is
 * required (401 with WWW-Authenticate, without credentials and with wrong ones), the key reaches its
 * own project only (403), unknown ids answer 404; and the operations about the caller (auth info,
 * analytics).
 */
import {
  OPERATIONS,
  OPERATION_IDS,
  SPEC_OPERATION_IDS,
  VENDOR_OPERATION_IDS,
  fillPath,
  operationIdsOf,
  type Operation,
} from "../../api/operations";
import {
  STRICT_RECORDS,
  type ReadReplicaSet,
  type Service,
  type Vpc,
  type VpcPeering,
} from "../../api/schemas";
import { basicAuth, type TestEmulator } from "../helpers/emulator";
import { exampleBody, type Ids } from "./examples";
import { DIALECT_CASES, startConformanceEmulator } from "./helpers";

const { AnalyticsResult, AuthInfo, ErrorBody } = STRICT_RECORDS;

it("the table holds the 34 operations of the spec and the vendor's 6 additions, each once", () => {
  const all = OPERATION_IDS.map((id) => OPERATIONS[id] as Operation);
  expect(SPEC_OPERATION_IDS).toHaveLength(34);
  expect(VENDOR_OPERATION_IDS).toEqual([
    "renameService",
    "listProjects",
    "getServiceLogs",
    "listServiceMetricSeries",
    "getServiceMetricSeries",
    "logout",
  ]);
  expect(new Set(all.map((op) => `${op.method} ${op.path}`)).size).toBe(40);
  expect(new Set(all.map((op) => op.name)).size).toBe(40);
});

describe.each(DIALECT_CASES)("%s dialect", (dialect) => {
  let emu: TestEmulator;
  let ids: Ids;

  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
    const p = emu.projectPath;
    const service = (await emu.api<Service>("POST", `${p}/services`, { name: "access-db" })).body;
    await emu.waitFor(
      () => emu.api<Service>("GET", `${p}/services/${service.service_id}`),
      (r) => r.body.status === "READY",
    );
    const replicaSet = (
      await emu.api<ReadReplicaSet>("POST", `${p}/services/${service.service_id}/replicaSets`, {
        name: "r1",
        nodes: 1,
        cpu_millis: 250,
        memory_gbs: 1,
      })
    ).body;
    const vpc = (
      await emu.api<Vpc>("POST", `${p}/vpcs`, {
        name: "access-vpc",
        cidr: "10.1.0.0/16",
        region_code: "us-east-1",
      })
    ).body;
    const peering = (
      await emu.api<VpcPeering>("POST", `${p}/vpcs/${vpc.id}/peerings`, {
        peer_account_id: "acct-1",
        peer_region_code: "us-east-1",
        peer_vpc_id: "vpc-peer",
      })
    ).body;
    ids = {
      project_id: emu.credentials.projectId,
      service_id: service.service_id,
      replica_set_id: replicaSet.id,
      vpc_id: vpc.id,
      peering_id: peering.id,
    };
  });

  afterAll(() => emu.close());

  const byName = operationIdsOf(dialect).map(
    (id) => [OPERATIONS[id].name, OPERATIONS[id] as Operation] as const,
  );

  async function call(op: Operation, callIds: Ids, auth?: string | null) {
    const path = fillPath(
      op.path,
      op.params.map((param) => callIds[param]),
    );
    return emu.api(op.method, path, exampleBody(op.id, callIds), { auth });
  }

  describe("without credentials", () => {
    it.each(byName)("%s answers 401 UNAUTHORIZED with WWW-Authenticate: Basic", async (_name, op) => {
      const response = await call(op, ids, null);
      expect(response.status).toBe(401);
      expect(ErrorBody.parse(response.body).code).toBe("UNAUTHORIZED");
      expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
    });
  });

  describe("with a wrong secret key", () => {
    it.each(byName)("%s answers 401 UNAUTHORIZED", async (_name, op) => {
      const response = await call(op, ids, basicAuth(emu.credentials.publicKey, "not-the-secret"));
      expect(response.status).toBe(401);
      expect(ErrorBody.parse(response.body).code).toBe("UNAUTHORIZED");
    });
  });

  it.each([
    ["an unknown public key", basicAuth("someone-else", "mdb-dev-secret")],
    ["a Bearer token", "Bearer mdb-dev-secret"],
    ["Basic without a colon", `Basic ${Buffer.from("mdb-dev-public").toString("base64")}`],
  ])("%s is refused with 401", async (_what, auth) => {
    const response = await emu.api("GET", "/auth/info", undefined, { auth });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: "UNAUTHORIZED", message: expect.any(String) });
  });

  describe("another project", () => {
    const projectScoped = byName.filter(([, op]) => op.params.includes("project_id"));
    it.each(projectScoped)("%s answers 403 FORBIDDEN", async (_name, op) => {
      const response = await call(op, { ...ids, project_id: "proj-of-someone-else" });
      expect(response.status).toBe(403);
      expect(ErrorBody.parse(response.body)).toEqual({
        code: "FORBIDDEN",
        message: expect.stringContaining("proj-of-someone-else"),
      });
    });
  });

  describe("an unknown id", () => {
    const cases = byName.flatMap(([name, op]) =>
      op.params.filter((param) => param !== "project_id").map((param) => [name, param, op] as const),
    );
    it.each(cases)("%s with an unknown %s answers 404 NOT_FOUND naming it", async (_name, idName, op) => {
      // The vendor's VPC and peering ids are digits: an unknown one is too (another is a 400).
      const unknown =
        idName === "service_id"
          ? "zzzzzzzzzz"
          : dialect === "vendor" && (idName === "vpc_id" || idName === "peering_id")
            ? "9999999999"
            : `${ids[idName].slice(0, 4)}unknown0`;
      const response = await call(op, { ...ids, [idName]: unknown });
      expect(response.status).toBe(404);
      expect(ErrorBody.parse(response.body)).toEqual({
        code: "NOT_FOUND",
        message: expect.stringContaining(unknown),
      });
    });
  });

  it("refused calls changed nothing", async () => {
    const p = emu.projectPath;
    const services = (await emu.api<Service[]>("GET", `${p}/services`)).body;
    expect(services.map((s) => [s.service_id, s.status, s.metadata?.environment])).toEqual([
      [ids.service_id, "READY", "DEV"],
    ]);
    expect((await emu.api<Vpc[]>("GET", `${p}/vpcs`)).body.map((v) => v.name)).toEqual(["access-vpc"]);
    const peerings = (await emu.api<VpcPeering[]>("GET", `${p}/vpcs/${ids.vpc_id}/peerings`)).body;
    expect(peerings.map((x) => x.id)).toEqual([ids.peering_id]);
    const replicaSets = (
      await emu.api<ReadReplicaSet[]>("GET", `${p}/services/${ids.service_id}/replicaSets`)
    ).body;
    expect(replicaSets.map((r) => [r.id, r.cpu_millis])).toEqual([[ids.replica_set_id, 250]]);
  });

  it("an unknown route answers 404 NOT_FOUND with an error body", async () => {
    const response = await emu.api("GET", "/projects/proj-dev/nothing-here");
    expect(response.status).toBe(404);
    expect(ErrorBody.parse(response.body).code).toBe("NOT_FOUND");
  });

  describe("Get Authentication Info", () => {
    it("200 describes the caller's key and project, never the secret", async () => {
      const response = await emu.api("GET", "/auth/info");
      expect(response.status).toBe(200);
      const info = AuthInfo.parse(response.body);
      expect(info.type).toBe("apiKey");
      expect(info.apiKey.public_key).toBe(emu.credentials.publicKey);
      expect(info.apiKey.project.id).toBe(emu.credentials.projectId);
      expect(info.apiKey).toEqual(
        expect.objectContaining({
          name: expect.any(String),
          created: expect.any(String),
          project: expect.objectContaining({ name: expect.any(String), plan_type: expect.any(String) }),
          issuing_user: expect.objectContaining({ id: expect.any(String), email: expect.any(String) }),
        }),
      );
      expect(response.text).not.toContain(emu.credentials.secretKey);
    });
  });

  describe("Identify a user", () => {
    it("200 {status} with properties, and with no body at all", async () => {
      const withProps = await emu.api("POST", "/analytics/identify", {
        properties: { plan: "dev", seats: 3 },
      });
      expect(withProps.status).toBe(200);
      expect(AnalyticsResult.parse(withProps.body).status).toBe("ok");
      const bare = await emu.api("POST", "/analytics/identify");
      expect(bare.status).toBe(200);
      expect(bare.body).toEqual({ status: "ok" });
    });

    it("400 naming properties when it is not an object", async () => {
      const response = await emu.api("POST", "/analytics/identify", { properties: "plan=dev" });
      expect(response.status).toBe(400);
      expect(ErrorBody.parse(response.body)).toEqual({
        code: "INVALID_REQUEST",
        message: expect.stringMatching(/^properties: /),
      });
    });
  });

  describe("Track an Analytics Event", () => {
    it("200 {status}", async () => {
      const response = await emu.api("POST", "/analytics/track", {
        event: "stack-deployed",
        properties: { n: 1 },
      });
      expect(response.status).toBe(200);
      expect(AnalyticsResult.parse(response.body).status).toBe("ok");
    });

    it("400 naming event when it is missing", async () => {
      const response = await emu.api("POST", "/analytics/track", { properties: {} });
      expect(response.status).toBe(400);
      expect(ErrorBody.parse(response.body)).toEqual({
        code: "INVALID_REQUEST",
        message: expect.stringMatching(/^event: /),
      });
    });
  });

  it.each([
    ["malformed JSON", '{"name": "v",'],
    [
      "JSON with __proto__",
      '{"__proto__": {"x": 1}, "name": "v", "cidr": "10.0.0.0/16", "region_code": "r"}',
    ],
  ])("%s answers 400 INVALID_REQUEST about the body, and creates nothing", async (_what, rawBody) => {
    const response = await emu.api("POST", `${emu.projectPath}/vpcs`, undefined, { rawBody });
    expect(response.status).toBe(400);
    expect(ErrorBody.parse(response.body)).toEqual({
      code: "INVALID_REQUEST",
      message: expect.stringMatching(/^\(body\): /),
    });
    expect((await emu.api<Vpc[]>("GET", `${emu.projectPath}/vpcs`)).body).toHaveLength(1);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded"])(
    "a %s body answers 400 INVALID_REQUEST about the body, and creates nothing",
    async (contentType) => {
      const response = await fetch(`${emu.url}${emu.projectPath}/vpcs`, {
        method: "POST",
        headers: { authorization: emu.credentials.authorization, "content-type": contentType },
        body: "name=v&cidr=10.0.0.0/16&region_code=us-east-1",
      });
      expect(response.status).toBe(400);
      expect(ErrorBody.parse(await response.json())).toEqual({
        code: "INVALID_REQUEST",
        message: expect.stringMatching(/^\(body\): /),
      });
      expect((await emu.api<Vpc[]>("GET", `${emu.projectPath}/vpcs`)).body).toHaveLength(1);
    },
  );
});
