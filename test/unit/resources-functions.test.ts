import * as pulumi from "@pulumi/pulumi";
import { MdbApi } from "../../provider/client/api";
import { MdbApiError } from "../../provider/client/errors";
import type { AuthInfo, Service as ServiceRecord } from "../../provider/client/schemas";
import { MissingConfigError } from "../../provider/config";
import * as fns from "../../provider/functions";

const ENV = ["MDB_API_URL", "MDB_PUBLIC_KEY", "MDB_SECRET_KEY", "MDB_PROJECT_ID"];

const authInfo: AuthInfo = {
  type: "apiKey",
  apiKey: {
    public_key: "pub",
    name: "ci key",
    created: "2026-01-01T00:00:00Z",
    project: { id: "key-project", name: "Main", plan_type: "FREE" },
    issuing_user: { id: "u1", name: "Ada", email: "ada@example.com" },
  },
};

const serviceRecord: ServiceRecord = {
  service_id: "svc1",
  project_id: "proj",
  name: "orders",
  region_code: "us-east-1",
  service_type: "POSTGRES",
  status: "READY",
  initial_password: "initial-secret",
  resources: [{ id: "r1", spec: { cpu_millis: 1000, memory_gbs: 4 } }],
  metadata: { environment: "PROD" },
  connection_pooler: { endpoint: { host: "h", port: 6432 } },
};

/** Replaces one client method; records the base URL and arguments of each call. */
function stub<K extends Exclude<keyof MdbApi, "http">>(name: K, answer: unknown) {
  const calls: Array<{ baseUrl: string; args: unknown[] }> = [];
  jest.spyOn(MdbApi.prototype, name).mockImplementation(function (this: MdbApi, ...args: unknown[]) {
    calls.push({ baseUrl: this.http.baseUrl, args });
    return Promise.resolve(answer);
  } as never);
  return calls;
}

beforeEach(() => {
  for (const key of ENV) delete process.env[key];
  process.env.MDB_API_URL = "http://127.0.0.1:9";
  process.env.MDB_PUBLIC_KEY = "pub";
  process.env.MDB_SECRET_KEY = "secret-key";
  pulumi.runtime.setAllConfig({});
  fns.resetFunctionsClient();
});
afterEach(() => jest.restoreAllMocks());

describe("functions: settings and project", () => {
  it("uses the project given to the call first", async () => {
    process.env.MDB_PROJECT_ID = "env-project";
    const calls = stub("getVpc", { id: "vpc1", name: "core", cidr: "10.0.0.0/16", region_code: "r" });
    await fns.getVpc({ vpcId: "vpc1", projectId: "own" });
    expect(calls[0].args).toEqual(["own", "vpc1"]);
  });

  it("then MDB_PROJECT_ID, then the key's project, asked once", async () => {
    process.env.MDB_PROJECT_ID = "env-project";
    const lists = stub("listVpcs", []);
    await fns.listVpcs();
    expect(lists[0].args).toEqual(["env-project"]);

    delete process.env.MDB_PROJECT_ID;
    fns.resetFunctionsClient();
    const auth = stub("getAuthInfo", authInfo);
    await fns.listVpcs();
    await fns.listVpcs();
    expect(lists.slice(1).map((c) => c.args)).toEqual([["key-project"], ["key-project"]]);
    expect(auth).toHaveLength(1);
  });

  it("prefers stack config mdb:* to the environment", async () => {
    pulumi.runtime.setAllConfig({
      "mdb:apiUrl": "http://localhost:7000",
      "mdb:projectId": "config-project",
      "mdb:secretKey": "config-secret",
    });
    const calls = stub("listServices", []);
    await fns.listServices();
    expect(calls[0]).toEqual({ baseUrl: "http://localhost:7000/public/api/v1", args: ["config-project"] });
  });

  it("fails naming every missing setting", async () => {
    delete process.env.MDB_PUBLIC_KEY;
    delete process.env.MDB_SECRET_KEY;
    const error = await fns.listVpcs().catch((e) => e);
    expect(error).toBeInstanceOf(MissingConfigError);
    expect(error.message).toMatch(/publicKey: .*MDB_PUBLIC_KEY/);
    expect(error.message).toMatch(/secretKey: .*mdb:secretKey --secret/);
  });
});

describe("functions: camelCase results mapped by the resources' own mappings", () => {
  beforeEach(() => (process.env.MDB_PROJECT_ID = "proj"));

  it("getAuthInfo", async () => {
    stub("getAuthInfo", authInfo);
    expect(await fns.getAuthInfo()).toEqual({
      type: "apiKey",
      publicKey: "pub",
      name: "ci key",
      created: "2026-01-01T00:00:00Z",
      project: { id: "key-project", name: "Main", planType: "FREE" },
      issuingUser: { id: "u1", name: "Ada", email: "ada@example.com" },
    });
  });

  it("getProjects: the projects the key reaches; the key's own project where the server has no GET /projects", async () => {
    stub("listProjects", [
      { id: "p1", name: "Main" },
      { id: "p2", name: "Staging" },
    ]);
    expect(await fns.getProjects()).toEqual([
      { id: "p1", name: "Main" },
      { id: "p2", name: "Staging" },
    ]);
    jest.restoreAllMocks();
    const noRoute = new MdbApiError({
      operation: "listProjects",
      status: 404,
      code: "NOT_FOUND",
      apiMessage: "no route GET /public/api/v1/projects",
      ambiguous: false,
    });
    jest.spyOn(MdbApi.prototype, "listProjects").mockRejectedValue(noRoute);
    stub("getAuthInfo", authInfo);
    expect(await fns.getProjects()).toEqual([{ id: "key-project", name: "Main" }]);
    const denied = new MdbApiError({ ...noRoute, status: 401, code: "UNAUTHORIZED", apiMessage: "bad key" });
    jest.spyOn(MdbApi.prototype, "listProjects").mockRejectedValue(denied);
    await expect(fns.getProjects()).rejects.toBe(denied);
  });

  it("getService and listServices, without the initial password", async () => {
    stub("getService", serviceRecord);
    stub("listServices", [serviceRecord]);
    const service = await fns.getService({ serviceId: "svc1" });
    expect(service).toMatchObject({
      serviceId: "svc1",
      projectId: "proj",
      serviceType: "POSTGRES",
      regionCode: "us-east-1",
      cpuMillis: 1000,
      memoryGbs: 4,
      environment: "PROD",
      connectionPooler: true,
      poolerEndpoint: { host: "h", port: 6432 },
    });
    expect(JSON.stringify(service)).not.toContain("initial-secret");
    expect(service).not.toHaveProperty("initialPassword");
    expect(await fns.listServices()).toEqual([service]);
  });

  it("getVpc and listVpcs", async () => {
    const vpc = { id: "vpc1", name: "core", cidr: "10.0.0.0/16", region_code: "us-east-1" };
    stub("getVpc", vpc);
    stub("listVpcs", [vpc]);
    const expected = {
      vpcId: "vpc1",
      projectId: "proj",
      name: "core",
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
    };
    expect(await fns.getVpc({ vpcId: "vpc1" })).toEqual(expected);
    expect(await fns.listVpcs({})).toEqual([expected]);
  });

  it("listReadReplicaSets", async () => {
    const calls = stub("listReplicaSets", [
      { id: "rrs1", name: "r", status: "active", nodes: 2, cpu_millis: 500, memory_gbs: 2 },
    ]);
    expect(await fns.listReadReplicaSets({ serviceId: "svc1" })).toEqual([
      {
        replicaSetId: "rrs1",
        serviceId: "svc1",
        projectId: "proj",
        name: "r",
        status: "active",
        nodes: 2,
        cpuMillis: 500,
        memoryGbs: 2,
        environment: "DEV",
        connectionPooler: false,
      },
    ]);
    expect(calls[0].args).toEqual(["proj", "svc1"]);
  });

  it("getVpcPeering and listVpcPeerings", async () => {
    const peering = {
      id: "pcx1",
      peer_account_id: "a",
      peer_region_code: "r",
      peer_vpc_id: "v",
      status: "failed",
      error_message: "cannot be reached",
    };
    const gets = stub("getPeering", peering);
    stub("listPeerings", [peering]);
    const expected = {
      peeringId: "pcx1",
      vpcId: "vpc1",
      projectId: "proj",
      peerAccountId: "a",
      peerRegionCode: "r",
      peerVpcId: "v",
      status: "failed",
      errorMessage: "cannot be reached",
    };
    expect(await fns.getVpcPeering({ vpcId: "vpc1", peeringId: "pcx1" })).toEqual(expected);
    expect(gets[0].args).toEqual(["proj", "vpc1", "pcx1"]);
    expect(await fns.listVpcPeerings({ vpcId: "vpc1" })).toEqual([expected]);
  });

  it("identify and track", async () => {
    const identified = stub("identify", { status: "success" });
    const tracked = stub("track", { status: "success", extra: 1 });
    expect(await fns.identify({ properties: { team: "infra" } })).toEqual({ status: "success" });
    expect(await fns.track({ event: "deployed", properties: { n: 1 } })).toEqual({ status: "success" });
    expect(identified[0].args).toEqual([{ properties: { team: "infra" } }]);
    expect(tracked[0].args).toEqual([{ event: "deployed", properties: { n: 1 } }]);
  });
});
