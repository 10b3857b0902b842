/**
 * What check verifies beyond the inputs once Pulumi's provider host has configured the provider,
 * against an emulator: one read-only call tells a wrong key (401) or a project the key cannot
 * reach (403), naming the settings to fix, and is made once per project for the process; a
 * Service's vpcId is looked up (missing, in another region) at check, and again before the
 * create, so nothing is created for a bad one; a record this run created is read as it was left,
 * with no call. Check itself never changes anything.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PROVIDERS } from "../../provider/host";
import { UNKNOWN } from "../../provider/kit/fields/check";
import { configureRuntime } from "../../provider/runtime";
import { describeCall, errorOf, pointProviderAt, recordCalls } from "../helpers/provider";

type Props = Record<string, unknown>;

const services = PROVIDERS.service;
const service = {
  name: "pre-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
};
let emu: TestEmulator;
let restore: () => void;

beforeAll(async () => {
  emu = await startTestEmulator();
  restore = pointProviderAt(emu);
  // What the provider host does before the first check.
  await services.configure?.({ config: { get: () => undefined } } as never);
});
afterAll(async () => {
  restore();
  await emu.close();
});

/** check as the host calls it (with `__provider`): the failures, as `property: reason`. */
async function failuresOf(news: Props, olds: Props = {}): Promise<string[]> {
  const result = await services.check(olds, { __provider: "p", ...news });
  return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

/** Runs `action` and returns every request it made, GETs included. */
async function requestsOf(action: () => Promise<unknown>): Promise<string[]> {
  await emu.clearRequests();
  await action();
  await new Promise((resolve) => setTimeout(resolve, 5));
  return (await emu.requests()).map((entry) => describeCall(emu, entry));
}

/** Runs `action` with `env` over the emulator's settings and a fresh client, then puts them back. */
async function withEnv<T>(env: Record<string, string | null>, action: () => Promise<T>): Promise<T> {
  const undo = pointProviderAt(emu);
  for (const [key, value] of Object.entries(env)) {
    if (value === null) delete process.env[key];
    else process.env[key] = value;
  }
  configureRuntime(undefined);
  try {
    return await action();
  } finally {
    undo();
  }
}

describe("access", () => {
  it("a valid program passes with one read-only call for the process", async () => {
    const calls = await requestsOf(async () => {
      for (let i = 0; i < 3; i++) expect(await failuresOf(service)).toEqual([]);
    });
    // The configured project is the key's own: GET /auth/info answers both questions. The
    // services, once for the run: is the name the program chose taken (taken.ts)?
    expect(calls).toEqual(["GET /auth/info", "GET /projects/{project}/services"]);
  });

  it("a wrong key (401) names both halves of the key, never the secret", async () => {
    const failures = await withEnv({ MDB_SECRET_KEY: "wrong-secret-77" }, () => failuresOf(service));
    expect(failures).toEqual([
      expect.stringMatching(
        /^: the API refused the key \(HTTP 401 UNAUTHORIZED: .*\); check mdb:publicKey \/ MDB_PUBLIC_KEY and mdb:secretKey \/ MDB_SECRET_KEY$/,
      ),
    ]);
    expect(failures.join()).not.toContain("wrong-secret-77");
  });

  it("a configured project the key cannot reach (403) names mdb:projectId / MDB_PROJECT_ID", async () => {
    const failures = await withEnv({ MDB_PROJECT_ID: "proj-not-mine" }, () => failuresOf(service));
    expect(failures).toEqual([
      expect.stringMatching(
        /^: the API key cannot reach project proj-not-mine, set by mdb:projectId \/ MDB_PROJECT_ID \(HTTP 403 FORBIDDEN: .*\); set it to a project the key belongs to/,
      ),
    ]);
  });

  it("a projectId input the key cannot reach (403) is a problem of that property", async () => {
    expect(await failuresOf({ ...service, projectId: "proj-not-mine" })).toEqual([
      expect.stringMatching(
        /^projectId: the API key cannot reach project proj-not-mine \(HTTP 403 FORBIDDEN: /,
      ),
    ]);
  });

  it("without a configured project, the key's own project is asked for (GET /auth/info)", async () => {
    const calls = await withEnv({ MDB_PROJECT_ID: null }, () =>
      requestsOf(async () => expect(await failuresOf(service)).toEqual([])),
    );
    expect(calls).toEqual(["GET /auth/info"]);
  });

  it("an API that does not answer names mdb:apiUrl / MDB_API_URL", async () => {
    const failures = await withEnv({ MDB_API_URL: "http://127.0.0.1:9" }, () => failuresOf(service));
    expect(failures).toEqual([
      expect.stringMatching(
        /^: cannot reach the API at http:\/\/127\.0\.0\.1:9, set by mdb:apiUrl \/ MDB_API_URL: ECONNREFUSED/,
      ),
    ]);
  });
});

describe("an API URL that does not answer as the API fails check, naming mdb:apiUrl / MDB_API_URL", () => {
  let server: http.Server;
  let origin: string;
  /** What the stand-in server answers, per path. */
  const answers: Record<string, { status: number; type: string; body: string; location?: string }> = {
    "/html/auth/info": {
      status: 200,
      type: "text/html",
      body: "<!DOCTYPE html><html><body>Welcome</body></html>",
    },
    "/html404/auth/info": {
      status: 404,
      type: "text/html",
      body: "<html><body><h1>404 Not Found</h1></body></html>",
    },
    "/other/auth/info": { status: 200, type: "application/json", body: '{"status":"ok","version":"2.4.1"}' },
    "/other404/auth/info": { status: 404, type: "application/json", body: '{"error":"no such route"}' },
    "/forbidden/auth/info": {
      status: 403,
      type: "application/json",
      body: '{"code":"FORBIDDEN","message":"key disabled"}',
    },
    "/moved/auth/info": {
      status: 301,
      type: "text/plain",
      body: "",
      location: "https://elsewhere.example/v9/auth/info",
    },
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const answer = answers[req.url ?? ""] ?? { status: 500, type: "text/plain", body: "unexpected" };
      res.writeHead(answer.status, {
        "content-type": answer.type,
        ...(answer.location ? { location: answer.location } : {}),
      });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const NAMED =
    /^: the server at \S+, set by mdb:apiUrl \/ MDB_API_URL, does not answer as the Managed Database API \(GET \S+\/auth\/info: /;

  it("the emulator under another path (/api/v2): its 404, with one call", async () => {
    const url = `${new URL(emu.url).origin}/api/v2`;
    const calls = await withEnv({ MDB_API_URL: url }, () =>
      requestsOf(async () => {
        const failures = await failuresOf(service);
        expect(failures).toEqual([expect.stringMatching(NAMED)]);
        expect(failures[0]).toContain(`the server at ${url},`);
        expect(failures[0]).toMatch(
          /HTTP 404, .*\); set mdb:apiUrl \/ MDB_API_URL to the API's base URL, e\.g\. https:\/\/api\.example\.com\/public\/api\/v1/,
        );
      }),
    );
    expect(calls).toEqual(["GET /api/v2/auth/info"]);
  });

  it.each([
    ["an HTML page (200)", "/html", "HTTP 200, an HTML page"],
    ["an HTML 404 page", "/html404", "HTTP 404, an HTML page"],
    ["another service's JSON (200)", "/other", "HTTP 200, a body that is not the API's"],
    ["another service's JSON 404", "/other404", 'HTTP 404, HTTP_404: {"error":"no such route"}'],
    [
      "a redirect",
      "/moved",
      "HTTP 301, the server redirected the request to https://elsewhere.example/v9/auth/info",
    ],
  ])("%s", async (_what, path, answer) => {
    const failures = await withEnv({ MDB_API_URL: `${origin}${path}` }, () => failuresOf(service));
    expect(failures).toEqual([expect.stringMatching(NAMED)]);
    expect(failures[0]).toContain(`(GET ${origin}${path}/auth/info: ${answer})`);
  });

  it("a 403 on GET /auth/info is the key's problem, naming both halves of the key", async () => {
    const failures = await withEnv({ MDB_API_URL: `${origin}/forbidden`, MDB_PROJECT_ID: "proj-x" }, () =>
      failuresOf(service),
    );
    expect(failures).toEqual([
      ": the API refused the key (HTTP 403 FORBIDDEN: key disabled); check mdb:publicKey / MDB_PUBLIC_KEY and mdb:secretKey / MDB_SECRET_KEY",
    ]);
  });

  it("with a projectId input too: the URL is what is wrong, not the project", async () => {
    const failures = await withEnv({ MDB_API_URL: `${origin}/html` }, () =>
      failuresOf({ ...service, projectId: "proj-other" }),
    );
    expect(failures).toEqual([expect.stringMatching(NAMED)]);
  });
});

describe("the service's VPC", () => {
  let otherRegion: string;
  let sameRegion: string;
  beforeAll(async () => {
    const vpc = (region: string, cidr: string) =>
      emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
        name: `pre-${region}`,
        cidr,
        region_code: region,
      });
    otherRegion = (await vpc("eu-west-1", "10.1.0.0/16")).body.id;
    sameRegion = (await vpc("us-east-1", "10.2.0.0/16")).body.id;
  });

  it("a VPC that does not exist fails check, naming vpcId", async () => {
    expect(await failuresOf({ ...service, vpcId: "vpc-nope" })).toEqual([
      `vpcId: VPC vpc-nope does not exist in project ${emu.credentials.projectId}; give the id of an existing VPC in us-east-1`,
    ]);
  });

  it("a VPC in another region fails check, naming both regions", async () => {
    expect(await failuresOf({ ...service, vpcId: otherRegion })).toEqual([
      `vpcId: VPC ${otherRegion} is in region eu-west-1, but the service is in us-east-1 (regionCode); ` +
        "a service attaches only to a VPC of its own region",
    ]);
  });

  it("a VPC of the service's region passes, with one GET of it and nothing else", async () => {
    const calls = await requestsOf(async () =>
      expect(await failuresOf({ ...service, vpcId: sameRegion })).toEqual([]),
    );
    expect(calls).toEqual(["GET /projects/{project}/vpcs/{vpc}"]);
  });

  it("is not looked up while unknown (preview), nor when it and the region are as last checked", async () => {
    const unchanged = { ...service, vpcId: sameRegion };
    const calls = await requestsOf(async () => {
      expect(await failuresOf({ ...service, vpcId: UNKNOWN })).toEqual([]);
      expect(await failuresOf(unchanged, unchanged)).toEqual([]);
    });
    expect(calls).toEqual([]);
  });

  it("a region change looks the unchanged VPC up again, and fails", async () => {
    const olds = { ...service, vpcId: sameRegion };
    expect(await failuresOf({ ...olds, regionCode: "eu-west-1" }, olds)).toEqual([
      expect.stringMatching(
        new RegExp(`^vpcId: VPC ${sameRegion} is in region us-east-1, but the service is in eu-west-1`),
      ),
    ]);
  });

  it("a lookup the API fails to answer finds nothing wrong: check passes, create looks again", async () => {
    await emu.setFaults({ rules: [{ method: "GET", path: "/vpcs/vpc-flaky$", status: 400 }] });
    try {
      expect(await failuresOf({ ...service, vpcId: "vpc-flaky" })).toEqual([]);
    } finally {
      await emu.setFaults({});
    }
  });

  it("create looks again before creating: a VPC gone since check fails with no create call", async () => {
    const inputs = { ...service, name: "pre-gone", vpcId: "vpc-gone" };
    const { result: error, calls } = await recordCalls(emu, () => errorOf(services.create(inputs)));
    expect(error.message).toBe(
      `cannot create service pre-gone: vpcId: VPC vpc-gone does not exist in project ${emu.credentials.projectId}; ` +
        "give the id of an existing VPC in us-east-1",
    );
    expect(calls).toEqual([]);
    expect((await emu.api<unknown[]>("GET", `${emu.projectPath}/services`)).body).toEqual([]);
  });
});

describe("the records a new resource names by id", () => {
  const sets = PROVIDERS["read-replica-set"];
  const peerings = PROVIDERS["vpc-peering"];
  const set = { name: "pre-reads", nodes: 1, cpuMillis: 500, memoryGbs: 2 };
  const peering = { peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-peer" };
  let sourceId: string;
  let vpcId: string;
  beforeAll(async () => {
    const body = { name: "pre-source", region_code: "us-east-1", cpu_millis: "500", memory_gbs: "2" };
    sourceId = (await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, body)).body
      .service_id;
    const vpc = { name: "pre-peer", cidr: "10.3.0.0/16", region_code: "us-east-1" };
    vpcId = (await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, vpc)).body.id;
  });

  /** check of `provider` as the host calls it: the failures, as `property: reason`. */
  async function failuresFrom(provider: typeof sets, news: Props, olds: Props = {}): Promise<string[]> {
    const result = await provider.check(olds, { __provider: "p", ...news });
    return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
  }
  const project = () => emu.credentials.projectId;

  it("a read replica set of a service that does not exist fails check, naming serviceId", async () => {
    expect(await failuresFrom(sets, { ...set, serviceId: "svcnope123" })).toEqual([
      `serviceId: service svcnope123 does not exist in project ${project()}; give the id of an existing service`,
    ]);
  });

  it("a read replica set of a service being deleted fails check", async () => {
    const body = { name: "pre-leaving", region_code: "us-east-1", cpu_millis: "500", memory_gbs: "2" };
    const leaving = (await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, body)).body
      .service_id;
    await emu.withTransitionMs(async () => {
      await emu.api("DELETE", `${emu.projectPath}/services/${leaving}`);
      expect(await failuresFrom(sets, { ...set, serviceId: leaving })).toEqual([
        `serviceId: service ${leaving} is being deleted (DELETING); give the id of an existing service`,
      ]);
    });
  });

  it("an existing service passes with one GET of it; unknown or unchanged, none", async () => {
    const known = { ...set, serviceId: sourceId };
    const calls = await requestsOf(async () => expect(await failuresFrom(sets, known)).toEqual([]));
    // ... and its replica sets, once for the run: is the name the program chose taken?
    expect(calls).toEqual([
      "GET /projects/{project}/services/{service}",
      "GET /projects/{project}/services/{service}/replicaSets",
    ]);
    const none = await requestsOf(async () => {
      expect(await failuresFrom(sets, { ...set, serviceId: UNKNOWN })).toEqual([]);
      expect(await failuresFrom(sets, known, known)).toEqual([]);
    });
    expect(none).toEqual([]);
  });

  it("a peering of a VPC that does not exist fails check, naming vpcId; an existing one passes", async () => {
    expect(await failuresFrom(peerings, { ...peering, vpcId: "vpc-nope" })).toEqual([
      `vpcId: VPC vpc-nope does not exist in project ${project()}; give the id of an existing VPC of this project`,
    ]);
    expect(await failuresFrom(peerings, { ...peering, vpcId })).toEqual([]);
  });

  // A nested property's failure is the resource's (Pulumi prints the property's value otherwise).
  it("a fork of a service that does not exist fails check, naming forkFrom.serviceId", async () => {
    const fork = { ...service, forkFrom: { serviceId: "svcnope123", strategy: "NOW" } };
    expect(await failuresOf(fork)).toEqual([
      `: property forkFrom.serviceId service svcnope123 does not exist in project ${project()}; ` +
        "give the id of an existing service to fork",
    ]);
  });

  it("a fork that asks for another type or region than its source's fails check, naming both", async () => {
    const fork = {
      ...service,
      serviceType: "VECTOR",
      regionCode: "eu-west-1",
      forkFrom: { serviceId: sourceId, strategy: "NOW" },
    };
    expect(await failuresOf(fork)).toEqual([
      ": property forkFrom.serviceId a fork keeps its source's type and region; serviceType is VECTOR but the " +
        "source is POSTGRES; regionCode is eu-west-1 but the source is in us-east-1",
    ]);
    const same = { ...fork, serviceType: "POSTGRES", regionCode: "us-east-1" };
    expect(await failuresOf(same)).toEqual([]);
    expect(await requestsOf(() => failuresOf(same, same))).toEqual([]);
  });

  it("a point-in-time fork at a time in the future or before its source existed fails check, naming forkFrom.targetTime", async () => {
    const source = (await emu.api<{ created: string }>("GET", `${emu.projectPath}/services/${sourceId}`))
      .body;
    const pitr = (targetTime: string) => ({
      ...service,
      forkFrom: { serviceId: sourceId, strategy: "PITR", targetTime },
    });
    const needs = `a point-in-time fork needs a time between the source's creation (${source.created}) and now`;
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await failuresOf(pitr(future))).toEqual([
      `: property forkFrom.targetTime ${future} is in the future; ${needs}`,
    ]);
    const before = new Date(Date.parse(source.created) - 60_000).toISOString();
    expect(await failuresOf(pitr(before))).toEqual([
      `: property forkFrom.targetTime ${before} is before the source was created; ${needs}`,
    ]);
    expect(await failuresOf(pitr(new Date().toISOString()))).toEqual([]);
  });

  it("create looks again before forking: a point-in-time fork at a time in the future fails with no create call", async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const inputs = {
      ...service,
      name: "pre-fork-later",
      forkFrom: { serviceId: sourceId, strategy: "PITR", targetTime: future },
    };
    const { result: error, calls } = await recordCalls(emu, () => errorOf(services.create(inputs)));
    expect(error.message).toMatch(
      `cannot create service pre-fork-later: forkFrom.targetTime: ${future} is in the future; a point-in-time fork`,
    );
    expect(calls).toEqual([]);
  });

  it("a fork from a project the key cannot reach fails check naming forkFrom.projectId; create says it with no call", async () => {
    const fork = {
      ...service,
      name: "pre-fork-away",
      forkFrom: { serviceId: sourceId, projectId: "proj-away", strategy: "NOW" },
    };
    const reason =
      "the API key cannot reach project proj-away (HTTP 403 FORBIDDEN: the API key does not belong to project " +
      "proj-away); fork from a project the key reaches";
    expect(await failuresOf(fork)).toEqual([`: property forkFrom.projectId ${reason}`]);
    const { result: error, calls } = await recordCalls(emu, () => errorOf(services.create(fork)));
    expect(error.message).toBe(`cannot create service pre-fork-away: forkFrom.projectId: ${reason}`);
    expect(calls).toEqual([]);
  });

  it("an existing fork whose source is gone is not looked up: its source, type and region are unchanged", async () => {
    // As recorded by an import (the source's project, no strategy), and as the program gives it.
    const imported = { ...service, forkFrom: { serviceId: "svcgone123", projectId: project() } };
    const program = { ...service, forkFrom: { serviceId: "svcgone123", strategy: "NOW" } };
    expect(await requestsOf(async () => expect(await failuresOf(program, imported)).toEqual([]))).toEqual([]);
  });

  it("create looks again before forking: a source gone since check fails with no create call", async () => {
    const inputs = {
      ...service,
      name: "pre-fork-gone",
      forkFrom: { serviceId: "svcgone123", strategy: "NOW" },
    };
    const { result: error, calls } = await recordCalls(emu, () => errorOf(services.create(inputs)));
    expect(error.message).toBe(
      `cannot create service pre-fork-gone: forkFrom.serviceId: service svcgone123 does not exist in project ` +
        `${project()}; give the id of an existing service to fork`,
    );
    expect(calls).toEqual([]);
  });
});

describe("records this run created: a later check reads them, with no call", () => {
  const vpcs = PROVIDERS.vpc;
  const sets = PROVIDERS["read-replica-set"];
  const peerings = PROVIDERS["vpc-peering"];
  const set = { name: "run-reads", nodes: 1, cpuMillis: 500, memoryGbs: 2 };
  const peering = { peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-peer" };

  /** check of `provider` as the host calls it: the failures, as `property: reason`. */
  async function failuresFrom(provider: typeof sets, news: Props): Promise<string[]> {
    const result = await provider.check({}, { __provider: "p", ...news });
    return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
  }

  it("a VPC the run created: a peering's check passes and a service's in another region fails, no GET", async () => {
    const vpc = await vpcs.create({
      __provider: "p",
      name: "run-vpc",
      cidr: "10.40.0.0/16",
      regionCode: "eu-west-1",
    });
    const calls = await requestsOf(async () => {
      expect(await failuresFrom(peerings, { ...peering, vpcId: vpc.id })).toEqual([]);
      expect(await failuresOf({ ...service, name: "run-db-west", vpcId: vpc.id })).toEqual([
        `vpcId: VPC ${vpc.id} is in region eu-west-1, but the service is in us-east-1 (regionCode); ` +
          "a service attaches only to a VPC of its own region",
      ]);
    });
    expect(calls).toEqual([]);
  });

  it("a service the run created: a replica set's check passes with no GET", async () => {
    const created = await services.create({ __provider: "p", ...service, name: "run-db" });
    const calls = await requestsOf(async () =>
      expect(await failuresFrom(sets, { ...set, serviceId: created.id })).toEqual([]),
    );
    expect(calls).toEqual([]);
  });
});
