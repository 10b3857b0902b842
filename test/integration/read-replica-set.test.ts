/**
 * Integration of the `ReadReplicaSet` provider functions with an emulator over real HTTP, on a
 * READY service made through the API: each row of the diff table with the exact calls it makes,
 * refresh after out-of-band changes and import by id. Failing waits, injected faults and
 * secrets: read-replica-set-failures.test.ts. Delete, out-of-band deletes and create-once shared
 * by every resource: resources-shared.test.ts.
 */
import type { TestEmulator } from "../helpers/emulator";
import { PROVIDERS } from "../../provider/host";
import { PROVIDER, ReplaceNeededError, drive, progressLines, recordCalls } from "../helpers/provider";
import {
  ONE,
  SETS,
  fixture,
  listSets,
  only,
  readers,
  sets,
  type SetRecord,
  useReplicaSetFixture,
} from "./read-replica-set-fixture";

useReplicaSetFixture();
let emu: TestEmulator;
let serviceId: string;
let setsPath: string;
beforeEach(() => ({ emu, serviceId, setsPath } = fixture()));

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
      // Known to be none (no pooler, no password known): never [unknown] at a preview.
      poolerEndpoint: null,
      connectionUri: null,
      password: null,
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

  it("the service's outputs list the set by id and name, which a resize leaves as they were (no refresh noise)", async () => {
    const services = drive(PROVIDERS.service);
    const set = await sets.create(readers());
    const before = await services.read(serviceId);
    await sets.update(set, readers({ nodes: 3, cpuMillis: 1000 }));
    const after = await services.read(serviceId, before.props);
    const [, replicaSetId] = String(set.id).split("/");
    expect(before.props?.readReplicaSets).toEqual([{ id: replicaSetId, name: "readers" }]);
    expect(after.props?.readReplicaSets).toEqual(before.props?.readReplicaSets);
  });

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
    expect(off.result.state.outs.poolerEndpoint).toBeNull();
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

    progressLines.length = 0;
    const read = await sets.read(idOf(made.body.id), {});
    expect(read.id).toBe(`${serviceId}/${made.body.id}`);
    // The API never gives a password: the import says what that leaves null, and what to give.
    expect(read.props).toMatchObject({ connectionUri: null });
    expect(progressLines).toEqual([
      "read replica set legacy: its password (its service's) is unknown to this stack (the API never " +
        "returns one), so its connectionUri is null; give the set its service's password as `password` " +
        "(the package's own classes pass on that of a Service of the same program)",
    ]);
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
    // A refresh (a read given the state) says nothing of it.
    progressLines.length = 0;
    await sets.read(read.id!, read.props!);
    expect(progressLines).toEqual([]);
  });
});
