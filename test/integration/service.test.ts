/**
 * Integration of the `Service` provider functions with an emulator over real HTTP: every row of
 * the diff table makes exactly its API calls without replacing the service; create applies the
 * settings the create call cannot carry; refresh shows out-of-band changes; import by id shows
 * no diff; failed waits keep the id; faults and interrupted runs never duplicate a service; no
 * secret in any error; waits notice a settled service quickly. Delete, out-of-band deletes and
 * create-once shared by every resource: resources-shared.test.ts.
 */
import { randomFaults, type TestEmulator } from "../helpers/emulator";
import {
  PROVIDER,
  ReplaceNeededError,
  drive,
  errorOf,
  errorText,
  progressLines,
  recordCalls,
  stateFromError,
  type Props,
  type ResourceState,
  useProviderEmulator,
} from "../helpers/provider";
import { IMPORT_INPUT } from "../../provider/adapters/dynamic/hidden";
import { PROVIDERS } from "../../provider/host";

const impl = PROVIDERS.service;

const SECRET_KEY = "svc-integration-secret-4b1d";
const PASSWORD = "pw-Distinctive-91827";

let emu: TestEmulator;
const services = drive(impl);

useProviderEmulator({ secretKey: SECRET_KEY }, (started) => (emu = started));
beforeEach(() => emu.reset());

const BASE: Props = {
  name: "orders",
  serviceType: "TIMESERIESDB",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
};

interface ServiceRecord {
  service_id: string;
  name: string;
  status: string;
  created: string;
  resources?: Array<{ spec: { cpu_millis: number; memory_gbs: number } }>;
}

async function listServices(): Promise<ServiceRecord[]> {
  const response = await emu.api<ServiceRecord[]>("GET", `${emu.projectPath}/services`);
  expect(response.status).toBe(200);
  return response.body;
}

async function createVpc(name: string, cidr: string): Promise<string> {
  const response = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
    name,
    cidr,
    region_code: "us-east-1",
  });
  expect(response.status).toBe(201);
  return response.body.id;
}

const SVC = "/projects/{project}/services/{service}";

describe("create", () => {
  it("creates a READY service with outputs from the settled record", async () => {
    const state = await services.create(BASE);
    expect(state.outs).toMatchObject({
      serviceId: state.id,
      status: "READY",
      name: "orders",
      serviceType: "TIMESERIESDB",
      cpuMillis: 1000,
      memoryGbs: 4,
      environment: "DEV",
      connectionPooler: false,
      paused: false,
    });
    expect(state.outs.endpoint).toEqual({ host: expect.any(String), port: expect.any(Number) });
    expect(typeof state.outs.initialPassword).toBe("string");
    expect(await listServices()).toHaveLength(1);
  });

  it("a fork's forkedFrom shows its source and, as the stack remembers them, the strategy and time", async () => {
    const source = await services.create(BASE);
    // Not before the source was created, nor in the future, on the emulator's clock.
    const targetTime = new Date(Date.parse(String(source.outs.created))).toISOString();
    const forkFrom = { serviceId: source.id, strategy: "PITR", targetTime };
    const fork = await services.create({ ...BASE, name: "orders-pitr", forkFrom });
    const forkedFrom = { projectId: emu.credentials.projectId, serviceId: source.id, isStandby: false };
    expect(fork.outs.forkedFrom).toEqual({ ...forkedFrom, strategy: "PITR", targetTime });
    // A refresh keeps them; an import (no state) knows only what the API says.
    expect((await services.read(fork.id, fork.outs)).props?.forkedFrom).toEqual(fork.outs.forkedFrom);
    expect((await services.read(fork.id, {})).props?.forkedFrom).toEqual(forkedFrom);
  });

  it("applies what the create call cannot carry, in the documented order", async () => {
    const vpcId = await createVpc("net", "10.1.0.0/16");
    const { result: state, calls } = await recordCalls(emu, () =>
      services.create({
        ...BASE,
        replicaCount: 2,
        syncReplicaCount: 1,
        vpcId,
        connectionPooler: true,
        environment: "PROD",
        password: PASSWORD,
        paused: true,
      }),
    );
    expect(calls).toEqual([
      "POST /projects/{project}/services",
      `POST ${SVC}/setHA`,
      `POST ${SVC}/attachToVPC`,
      `POST ${SVC}/enablePooler`,
      `POST ${SVC}/updatePassword`,
      `POST ${SVC}/stop`,
    ]);
    expect(state.outs).toMatchObject({
      replicaCount: 2,
      syncReplicaCount: 1,
      vpcId,
      connectionPooler: true,
      environment: "PROD",
      paused: true,
      status: "PAUSED",
    });
    expect(emu.emulator.model.verifyPassword(emu.credentials.projectId, state.id, PASSWORD)).toBe(true);
  });
});

describe("each row of the diff table", () => {
  let state: ResourceState;
  beforeEach(async () => {
    state = await services.create(BASE);
  });

  it.each([
    ["cpuMillis", 2000, [`POST ${SVC}/resize`]],
    ["memoryGbs", 8, [`POST ${SVC}/resize`]],
    ["replicaCount", 1, [`POST ${SVC}/setHA`]],
    ["environment", "PROD", [`POST ${SVC}/setEnvironment`]],
    ["password", PASSWORD, [`POST ${SVC}/updatePassword`]],
    ["connectionPooler", true, [`POST ${SVC}/enablePooler`]],
    ["paused", true, [`POST ${SVC}/stop`]],
  ])("%s changes in place", async (property, value, expected) => {
    const news = { ...BASE, [property]: value };
    const { result, calls } = await recordCalls(emu, () => services.update(state, news));
    expect(result.diff.replaces ?? []).toEqual([]);
    expect(calls).toEqual(expected);
    expect(result.state.id).toBe(state.id);
    expect(result.state.outs[property]).toEqual(value);
    const again = await services.diff(result.state, news);
    expect(again.diff.changes).toBe(false);
  });

  it("syncReplicaCount changes in place with setHA", async () => {
    const ha = (await services.update(state, { ...BASE, replicaCount: 2 })).state;
    const { result, calls } = await recordCalls(emu, () =>
      services.update(ha, { ...BASE, replicaCount: 2, syncReplicaCount: 1 }),
    );
    expect(calls).toEqual([`POST ${SVC}/setHA`]);
    expect(result.state.outs.syncReplicaCount).toBe(1);
  });

  it("connectionPooler off calls disablePooler; paused false calls start", async () => {
    const on = (await services.update(state, { ...BASE, connectionPooler: true, paused: true })).state;
    const { result, calls } = await recordCalls(emu, () => services.update(on, BASE));
    expect(calls).toEqual([`POST ${SVC}/start`, `POST ${SVC}/disablePooler`]);
    expect(result.state.outs).toMatchObject({ connectionPooler: false, paused: false, status: "READY" });
  });

  it("vpcId: attach, then move by detaching the old VPC before attaching the new one", async () => {
    const a = await createVpc("a", "10.2.0.0/16");
    const b = await createVpc("b", "10.3.0.0/16");
    const attached = await recordCalls(emu, () => services.update(state, { ...BASE, vpcId: a }));
    expect(attached.calls).toEqual([`POST ${SVC}/attachToVPC`]);
    const moved = await recordCalls(emu, () => services.update(attached.result.state, { ...BASE, vpcId: b }));
    expect(moved.calls).toEqual([`POST ${SVC}/detachFromVPC`, `POST ${SVC}/attachToVPC`]);
    expect(moved.result.state.outs.vpcId).toBe(b);
    expect(moved.result.state.outs.vpcEndpoint).toMatchObject({ vpcId: b });
    const detached = await recordCalls(emu, () => services.update(moved.result.state, BASE));
    expect(detached.calls).toEqual([`POST ${SVC}/detachFromVPC`]);
    expect(detached.result.state.outs.vpcId).toBeNull();
  });

  it("a resize of a paused service starts it, resizes and stops it again", async () => {
    const paused = (await services.update(state, { ...BASE, paused: true })).state;
    const { result, calls } = await recordCalls(emu, () =>
      services.update(paused, { ...BASE, paused: true, cpuMillis: 2000 }),
    );
    expect(calls).toEqual([`POST ${SVC}/start`, `POST ${SVC}/resize`, `POST ${SVC}/stop`]);
    expect(result.state.outs).toMatchObject({ cpuMillis: 2000, paused: true });
  });

  it("name changes in place with renameService: the same service, renamed", async () => {
    const news = { ...BASE, name: "orders-2" };
    const { result, calls } = await recordCalls(emu, () => services.update(state, news));
    expect(result.diff.replaces ?? []).toEqual([]);
    expect(calls).toEqual([`POST ${SVC}/rename`]);
    expect(result.state.id).toBe(state.id);
    expect(result.state.outs.name).toBe("orders-2");
    expect((await listServices()).map((s) => [s.service_id, s.name])).toEqual([[state.id, "orders-2"]]);
    expect((await services.diff(result.state, news)).diff.changes).toBe(false);
  });

  it("a server without renameService (404 naming no service): the error says how to replace instead, nothing is deleted", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: "/rename$", status: 404 }] });
    const { result: error, calls } = await recordCalls(emu, () =>
      errorOf(services.update(state, { ...BASE, name: "orders-2", cpuMillis: 2000 })),
    );
    const text = errorText(error);
    expect(text).toMatch(/the server has no rename operation/);
    expect(text).toMatch(/replaceOnChanges: \["name"\]/);
    // The rename comes first: nothing else was changed, nothing deleted.
    expect(calls).toEqual([`POST ${SVC}/rename`]);
    expect((await listServices()).map((s) => [s.service_id, s.name])).toEqual([[state.id, "orders"]]);
  });

  it.each([
    ["serviceType", "VECTOR"],
    ["regionCode", "eu-west-1"],
    ["forkFrom", { serviceId: "other", strategy: "NOW" }],
  ])("%s forces a replacement and makes no call", async (property, value) => {
    const { result, calls } = await recordCalls(emu, () =>
      errorOf(services.update(state, { ...BASE, [property]: value })),
    );
    expect(result).toBeInstanceOf(ReplaceNeededError);
    expect((result as unknown as ReplaceNeededError).diff.replaces).toEqual([property]);
    expect(calls).toEqual([]);
  });
});

describe("read", () => {
  it("refresh shows a change made out of band", async () => {
    const state = await services.create(BASE);
    const resized = await emu.api("POST", `${emu.projectPath}/services/${state.id}/resize`, {
      cpu_millis: 3000,
      memory_gbs: 12,
    });
    expect(resized.status).toBe(202);
    await emu.waitFor(
      () => emu.api<ServiceRecord>("GET", `${emu.projectPath}/services/${state.id}`),
      (r) => r.body.status === "READY" && r.body.resources?.[0]?.spec.cpu_millis === 3000,
    );
    const read = await services.read(state.id, state.outs);
    expect(read.props).toMatchObject({ cpuMillis: 3000, memoryGbs: 12 });
    expect(read.props?.initialPassword).toBe(state.outs.initialPassword);
    const refreshed = { ...state, outs: read.props as Props };
    progressLines.length = 0;
    const { diff } = await services.diff(refreshed, BASE);
    expect(diff.changes).toBe(true);
    expect(Object.keys((diff as { detailedDiff: object }).detailedDiff).sort()).toEqual([
      "cpuMillis",
      "memoryGbs",
    ]);
    // Pulumi's refresh diffs what it read against the recorded inputs: the line says whose calls they are.
    const resize = "resizeService 3000m/12GB → 1000m/4GB (the service restarts once)";
    expect(progressLines).toEqual([
      `orders: the API differs from the inputs the stack recorded (this refresh calls nothing); ` +
        `an up with those inputs makes: ${resize}`,
    ]);
    // The next diff of it (an up after the refresh) is the program's: its calls, as up makes them.
    progressLines.length = 0;
    await services.diff(refreshed, BASE);
    expect(progressLines).toEqual([`orders: ${resize}`]);
  });

  it("under Pulumi's legacy refresh (no refresh diff), the diff after a refresh's read is up's", async () => {
    const state = await services.create(BASE);
    process.env.PULUMI_ENABLE_LEGACY_REFRESH_DIFF = "true";
    try {
      const read = await services.read(state.id, state.outs);
      progressLines.length = 0;
      await services.diff({ ...state, outs: read.props as Props }, { ...BASE, cpuMillis: 2000 });
    } finally {
      delete process.env.PULUMI_ENABLE_LEGACY_REFRESH_DIFF;
    }
    expect(progressLines).toEqual([
      "orders: resizeService 1000m/4GB → 2000m/4GB (the service restarts once)",
    ]);
  });

  it("a diff after an import's read (no recorded state) names the calls as up's", async () => {
    const state = await services.create(BASE);
    const read = await services.read(state.id, {});
    progressLines.length = 0;
    await services.diff(
      { id: state.id, inputs: read.inputs as Props, outs: read.props as Props },
      {
        ...BASE,
        cpuMillis: 2000,
      },
    );
    expect(progressLines).toEqual([
      "orders: resizeService 1000m/4GB → 2000m/4GB (the service restarts once)",
    ]);
  });

  it("an import's read says the stack does not know the password; a refresh's says nothing", async () => {
    const state = await services.create(BASE);
    progressLines.length = 0;
    const imported = await services.read(state.id, {});
    expect(imported.props).toMatchObject({ password: null, connectionUri: null, pgEnv: null });
    expect(progressLines).toEqual([
      "service orders: its initial password is unknown to this stack (the API gives it only to the create " +
        "that made it), so its connection outputs are null; give the service a `password` to set one " +
        "(updatePassword)",
    ]);
    progressLines.length = 0;
    const refreshed = await services.read(state.id, state.outs);
    expect(refreshed.props?.connectionUri).toEqual(expect.stringContaining("postgres://"));
    expect(progressLines).toEqual([]);
  });

  it("the classes' import option says the password is unknown when the program gives none; given, the next up sets it", async () => {
    const made = await services.create(BASE);
    progressLines.length = 0;
    const imported = await services.create({ ...BASE, [IMPORT_INPUT]: made.id });
    expect(imported.id).toBe(made.id);
    expect(imported.outs).toMatchObject({ connectionUri: null });
    expect(progressLines).toEqual([
      expect.stringMatching(
        /^service orders: its initial password is unknown to this stack .* connection outputs are null;/,
      ),
    ]);
    progressLines.length = 0;
    const given = { ...BASE, password: PASSWORD };
    const adopted = await services.create({ ...given, [IMPORT_INPUT]: made.id });
    expect(progressLines).toEqual([]);
    const { diff } = await services.diff({ id: adopted.id, inputs: given, outs: adopted.outs }, given);
    expect(diff.detailedDiff).toEqual({ password: expect.objectContaining({ kind: "ADD" }) });
  });

  it.each([["serviceId"], ["projectId/serviceId"]])(
    "import by %s shows no diff for a matching program",
    async (form) => {
      const vpcId = await createVpc("net", "10.4.0.0/16");
      const made = await services.create({ ...BASE, vpcId, connectionPooler: true, replicaCount: 1 });
      const id = form === "serviceId" ? made.id : `${emu.credentials.projectId}/${made.id}`;
      const read = await services.read(id, {});
      expect(read.id).toBe(made.id);
      const imported: ResourceState = {
        id: made.id,
        inputs: read.inputs as Props,
        outs: read.props as Props,
      };
      const { diff } = await services.diff(imported, {
        ...BASE,
        vpcId,
        connectionPooler: true,
        replicaCount: 1,
      });
      expect(diff.changes).toBe(false);
    },
  );
});

describe("failures half-way keep the service in the stack", () => {
  it("a create whose wait times out throws with id, properties and reasons", async () => {
    await emu.setTransitionMs(2000);
    try {
      const error = await errorOf(services.create({ ...BASE, __timeouts: { create: 100 } }));
      expect(error.id).toEqual(expect.any(String));
      expect(error.reasons).toEqual([expect.stringMatching(/timed out .* READY.*customTimeouts/)]);
      expect((error.properties as Props).__provider).toBe(PROVIDER);
      expect((error.properties as Props).serviceId).toBe(error.id);
      expect((await listServices()).map((s) => s.service_id)).toEqual([error.id]);
    } finally {
      await emu.setTransitionMs(30);
    }
  });

  it("a create that fails after the API accepted it is finished by the next up", async () => {
    const vpcId = await createVpc("net", "10.5.0.0/16");
    await emu.setFaults({ rules: [{ method: "POST", path: "/attachToVPC$", status: 400, count: 1 }] });
    const news = { ...BASE, vpcId, connectionPooler: true };
    const error = await errorOf(services.create(news));
    expect(error.id).toEqual(expect.any(String));
    const recorded = stateFromError(error, await services.check(news));
    expect(recorded.outs.vpcId).toBeNull();
    const { result, calls } = await recordCalls(emu, () =>
      services.update(recorded, news, { initErrors: true }),
    );
    expect(calls).toEqual([`POST ${SVC}/attachToVPC`, `POST ${SVC}/enablePooler`]);
    expect(result.state.outs).toMatchObject({ vpcId, connectionPooler: true });
    expect(await listServices()).toHaveLength(1);
  });

  it("an update that fails half-way is finished by the next up without repeating done work", async () => {
    const state = await services.create(BASE);
    await emu.setFaults({ rules: [{ method: "POST", path: "/enablePooler$", status: 400, count: 1 }] });
    const news = { ...BASE, cpuMillis: 2000, connectionPooler: true, environment: "PROD" };
    const error = await errorOf(services.update(state, news));
    expect(error.id).toBe(state.id);
    const recorded = stateFromError(error, await services.check(news));
    expect(recorded.outs.cpuMillis).toBe(2000);
    const { calls } = await recordCalls(emu, () => services.update(recorded, news, { initErrors: true }));
    expect(calls).toEqual([`POST ${SVC}/enablePooler`, `POST ${SVC}/setEnvironment`]);
  });
});

describe("never a duplicate", () => {
  it("a run interrupted after the create adopts the service with its generated name", async () => {
    const generated = { ...BASE, name: "orders-1a2b3c4", __autoNamed: true };
    const made = await emu.api<ServiceRecord>("POST", `${emu.projectPath}/services`, {
      name: "orders-1a2b3c4",
      addons: ["time-series"],
      region_code: "us-east-1",
      cpu_millis: 1000,
      memory_gbs: 4,
    });
    const { result: state, calls } = await recordCalls(emu, () => services.create(generated));
    expect(state.id).toBe(made.body.service_id);
    expect(calls).toEqual([]);
  });

  it("converges under random 429/5xx faults with exactly one service", async () => {
    await emu.setFaults(randomFaults());
    let state: ResourceState | undefined;
    for (let attempt = 0; attempt < 5 && !state; attempt++) {
      // A create that meets an ambiguous failure twice gives up; the next `pulumi up` retries.
      state = await services.create(BASE).catch(() => undefined);
    }
    expect(state).toBeDefined();
    const updated = (await services.update(state as ResourceState, { ...BASE, cpuMillis: 1500 })).state;
    expect(updated.outs.cpuMillis).toBe(1500);
    await services.delete(updated);
    await emu.setFaults({});
    expect(await listServices()).toEqual([]);
  });
});

describe("secrets", () => {
  it("no error shows the secret key or a password", async () => {
    const state = await services.create({ ...BASE, password: PASSWORD });
    await emu.setFaults({ rules: [{ method: "POST", path: "/updatePassword$", status: 500, count: 10 }] });
    const error = await errorOf(services.update(state, { ...BASE, password: `${PASSWORD}-next` }));
    const text = errorText(error);
    expect(text).toContain("updatePassword");
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(Buffer.from(`${emu.credentials.publicKey}:${SECRET_KEY}`).toString("base64"));
  });
});

describe("waiting", () => {
  it("notices a settled service within half a second", async () => {
    const T = 300;
    await emu.setTransitionMs(T);
    try {
      const lags: number[] = [];
      for (let i = 0; i < 3; i++) {
        const state = await services.create({ ...BASE, name: `lag-${i}` });
        const done = Date.now();
        const ready = Date.parse(String(state.outs.created)) + 2 * T;
        lags.push(done - ready);
      }
      lags.sort((a, b) => a - b);
      expect(lags[1]).toBeLessThan(500);
    } finally {
      await emu.setTransitionMs(30);
    }
  });
});

describe('a service on shared resources ("shared" sizes)', () => {
  const SHARED_SERVICE: Props = { ...BASE, name: "shared-db", cpuMillis: "shared", memoryGbs: "shared" };

  it("is created shared, reads back shared with no diff, and resizes to dedicated sizes in place", async () => {
    const created = await services.create(SHARED_SERVICE);
    expect(created.outs).toMatchObject({ cpuMillis: "shared", memoryGbs: "shared", status: "READY" });
    const [record] = await listServices();
    expect(record.resources?.[0].spec).toMatchObject({ cpu_millis: 0, memory_gbs: 0 });

    const refreshed = await services.read(created.id, created.outs);
    expect(refreshed.props).toMatchObject({ cpuMillis: "shared", memoryGbs: "shared" });
    const { diff } = await services.diff({ ...created, outs: refreshed.props as Props }, SHARED_SERVICE);
    expect(diff.changes).toBe(false);

    const { state } = await services.update(created, { ...SHARED_SERVICE, cpuMillis: 1000, memoryGbs: 4 });
    expect(state.outs).toMatchObject({ cpuMillis: 1000, memoryGbs: 4, status: "READY" });
    const { diff: back } = await services.diff(state, SHARED_SERVICE);
    expect(back.replaces?.sort()).toEqual(["cpuMillis", "memoryGbs"]);
  });

  it("a protected one resized outside Pulumi refreshes; the refresh's line says up would refuse to replace it", async () => {
    const protectedShared = { ...SHARED_SERVICE, deletionProtection: true };
    const created = await services.create(protectedShared);
    await emu.api("POST", `${emu.projectPath}/services/${created.id}/resize`, {
      cpu_millis: 1000,
      memory_gbs: 4,
    });
    await emu.waitFor(
      () => emu.api<ServiceRecord>("GET", `${emu.projectPath}/services/${created.id}`),
      (r) => r.body.status === "READY" && r.body.resources?.[0]?.spec.cpu_millis === 1000,
    );
    const read = await services.read(created.id, created.outs);
    progressLines.length = 0;
    // The refresh's diff: the recorded inputs ("shared") against the record (dedicated) replace it.
    const { diff } = await services.diff({ ...created, outs: read.props as Props }, protectedShared);
    expect(diff.replaces?.sort()).toEqual(["cpuMillis", "memoryGbs"]);
    expect(progressLines).toHaveLength(1);
    expect(progressLines[0]).toMatch(
      /^shared-db: the API differs from the inputs the stack recorded \(this refresh calls nothing\); an up with those inputs makes: replace \(/,
    );
    expect(progressLines[0]).toMatch(
      /; up fails before creating anything: the state has deletionProtection: true$/,
    );
    // up's own diff of the same still fails at preview (I3).
    const refused = await errorOf(services.diff({ ...created, outs: read.props as Props }, protectedShared));
    expect(errorText(refused)).toContain("deletionProtection: true");
  });
});
