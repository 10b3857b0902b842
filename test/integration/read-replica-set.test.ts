/**
 * Integration of the `ReadReplicaSet` provider functions with an emulator over real HTTP, on a
 * READY service made through the API: each row of the diff table with the exact calls it makes,
 * refresh after out-of-band changes, import by id, waits that time out or meet `error` (the id
 * is kept), injected faults without duplicates, and no secret in any error. Delete, out-of-band
 * deletes and create-once shared by every resource: resources-shared.test.ts.
 */
import { TEST_TRANSITION_MS, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import {
  PROVIDER,
  ReplaceNeededError,
  drive,
  errorOf,
  errorText,
  pointProviderAt,
  recordCalls,
  stateFromError,
  type Props,
} from "../helpers/provider";
import { PROVIDERS } from "../../provider/host";

const impl = PROVIDERS["read-replica-set"];

const SECRET_KEY = "rrs-integration-secret-5be1c2";

let emu: TestEmulator;
let restoreEnv: () => void;
const sets = drive(impl);

/** The READY service of the current test, and the path of its replica sets. */
let serviceId: string;
let setsPath: string;

/** Path of the calls, as `recordCalls` writes them. */
const SETS = "/projects/{project}/services/{service}/replicaSets";
const ONE = `${SETS}/{replicaSet}`;

/** A lifecycle step long enough for a wait of 50 ms to time out, short enough to wait for. */
const SLOW_MS = 600;

interface SetRecord {
  id: string;
  name: string;
  status: string;
  nodes: number;
  cpu_millis: number;
  memory_gbs: number;
  metadata: { environment: string };
  connection_pooler?: { endpoint: { host: string; port: number } };
  error_message?: string;
}

beforeAll(async () => {
  emu = await startTestEmulator({ secretKey: SECRET_KEY });
  restoreEnv = pointProviderAt(emu);
});
afterAll(async () => {
  restoreEnv();
  await emu.close();
});
beforeEach(async () => {
  await emu.reset();
  await emu.setTransitionMs(TEST_TRANSITION_MS);
  const made = await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, {
    name: "primary",
  });
  expect(made.status).toBe(202);
  serviceId = made.body.service_id;
  setsPath = `${emu.projectPath}/services/${serviceId}/replicaSets`;
  await emu.waitFor(
    async () => (await emu.api<{ status: string }>("GET", `${emu.projectPath}/services/${serviceId}`)).body,
    (s) => s.status === "READY",
    { what: "service READY" },
  );
});
afterEach(() => emu.setFaults({}));

function readers(extra: Props = {}): Props {
  return { serviceId, name: "readers", nodes: 1, cpuMillis: 500, memoryGbs: 2, ...extra };
}

async function listSets(): Promise<SetRecord[]> {
  const response = await emu.api<SetRecord[]>("GET", setsPath);
  expect(response.status).toBe(200);
  return response.body;
}

async function only(): Promise<SetRecord> {
  const all = await listSets();
  expect(all).toHaveLength(1);
  return all[0];
}

/** Waits until the set `name` exists in the API (a create in progress has sent its POST). */
function appeared(name: string): Promise<SetRecord | undefined> {
  return emu.waitFor(
    async () => (await listSets()).find((r) => r.name === name),
    (r) => r !== undefined,
    { what: `replica set ${name} to exist` },
  );
}

describe("create", () => {
  it("waits until active; one POST; outputs camelCase with the id serviceId/replicaSetId", async () => {
    const { result: set, calls } = await recordCalls(emu, () => sets.create(readers()));
    expect(calls).toEqual([`POST ${SETS}`]);
    const record = await only();
    expect(set.id).toBe(`${serviceId}/${record.id}`);
    expect(record.status).toBe("active");
    expect(set.outs).toEqual({
      replicaSetId: record.id,
      serviceId,
      projectId: emu.credentials.projectId,
      name: "readers",
      status: "active",
      nodes: 1,
      cpuMillis: 500,
      memoryGbs: 2,
      environment: "DEV",
      connectionPooler: false,
      endpoint: { host: expect.any(String), port: 5432 },
      username: "tsdbadmin",
      databaseName: "tsdb",
      __provider: PROVIDER,
    });
  });

  it("pooler and PROD asked at creation: create, then enablePooler, then setEnvironment", async () => {
    const inputs = readers({ connectionPooler: true, environment: "PROD" });
    const { result: set, calls } = await recordCalls(emu, () => sets.create(inputs));
    expect(calls).toEqual([`POST ${SETS}`, `POST ${ONE}/enablePooler`, `POST ${ONE}/setEnvironment`]);
    expect(set.outs).toMatchObject({
      connectionPooler: true,
      environment: "PROD",
      poolerEndpoint: { port: 6432 },
    });
    expect(await only()).toMatchObject({
      metadata: { environment: "PROD" },
      connection_pooler: expect.anything(),
    });
  });
});

describe("diff table", () => {
  it.each([
    ["nodes", 3],
    ["cpuMillis", 1000],
    ["memoryGbs", 4],
  ])(
    "%s: in place, exactly one resize, waits until active with the new size, same id",
    async (prop, value) => {
      const set = await sets.create(readers());
      const news = readers({ [prop]: value });
      const { diff } = await sets.diff(set, news);
      expect(diff).toMatchObject({ changes: true, replaces: [] });
      expect(diff.detailedDiff).toEqual({ [prop]: { kind: "UPDATE", inputDiff: true } });

      const { result, calls } = await recordCalls(emu, () => sets.update(set, news));
      expect(calls).toEqual([`POST ${ONE}/resize`]);
      expect(result.state.id).toBe(set.id);
      expect(result.state.outs).toMatchObject({ [prop]: value, status: "active" });
      const snake = { nodes: "nodes", cpuMillis: "cpu_millis", memoryGbs: "memory_gbs" }[prop]!;
      expect(await only()).toMatchObject({ id: set.outs.replicaSetId, status: "active", [snake]: value });
    },
  );

  it("nodes, CPU and memory together: one resize", async () => {
    const set = await sets.create(readers());
    const news = readers({ nodes: 2, cpuMillis: 750, memoryGbs: 3 });
    const { calls } = await recordCalls(emu, () => sets.update(set, news));
    expect(calls).toEqual([`POST ${ONE}/resize`]);
    expect(await only()).toMatchObject({ nodes: 2, cpu_millis: 750, memory_gbs: 3, status: "active" });
  });

  it("environment: in place, exactly one setEnvironment", async () => {
    const set = await sets.create(readers());
    const { result, calls } = await recordCalls(emu, () =>
      sets.update(set, readers({ environment: "PROD" })),
    );
    expect(result.diff.detailedDiff).toEqual({ environment: { kind: "UPDATE", inputDiff: true } });
    expect(calls).toEqual([`POST ${ONE}/setEnvironment`]);
    expect(result.state.outs.environment).toBe("PROD");
    expect((await only()).metadata.environment).toBe("PROD");
  });

  it("connectionPooler on, then off: exactly enablePooler, then exactly disablePooler", async () => {
    const set = await sets.create(readers());
    const on = await recordCalls(emu, () => sets.update(set, readers({ connectionPooler: true })));
    expect(on.calls).toEqual([`POST ${ONE}/enablePooler`]);
    expect(on.result.state.outs).toMatchObject({ connectionPooler: true, poolerEndpoint: { port: 6432 } });
    expect((await only()).connection_pooler).toBeDefined();

    const off = await recordCalls(emu, () =>
      sets.update(on.result.state, readers({ connectionPooler: false })),
    );
    expect(off.calls).toEqual([`POST ${ONE}/disablePooler`]);
    expect(off.result.state.outs.connectionPooler).toBe(false);
    expect(off.result.state.outs.poolerEndpoint).toBeUndefined();
    expect((await only()).connection_pooler).toBeUndefined();
  });

  it("every in-place input at once: resize, enablePooler, setEnvironment, in that order", async () => {
    const set = await sets.create(readers());
    const news = readers({ nodes: 2, connectionPooler: true, environment: "PROD" });
    const { result, calls } = await recordCalls(emu, () => sets.update(set, news));
    expect(calls).toEqual([`POST ${ONE}/resize`, `POST ${ONE}/enablePooler`, `POST ${ONE}/setEnvironment`]);
    expect(result.state.id).toBe(set.id);
    expect(await only()).toMatchObject({ nodes: 2, metadata: { environment: "PROD" }, status: "active" });
  });

  it.each([
    ["serviceId", "another-service"],
    ["name", "readers-2"],
  ])("%s: replace, and no call is made for it", async (prop, value) => {
    const set = await sets.create(readers());
    const news = readers({ [prop]: value });
    const { result: diff, calls } = await recordCalls(emu, async () => {
      const { diff } = await sets.diff(set, news);
      await expect(sets.update(set, news)).rejects.toBeInstanceOf(ReplaceNeededError);
      return diff;
    });
    expect(diff).toMatchObject({ changes: true, replaces: [prop] });
    expect(diff.detailedDiff).toEqual({ [prop]: { kind: "UPDATE_REPLACE", inputDiff: true } });
    expect(calls).toEqual([]);
  });

  it("unchanged inputs, defaults spelled out: no change, no call", async () => {
    const set = await sets.create(readers());
    for (const news of [readers(), readers({ environment: "DEV", connectionPooler: false })]) {
      const { result, calls } = await recordCalls(emu, () => sets.update(set, news));
      expect(result.diff.changes).toBe(false);
      expect(calls).toEqual([]);
    }
  });
});

describe("refresh", () => {
  it("a resize made outside Pulumi shows in read and in the diff; update resizes it back", async () => {
    const set = await sets.create(readers());
    const resized = await emu.api("POST", `${setsPath}/${set.outs.replicaSetId}/resize`, {
      cpu_millis: 500,
      memory_gbs: 2,
      nodes: 4,
    });
    expect(resized.status).toBe(202);
    await emu.waitFor(only, (r) => r.status === "active" && r.nodes === 4, { what: "resize done" });

    const read = await sets.read(set.id, set.outs);
    expect(read.id).toBe(set.id);
    expect(read.props).toMatchObject({ nodes: 4, status: "active", __provider: PROVIDER });
    const refreshed = { ...set, outs: read.props! };
    const { diff } = await sets.diff(refreshed, readers());
    expect(diff.detailedDiff).toEqual({ nodes: { kind: "UPDATE", inputDiff: true } });
    expect(diff.replaces).toEqual([]);

    const { calls } = await recordCalls(emu, () => sets.update(refreshed, readers()));
    expect(calls).toEqual([`POST ${ONE}/resize`]);
    expect((await only()).nodes).toBe(1);
  });

  it("a set that went to `error` reads so, and the diff replaces it, deleting first", async () => {
    const set = await sets.create(readers());
    await emu.admin("POST", `/replicaSets/${set.outs.replicaSetId}/fail`, { message: "node lost" });
    const read = await sets.read(set.id, set.outs);
    expect(read.props?.status).toBe("error");
    const { diff } = await sets.diff({ ...set, outs: read.props! }, readers());
    expect(diff).toMatchObject({ changes: true, replaces: ["status"], deleteBeforeReplace: true });
  });

  it("a set deleted outside Pulumi, or whose service is gone, reads as gone", async () => {
    const set = await sets.create(readers());
    expect((await emu.api("DELETE", `${setsPath}/${set.outs.replicaSetId}`)).status).toBe(202);
    await emu.waitFor(listSets, (all) => all.length === 0, { what: "set gone" });
    expect(await sets.read(set.id, set.outs)).toMatchObject({ id: undefined, props: undefined });

    expect((await emu.api("DELETE", `${emu.projectPath}/services/${serviceId}`)).status).toBe(202);
    expect(await sets.read(`${serviceId}/rrs-whatever`, {})).toMatchObject({ id: undefined });
  });
});

describe("import", () => {
  it.each([
    ["serviceId/replicaSetId", (id: string) => `${serviceId}/${id}`],
    ["projectId/serviceId/replicaSetId", (id: string) => `${emu.credentials.projectId}/${serviceId}/${id}`],
  ])("by %s with empty props: inputs that check and diff to no change", async (_form, idOf) => {
    const made = await emu.api<SetRecord>("POST", setsPath, {
      name: "legacy",
      nodes: 2,
      cpu_millis: 750,
      memory_gbs: 3,
    });
    expect(made.status).toBe(202);
    await emu.waitFor(only, (r) => r.status === "active", { what: "set active" });
    await emu.api("POST", `${setsPath}/${made.body.id}/enablePooler`);

    const read = await sets.read(idOf(made.body.id), {});
    expect(read.id).toBe(`${serviceId}/${made.body.id}`);
    expect(read.inputs).toEqual({
      serviceId,
      name: "legacy",
      nodes: 2,
      cpuMillis: 750,
      memoryGbs: 3,
      environment: "DEV",
      connectionPooler: true,
      username: "tsdbadmin",
      databaseName: "tsdb",
      __provider: PROVIDER,
    });
    const imported = { id: read.id!, inputs: read.inputs!, outs: read.props! };
    const { result, calls } = await recordCalls(emu, () => sets.update(imported, read.inputs!));
    expect(result.diff.changes).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe("waits that fail keep the id", () => {
  it("create past its timeout: error with id, properties (with __provider) and reasons; next up finishes", async () => {
    await emu.setTransitionMs(SLOW_MS);
    const inputs = readers({ __timeouts: { create: 50 } });
    const error = await errorOf(sets.create(inputs));
    const record = await only();
    expect(error.id).toBe(`${serviceId}/${record.id}`);
    expect(error.message).toMatch(
      /timed out after .* waiting for read replica set .* to be active \(last state: creating\)/,
    );
    expect(error.reasons).toEqual([error.message]);
    expect(error.properties).toMatchObject({
      replicaSetId: record.id,
      status: "creating",
      __provider: PROVIDER,
      __timeouts: { create: 50 },
    });

    // The engine keeps the set; the next `pulumi up` updates it (init errors) and only waits.
    await emu.setTransitionMs(TEST_TRANSITION_MS);
    const state = stateFromError(error, await sets.check(inputs));
    const { result, calls } = await recordCalls(emu, () => sets.update(state, inputs, { initErrors: true }));
    expect(calls).toEqual([]);
    expect(result.state.outs).toMatchObject({ status: "active", replicaSetId: record.id });
    expect(await listSets()).toHaveLength(1);
  });

  it("a set that goes to `error` while created: error with the id and the API's message", async () => {
    await emu.setTransitionMs(1000);
    const creating = errorOf(sets.create(readers()));
    const record = (await appeared("readers"))!;
    await emu.admin("POST", `/replicaSets/${record.id}/fail`, { message: "no capacity in us-east-1a" });
    const error = await creating;
    expect(error.id).toBe(`${serviceId}/${record.id}`);
    expect(error.message).toContain("no capacity in us-east-1a");
    expect(error.message).toContain("`error`");
    expect(error.properties).toMatchObject({ status: "error", __provider: PROVIDER });

    // The next `pulumi up` replaces it, deleting it first: the new set takes the same name.
    const state = stateFromError(error, await sets.check(readers()));
    const { diff } = await sets.diff(state, readers());
    expect(diff).toMatchObject({ replaces: ["status"], deleteBeforeReplace: true });
    await emu.setTransitionMs(TEST_TRANSITION_MS);
    const { result: replacement, calls } = await recordCalls(emu, async () => {
      await sets.delete(state);
      return sets.create(readers());
    });
    expect(calls).toEqual([`DELETE ${ONE}`, `POST ${SETS}`]);
    expect(replacement.id).not.toBe(state.id);
    expect(await only()).toMatchObject({
      id: replacement.outs.replicaSetId,
      name: "readers",
      status: "active",
    });
  });

  it("a resize past the update timeout: error with the id; the next up finishes without resizing again", async () => {
    const set = await sets.create(readers());
    await emu.setTransitionMs(SLOW_MS);
    const error = await errorOf(sets.update(set, readers({ nodes: 2, __timeouts: { update: 50 } })));
    expect(error.id).toBe(set.id);
    expect(error.message).toMatch(/timed out .* \(last state: resizing\)/);
    expect(error.reasons).toEqual([error.message]);
    expect(error.properties).toMatchObject({ status: "resizing", nodes: 1, __provider: PROVIDER });

    // The user raises the limit; the next `pulumi up` waits for the resize under way.
    const news = readers({ nodes: 2 });
    const state = stateFromError(error, await sets.check(news));
    const { result, calls } = await recordCalls(emu, () => sets.update(state, news, { initErrors: true }));
    expect(calls).toEqual([]);
    expect(result.state.outs).toMatchObject({ nodes: 2, status: "active" });
  });
});

describe("faults", () => {
  const RANDOM = { rate: 0.2, statuses: [429, 500, 503], retryAfterSeconds: 0 };

  it("random 429/500/503 during create, update and delete: converges, one set at a time", async () => {
    await emu.setFaults(RANDOM);
    const set = await sets.create(readers());
    const { state } = await sets.update(
      set,
      readers({ nodes: 2, connectionPooler: true, environment: "PROD" }),
    );
    await emu.setFaults({});
    expect(await only()).toMatchObject({
      id: set.outs.replicaSetId,
      nodes: 2,
      metadata: { environment: "PROD" },
    });
    expect(state.outs).toMatchObject({ nodes: 2, connectionPooler: true, environment: "PROD" });

    await emu.setFaults(RANDOM);
    await sets.delete(state);
    await emu.setFaults({});
    expect(await listSets()).toEqual([]);
    expect((await emu.requests()).filter((r) => r.status >= 429).length).toBeGreaterThan(0);
  });

  it("resize, pooler and environment answered with a 500 after taking effect: the update converges", async () => {
    const set = await sets.create(readers());
    await emu.setFaults({
      rules: ["resize", "enablePooler", "setEnvironment"].map((action) => ({
        method: "POST",
        path: `/${action}$`,
        count: 1,
        status: 500,
        after: true,
      })),
    });
    const news = readers({ nodes: 3, connectionPooler: true, environment: "PROD" });
    const { state } = await sets.update(set, news);
    expect(state.id).toBe(set.id);
    expect(state.outs).toMatchObject({
      nodes: 3,
      connectionPooler: true,
      environment: "PROD",
      status: "active",
    });
    expect(await only()).toMatchObject({ nodes: 3, metadata: { environment: "PROD" } });
  });

  it("a resize answered with a 500 after it was accepted, while it runs: the retry does not fail the update", async () => {
    const set = await sets.create(readers());
    await emu.setTransitionMs(SLOW_MS);
    await emu.setFaults({
      rules: [{ method: "POST", path: "/resize$", count: 1, status: 500, after: true }],
    });
    const { result, calls } = await recordCalls(emu, () => sets.update(set, readers({ nodes: 2 })), {
      withStatus: true,
    });
    // The client retries the lost answer and meets 409 (resizing): the provider waits, no third call.
    expect(calls).toEqual([`POST ${ONE}/resize -> 500`, `POST ${ONE}/resize -> 409`]);
    expect(result.state.outs).toMatchObject({ nodes: 2, status: "active" });
    expect(await only()).toMatchObject({ nodes: 2, status: "active" });
  });
  it("the DELETE answered with a 500 after taking effect: converges, nothing left", async () => {
    const set = await sets.create(readers());
    await emu.setFaults({
      rules: [{ method: "DELETE", path: "/replicaSets/", count: 1, status: 500, after: true }],
    });
    await sets.delete(set);
    expect(await listSets()).toEqual([]);
  });
});

describe("secrets", () => {
  it("no error quotes the secret key or the Authorization header", async () => {
    const token = Buffer.from(`${emu.credentials.publicKey}:${SECRET_KEY}`).toString("base64");
    await emu.setTransitionMs(SLOW_MS);
    const errors = [await errorOf(sets.create(readers({ __timeouts: { create: 50 } })))];
    await emu.setTransitionMs(TEST_TRANSITION_MS);
    await emu.setFaults({ rules: [{ method: "*", path: "/replicaSets", count: 1000, status: 403 }] });
    errors.push(await errorOf(sets.read(`${serviceId}/rrs-x`, {})));
    errors.push(await errorOf(sets.delete({ id: `${serviceId}/rrs-x`, outs: {} })));
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/timed out/),
      expect.stringMatching(/HTTP 403/),
      expect.stringMatching(/HTTP 403/),
    ]);
    for (const error of errors) {
      expect(errorText(error)).not.toContain(SECRET_KEY);
      expect(errorText(error)).not.toContain(token);
    }
  });
});
