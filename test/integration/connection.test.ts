/**
 * Connection outputs of `Service` against an emulator over real HTTP: the URIs name the
 * endpoints the API reports and the password the service really has (the emulator's stored
 * one); they follow a password change, the pooler and the VPC; `username` and `databaseName`
 * change them with no call that changes anything; a refresh keeps them.
 */
import { PROVIDERS } from "../../provider/host";
import type { TestEmulator } from "../helpers/emulator";
import { drive, recordCalls, type Props, useProviderEmulator } from "../helpers/provider";

let emu: TestEmulator;
const services = drive(PROVIDERS.service);

useProviderEmulator({}, (started) => (emu = started));
beforeEach(() => emu.reset());

const BASE: Props = {
  name: "orders",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 500,
  memoryGbs: 2,
};

interface Endpoint {
  host: string;
  port: number;
}

/** The service as the API reports it. */
async function record(serviceId: string) {
  const response = await emu.api<{
    endpoint: Endpoint;
    connection_pooler?: { endpoint: Endpoint } | null;
    vpcEndpoint?: Endpoint | null;
  }>("GET", `${emu.projectPath}/services/${serviceId}`);
  return response.body;
}

/** True when `password` is the one the emulator holds for the service (it keeps only a hash). */
function isServicePassword(serviceId: string, password: string): boolean {
  return emu.emulator.model.verifyPassword(emu.credentials.projectId, serviceId, password);
}

const uri = (e: Endpoint, password: string, user = "tsdbadmin", db = "tsdb") =>
  `postgres://${user}:${encodeURIComponent(password)}@${e.host}:${e.port}/${db}?sslmode=require`;

it("a new service's URIs carry its initial password and its endpoint; no pooler or VPC URI yet", async () => {
  const state = await services.create(BASE);
  const api = await record(state.id);
  const initial = state.outs.initialPassword as string;
  expect(isServicePassword(state.id, initial)).toBe(true);
  expect(state.outs.connectionUri).toBe(uri(api.endpoint, initial));
  expect(state.outs.pgEnv).toEqual({
    PGHOST: api.endpoint.host,
    PGPORT: String(api.endpoint.port),
    PGUSER: "tsdbadmin",
    PGPASSWORD: initial,
    PGDATABASE: "tsdb",
    PGSSLMODE: "require",
  });
  expect(state.outs).toMatchObject({ username: "tsdbadmin", databaseName: "tsdb" });
  expect(state.outs.poolerConnectionUri).toBeNull();
  expect(state.outs.vpcConnectionUri).toBeNull();
});

it("follow the password, the pooler and the VPC as they change", async () => {
  const vpc = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
    name: "core",
    cidr: "10.0.0.0/16",
    region_code: "us-east-1",
  });
  const state = await services.create(BASE);
  const password = "new p@ss/word:1";
  const { state: after } = await services.update(state, {
    ...BASE,
    password,
    connectionPooler: true,
    vpcId: vpc.body.id,
  });
  expect(isServicePassword(state.id, password)).toBe(true);
  const api = await record(state.id);
  expect(after.outs.connectionUri).toBe(uri(api.endpoint, password));
  expect(after.outs.poolerConnectionUri).toBe(uri(api.connection_pooler!.endpoint, password));
  expect(after.outs.vpcConnectionUri).toBe(uri(api.vpcEndpoint!, password));
  expect(api.connection_pooler!.endpoint.port).not.toBe(api.endpoint.port);

  const { state: off } = await services.update(after, { ...BASE, password, connectionPooler: false });
  expect(off.outs.poolerConnectionUri).toBeNull();
  expect(off.outs.vpcConnectionUri).toBeNull();
  expect(off.outs.connectionUri).toBe(uri(api.endpoint, password));
});

it("username and databaseName change the URIs with no call that changes anything", async () => {
  const state = await services.create(BASE);
  const { result, calls } = await recordCalls(emu, () =>
    services.update(state, { ...BASE, username: "app_owner", databaseName: "orders" }),
  );
  expect(calls).toEqual([]);
  expect(result.diff.replaces).toEqual([]);
  const api = await record(state.id);
  expect(result.state.outs.connectionUri).toBe(
    uri(api.endpoint, state.outs.initialPassword as string, "app_owner", "orders"),
  );
  expect(result.state.outs).toMatchObject({ username: "app_owner", databaseName: "orders" });
});

it("a refresh gives the same URIs back", async () => {
  const state = await services.create({ ...BASE, password: "refresh-pw-1", connectionPooler: true });
  const read = await services.read(state.id, state.outs);
  for (const key of ["connectionUri", "poolerConnectionUri", "pgEnv", "username", "databaseName"])
    expect(read.props?.[key]).toEqual(state.outs[key]);
});

describe("ReadReplicaSet", () => {
  const sets = drive(PROVIDERS["read-replica-set"]);
  const SET = { name: "reports", nodes: 1, cpuMillis: 500, memoryGbs: 2 };

  /** The set's read-only endpoint, as the API reports it. */
  async function setEndpoint(serviceId: string): Promise<Endpoint> {
    const sets = await emu.api<Array<{ endpoint: Endpoint }>>(
      "GET",
      `${emu.projectPath}/services/${serviceId}/replicaSets`,
    );
    return sets.body[0].endpoint;
  }

  it("connectionUri names the set's read-only endpoint with the service's credentials", async () => {
    const service = await services.create({ ...BASE, password: "service-pw-1" });
    const set = await sets.create({ ...SET, serviceId: service.id, password: "service-pw-1" });
    const endpoint = await setEndpoint(service.id);
    expect(endpoint.host).not.toBe((await record(service.id)).endpoint.host);
    expect(set.outs.connectionUri).toBe(uri(endpoint, "service-pw-1"));
  });

  it("has no connectionUri without a password, and gets one with no call that changes anything", async () => {
    const service = await services.create(BASE);
    const set = await sets.create({ ...SET, serviceId: service.id });
    expect(set.outs.connectionUri).toBeNull();
    const initial = service.outs.initialPassword as string;
    const { result, calls } = await recordCalls(emu, () =>
      sets.update(set, { ...SET, serviceId: service.id, password: initial, databaseName: "reports" }),
    );
    expect(calls).toEqual([]);
    expect(result.state.outs.connectionUri).toBe(
      uri(await setEndpoint(service.id), initial, "tsdbadmin", "reports"),
    );
  });
});
