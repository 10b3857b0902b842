/**
 * Conformance, for all 34 operations at once: HTTP Basic is required (401 with WWW-Authenticate,
 * without credentials and with wrong ones), the key reaches its own project only (403), unknown
 * ids answer 404; and the operations about the caller (auth info, analytics).
 */
import {
  AnalyticsResultSchema,
  AuthInfoSchema,
  ErrorBodySchema,
  type ReadReplicaSet,
  type Service,
  type Vpc,
  type VpcPeering,
} from "../../provider/client/schemas";
import { basicAuth, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { OPERATIONS, fillPath, resourceIdsOf, type Ids, type Operation } from "./operations";

let emu: TestEmulator;
let ids: Ids;

beforeAll(async () => {
  emu = await startTestEmulator();
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

const byName = OPERATIONS.map((op) => [op.name, op] as const);

async function call(op: Operation, callIds: Ids, auth?: string | null) {
  return emu.api(op.method, fillPath(op.path, callIds), op.body?.(callIds), { auth });
}

test("the table covers the 34 operations of the spec, each once", () => {
  expect(OPERATIONS).toHaveLength(34);
  expect(new Set(OPERATIONS.map((op) => `${op.method} ${op.path}`)).size).toBe(34);
});

describe("without credentials", () => {
  test.each(byName)("%s answers 401 UNAUTHORIZED with WWW-Authenticate: Basic", async (_name, op) => {
    const response = await call(op, ids, null);
    expect(response.status).toBe(401);
    expect(ErrorBodySchema.parse(response.body).code).toBe("UNAUTHORIZED");
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
  });
});

describe("with a wrong secret key", () => {
  test.each(byName)("%s answers 401 UNAUTHORIZED", async (_name, op) => {
    const response = await call(op, ids, basicAuth(emu.credentials.publicKey, "not-the-secret"));
    expect(response.status).toBe(401);
    expect(ErrorBodySchema.parse(response.body).code).toBe("UNAUTHORIZED");
  });
});

test.each([
  ["an unknown public key", basicAuth("someone-else", "mdb-dev-secret")],
  ["a Bearer token", "Bearer mdb-dev-secret"],
  ["Basic without a colon", `Basic ${Buffer.from("mdb-dev-public").toString("base64")}`],
])("%s is refused with 401", async (_what, auth) => {
  const response = await emu.api("GET", "/auth/info", undefined, { auth });
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ code: "UNAUTHORIZED", message: expect.any(String) });
});

describe("another project", () => {
  const projectScoped = byName.filter(([, op]) => op.path.includes("{project_id}"));
  test.each(projectScoped)("%s answers 403 FORBIDDEN", async (_name, op) => {
    const response = await call(op, { ...ids, project_id: "proj-of-someone-else" });
    expect(response.status).toBe(403);
    expect(ErrorBodySchema.parse(response.body)).toEqual({
      code: "FORBIDDEN",
      message: expect.stringContaining("proj-of-someone-else"),
    });
  });
});

describe("an unknown id", () => {
  const cases = OPERATIONS.flatMap((op) => resourceIdsOf(op.path).map((id) => [op.name, id, op] as const));
  test.each(cases)("%s with an unknown %s answers 404 NOT_FOUND naming it", async (_name, idName, op) => {
    const unknown = idName === "service_id" ? "zzzzzzzzzz" : `${ids[idName].slice(0, 4)}unknown0`;
    const response = await call(op, { ...ids, [idName]: unknown });
    expect(response.status).toBe(404);
    expect(ErrorBodySchema.parse(response.body)).toEqual({
      code: "NOT_FOUND",
      message: expect.stringContaining(unknown),
    });
  });
});

test("refused calls changed nothing", async () => {
  const p = emu.projectPath;
  const services = (await emu.api<Service[]>("GET", `${p}/services`)).body;
  expect(services.map((s) => [s.service_id, s.status, s.metadata?.environment])).toEqual([
    [ids.service_id, "READY", "DEV"],
  ]);
  expect((await emu.api<Vpc[]>("GET", `${p}/vpcs`)).body.map((v) => v.name)).toEqual(["access-vpc"]);
  const peerings = (await emu.api<VpcPeering[]>("GET", `${p}/vpcs/${ids.vpc_id}/peerings`)).body;
  expect(peerings.map((x) => x.id)).toEqual([ids.peering_id]);
  const replicaSets = (await emu.api<ReadReplicaSet[]>("GET", `${p}/services/${ids.service_id}/replicaSets`))
    .body;
  expect(replicaSets.map((r) => [r.id, r.cpu_millis])).toEqual([[ids.replica_set_id, 250]]);
});

test("an unknown route answers 404 NOT_FOUND with an error body", async () => {
  const response = await emu.api("GET", "/projects/proj-dev/nothing-here");
  expect(response.status).toBe(404);
  expect(ErrorBodySchema.parse(response.body).code).toBe("NOT_FOUND");
});

describe("Get Authentication Info", () => {
  test("200 describes the caller's key and project, never the secret", async () => {
    const response = await emu.api("GET", "/auth/info");
    expect(response.status).toBe(200);
    const info = AuthInfoSchema.parse(response.body);
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
  test("200 {status} with properties, and with no body at all", async () => {
    const withProps = await emu.api("POST", "/analytics/identify", { properties: { plan: "dev", seats: 3 } });
    expect(withProps.status).toBe(200);
    expect(AnalyticsResultSchema.parse(withProps.body).status).toBe("ok");
    const bare = await emu.api("POST", "/analytics/identify");
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual({ status: "ok" });
  });

  test("400 naming properties when it is not an object", async () => {
    const response = await emu.api("POST", "/analytics/identify", { properties: "plan=dev" });
    expect(response.status).toBe(400);
    expect(ErrorBodySchema.parse(response.body)).toEqual({
      code: "INVALID_REQUEST",
      message: expect.stringMatching(/^properties: /),
    });
  });
});

describe("Track an Analytics Event", () => {
  test("200 {status}", async () => {
    const response = await emu.api("POST", "/analytics/track", {
      event: "stack-deployed",
      properties: { n: 1 },
    });
    expect(response.status).toBe(200);
    expect(AnalyticsResultSchema.parse(response.body).status).toBe("ok");
  });

  test("400 naming event when it is missing", async () => {
    const response = await emu.api("POST", "/analytics/track", { properties: {} });
    expect(response.status).toBe(400);
    expect(ErrorBodySchema.parse(response.body)).toEqual({
      code: "INVALID_REQUEST",
      message: expect.stringMatching(/^event: /),
    });
  });
});

test.each([
  ["malformed JSON", '{"name": "v",'],
  ["JSON with __proto__", '{"__proto__": {"x": 1}, "name": "v", "cidr": "10.0.0.0/16", "region_code": "r"}'],
])("%s answers 400 INVALID_REQUEST about the body, and creates nothing", async (_what, rawBody) => {
  const response = await emu.api("POST", `${emu.projectPath}/vpcs`, undefined, { rawBody });
  expect(response.status).toBe(400);
  expect(ErrorBodySchema.parse(response.body)).toEqual({
    code: "INVALID_REQUEST",
    message: expect.stringMatching(/^\(body\): /),
  });
  expect((await emu.api<Vpc[]>("GET", `${emu.projectPath}/vpcs`)).body).toHaveLength(1);
});

test.each(["text/plain", "application/x-www-form-urlencoded"])(
  "a %s body answers 400 INVALID_REQUEST about the body, and creates nothing",
  async (contentType) => {
    const response = await fetch(`${emu.url}${emu.projectPath}/vpcs`, {
      method: "POST",
      headers: { authorization: emu.credentials.authorization, "content-type": contentType },
      body: "name=v&cidr=10.0.0.0/16&region_code=us-east-1",
    });
    expect(response.status).toBe(400);
    expect(ErrorBodySchema.parse(await response.json())).toEqual({
      code: "INVALID_REQUEST",
      message: expect.stringMatching(/^\(body\): /),
    });
    expect((await emu.api<Vpc[]>("GET", `${emu.projectPath}/vpcs`)).body).toHaveLength(1);
  },
);
