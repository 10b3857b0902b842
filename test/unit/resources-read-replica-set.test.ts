import { MdbApi } from "../../provider/client/api";
import { MdbApiError } from "../../provider/client/errors";
import type {
  ReadReplicaSet as ReplicaSetRecord,
  Service as ServiceRecord,
} from "../../provider/client/schemas";
import { configureRuntime, progress } from "../../provider/runtime";
import { UNKNOWN } from "../../provider/resources/check";
import { PartialFailure } from "../../provider/resources/failure";
import {
  ReadReplicaSetInputs,
  ReadReplicaSetOutputs,
  impl,
  parseReplicaSetId,
  planReplicaSetUpdate,
  replicaSetOutputs,
} from "../../provider/resources/read-replica-set";

jest.mock("../../provider/runtime", () => ({
  ...jest.requireActual("../../provider/runtime"),
  progress: jest.fn(),
}));

const valid = { serviceId: "svc1", name: "reports", nodes: 2, cpuMillis: 1000, memoryGbs: 4 };

async function failuresOf(news: Record<string, unknown>) {
  const result = await impl.check({}, news);
  return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

describe("ReadReplicaSet check", () => {
  it("accepts a minimal set and fills in the defaults", async () => {
    const result = await impl.check({}, valid);
    expect(result.failures).toEqual([]);
    expect(result.inputs).toEqual({ ...valid, environment: "DEV", connectionPooler: false });
  });

  it.each([
    ["nodes", -1, /^nodes: must be positive$/],
    ["nodes", 0, /^nodes: must be positive$/],
    ["nodes", 1.5, /^nodes: must be a whole number$/],
    ["nodes", "2", /^nodes: must be a number/],
    ["cpuMillis", -250, /^cpuMillis: must be positive/],
    ["cpuMillis", 300, /^cpuMillis: must be a multiple of 250$/],
    ["cpuMillis", 500.5, /^cpuMillis: must be a whole number/],
    ["memoryGbs", 0, /^memoryGbs: must be positive$/],
    ["memoryGbs", 2.5, /^memoryGbs: must be a whole number$/],
    ["environment", "STAGING", /^environment: must be PROD or DEV$/],
    ["connectionPooler", "yes", /^connectionPooler: must be true or false$/],
    ["name", "", /^name: must not be empty$/],
    ["name", "   ", /^name: must not be empty$/],
    ["name", "x".repeat(129), /^name: must be at most 128 characters$/],
    ["serviceId", "", /^serviceId: must not be empty$/],
    ["projectId", "", /^projectId: must not be empty$/],
  ])("reports %s = %p", async (property, value, expected) => {
    const failures = await failuresOf({ ...valid, [property]: value });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(expected);
  });

  it("reports a missing required input by name", async () => {
    const { serviceId: _serviceId, ...rest } = valid;
    expect((await failuresOf(rest)).map((f) => f.split(":")[0])).toEqual(["serviceId"]);
  });

  it("reports one failure per bad property", async () => {
    const failures = await failuresOf({ ...valid, nodes: -1, cpuMillis: 100, environment: "QA" });
    expect(failures.sort()).toEqual([
      "cpuMillis: must be a multiple of 250",
      "environment: must be PROD or DEV",
      "nodes: must be positive",
    ]);
  });

  it("does not report values unknown during preview", async () => {
    expect(await failuresOf({ ...valid, serviceId: UNKNOWN, nodes: UNKNOWN, cpuMillis: UNKNOWN })).toEqual(
      [],
    );
  });
});

/** Observed outputs of a set that matches `valid`. */
function observed(overrides: Partial<ReadReplicaSetOutputs> = {}): ReadReplicaSetOutputs {
  return {
    replicaSetId: "rrs1",
    serviceId: "svc1",
    projectId: "proj",
    name: "reports",
    status: "active",
    nodes: 2,
    cpuMillis: 1000,
    memoryGbs: 4,
    environment: "DEV",
    connectionPooler: false,
    ...overrides,
  };
}

async function checked(news: Record<string, unknown>): Promise<ReadReplicaSetInputs> {
  return (await impl.check({}, news)).inputs as unknown as ReadReplicaSetInputs;
}

async function diffOf(olds: ReadReplicaSetOutputs, news: Record<string, unknown>) {
  return impl.diff(
    "svc1/rrs1",
    olds as unknown as Record<string, unknown>,
    (await checked(news)) as unknown as Record<string, unknown>,
  );
}

describe("ReadReplicaSet diff", () => {
  it("shows no change when the observed set matches the program (defaults included)", async () => {
    const result = await diffOf(observed(), valid);
    expect(result.changes).toBe(false);
    expect(result.replaces).toEqual([]);
    expect(result.detailedDiff).toEqual({});
  });

  it.each([
    ["serviceId", "svc2"],
    ["name", "reports-2"],
    ["projectId", "other-project"],
  ])("replaces on %s", async (property, value) => {
    const result = await diffOf(observed(), { ...valid, [property]: value });
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual([property]);
    expect(result.detailedDiff).toEqual({ [property]: { kind: "UPDATE_REPLACE", inputDiff: true } });
  });

  it("does not replace when projectId is left to the default", async () => {
    expect((await diffOf(observed({ projectId: "proj" }), valid)).changes).toBe(false);
  });

  it.each([
    ["nodes", 3, ["resize"]],
    ["cpuMillis", 2000, ["resize"]],
    ["memoryGbs", 8, ["resize"]],
    ["environment", "PROD", ["setEnvironment"]],
    ["connectionPooler", true, ["enablePooler"]],
  ])("updates %s in place with %s", async (property, value, actions) => {
    const news = { ...valid, [property]: value };
    const result = await diffOf(observed(), news);
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual([]);
    expect(result.detailedDiff).toEqual({ [property]: { kind: "UPDATE", inputDiff: true } });
    expect(planReplicaSetUpdate(observed(), await checked(news)).map((s) => s.action)).toEqual(actions);
  });

  it("turns the pooler off in place when the input is removed", async () => {
    const result = await diffOf(observed({ connectionPooler: true }), valid);
    expect(result.detailedDiff).toEqual({ connectionPooler: { kind: "UPDATE", inputDiff: true } });
    expect(planReplicaSetUpdate(observed({ connectionPooler: true }), await checked(valid))).toEqual([
      { action: "disablePooler" },
    ]);
  });

  it("shows drift: the set observed with other sizes is resized back", async () => {
    const result = await diffOf(observed({ nodes: 5 }), valid);
    expect(result.detailedDiff).toEqual({ nodes: { kind: "UPDATE", inputDiff: true } });
  });

  it("treats a value unknown during preview as a change", async () => {
    const result = await diffOf(observed(), { ...valid, nodes: UNKNOWN });
    expect(result.changes).toBe(true);
    expect(result.detailedDiff.nodes.kind).toBe("UPDATE");
    const replaced = await diffOf(observed(), { ...valid, serviceId: UNKNOWN });
    expect(replaced.replaces).toEqual(["serviceId"]);
  });

  it("ignores the forwarded timeouts and the auto-naming flag", async () => {
    const result = await diffOf(observed(), { ...valid, __timeouts: { create: 1000 }, __autoNamed: true });
    expect(result.changes).toBe(false);
  });

  it("replaces a set observed in the failed state `error`, deleting it first", async () => {
    const result = await diffOf(observed({ status: "error" }), valid);
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual(["status"]);
    expect(result.detailedDiff.status).toEqual({ kind: "UPDATE_REPLACE", inputDiff: false });
    expect(result.deleteBeforeReplace).toBe(true);
  });
});

describe("ReadReplicaSet update plan", () => {
  const want = (overrides: Partial<ReadReplicaSetInputs> = {}): ReadReplicaSetInputs => ({
    ...valid,
    environment: "DEV",
    connectionPooler: false,
    ...overrides,
  });

  it("orders every kind of change: resize, pooler, environment", () => {
    const steps = planReplicaSetUpdate(
      observed(),
      want({ nodes: 3, memoryGbs: 8, connectionPooler: true, environment: "PROD" }),
    );
    expect(steps).toEqual([
      { action: "resize", nodes: 3, cpuMillis: 1000, memoryGbs: 8 },
      { action: "enablePooler" },
      { action: "setEnvironment", environment: "PROD" },
    ]);
  });

  it("resizes nodes, CPU and memory in one call, carrying the unchanged sizes", () => {
    expect(planReplicaSetUpdate(observed(), want({ cpuMillis: 1500 }))).toEqual([
      { action: "resize", nodes: 2, cpuMillis: 1500, memoryGbs: 4 },
    ]);
  });

  it("plans nothing once the set matches (a re-run after a failure does no harm)", () => {
    const target = want({ nodes: 3, connectionPooler: true, environment: "PROD" });
    const done = observed({ nodes: 3, connectionPooler: true, environment: "PROD" });
    expect(planReplicaSetUpdate(done, target)).toEqual([]);
  });

  it("plans only what is left after a failure half-way", () => {
    const target = want({ nodes: 3, connectionPooler: true, environment: "PROD" });
    const halfWay = observed({ nodes: 3, connectionPooler: true });
    expect(planReplicaSetUpdate(halfWay, target)).toEqual([
      { action: "setEnvironment", environment: "PROD" },
    ]);
  });
});

describe("ReadReplicaSet ids and outputs", () => {
  it("reads serviceId/replicaSetId and projectId/serviceId/replicaSetId", () => {
    expect(parseReplicaSetId("svc1/rrs1")).toEqual({ serviceId: "svc1", replicaSetId: "rrs1" });
    expect(parseReplicaSetId("p/svc1/rrs1")).toEqual({
      projectId: "p",
      serviceId: "svc1",
      replicaSetId: "rrs1",
    });
    expect(parseReplicaSetId("rrs1", "svc1")).toEqual({ serviceId: "svc1", replicaSetId: "rrs1" });
  });

  it.each(["rrs1", "svc1/", "a/b/c/d", "/rrs1"])("refuses %p with the expected form", (id) => {
    expect(() => parseReplicaSetId(id)).toThrow(/<serviceId>\/<replicaSetId>/);
  });

  it("maps a record to camelCase outputs, pooler endpoint included", () => {
    const out = replicaSetOutputs(
      {
        id: "rrs1",
        name: "reports",
        status: "active",
        nodes: 2,
        cpu_millis: 1000,
        memory_gbs: 4,
        metadata: { environment: "PROD" },
        endpoint: { host: "h", port: 5432 },
        connection_pooler: { endpoint: { host: "h", port: 6432 } },
      },
      "svc1",
      "proj",
    );
    expect(out).toEqual(
      observed({
        environment: "PROD",
        connectionPooler: true,
        endpoint: { host: "h", port: 5432 },
        poolerEndpoint: { host: "h", port: 6432 },
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------
// CRUD against a stubbed client (no server): the calls made, in order
// ---------------------------------------------------------------------------------------

function record(overrides: Partial<ReplicaSetRecord> = {}): ReplicaSetRecord {
  return {
    id: "rrs1",
    name: "reports",
    status: "active",
    nodes: 2,
    cpu_millis: 1000,
    memory_gbs: 4,
    metadata: { environment: "DEV" },
    endpoint: { host: "h", port: 5432 },
    ...overrides,
  };
}

function service(status: string): ServiceRecord {
  return {
    service_id: "svc1",
    project_id: "proj",
    name: "db",
    region_code: "r",
    service_type: "POSTGRES",
    status,
  };
}

function notFound(operation: string): MdbApiError {
  return new MdbApiError({
    operation,
    status: 404,
    code: "NOT_FOUND",
    apiMessage: "no such thing",
    ambiguous: false,
  });
}

describe("ReadReplicaSet CRUD (stubbed client)", () => {
  const calls: string[] = [];
  const stub = <K extends Exclude<keyof MdbApi, "http">>(name: K, impl: (...args: unknown[]) => unknown) =>
    jest.spyOn(MdbApi.prototype, name).mockImplementation(((...args: unknown[]) => {
      calls.push(String(name));
      return Promise.resolve().then(() => impl(...args));
    }) as never);

  beforeEach(() => {
    calls.length = 0;
    process.env.MDB_API_URL = "http://127.0.0.1:9";
    process.env.MDB_PUBLIC_KEY = "pub";
    process.env.MDB_SECRET_KEY = "secret-key";
    process.env.MDB_PROJECT_ID = "proj";
    configureRuntime(undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it("waits for the service to be READY, creates, waits active, then applies pooler and environment", async () => {
    const statuses = ["CONFIGURING", "READY"];
    stub("getService", () => service(statuses.shift() ?? "READY"));
    let sets: ReplicaSetRecord[] = [];
    stub("listReplicaSets", () => sets);
    stub("createReplicaSet", () => {
      // Created with the service's environment, not the one asked for.
      sets = [record({ status: "creating", metadata: { environment: "PROD" } })];
      setTimeout(() => (sets = [{ ...sets[0], status: "active" }]), 50);
      return sets[0];
    });
    stub("enableReplicaSetPooler", () => {
      sets = [{ ...sets[0], connection_pooler: { endpoint: { host: "h", port: 6432 } } }];
      return { message: "ok" };
    });
    stub("setReplicaSetEnvironment", () => {
      sets = [{ ...sets[0], metadata: { environment: "DEV" } }];
      return { message: "ok" };
    });
    const inputs = {
      ...(await checked({ ...valid, connectionPooler: true })),
      __timeouts: { create: 5000, delete: 5000 },
    };
    const result = await impl.create(inputs);
    expect(result.id).toBe("svc1/rrs1");
    expect(calls.filter((c, i) => c !== calls[i - 1])).toEqual([
      "getService",
      "listReplicaSets",
      "createReplicaSet",
      "listReplicaSets",
      "enableReplicaSetPooler",
      "setReplicaSetEnvironment",
      "listReplicaSets",
    ]);
    expect(result.outs).toMatchObject({
      replicaSetId: "rrs1",
      projectId: "proj",
      status: "active",
      environment: "DEV",
      connectionPooler: true,
      __timeouts: { create: 5000, delete: 5000 },
    });
  });

  it("refuses to create over a set of the same name, advising import", async () => {
    stub("getService", () => service("READY"));
    stub("listReplicaSets", () => [record()]);
    const create = stub("createReplicaSet", () => record());
    await expect(impl.create(await checked(valid))).rejects.toThrow(/import: "svc1\/rrs1"/);
    expect(create).not.toHaveBeenCalled();
  });

  it("adopts a set of the same name when the name was generated (an interrupted run)", async () => {
    stub("getService", () => service("READY"));
    stub("listReplicaSets", () => [record()]);
    const create = stub("createReplicaSet", () => record());
    const result = await impl.create({ ...(await checked(valid)), __autoNamed: true });
    expect(result.id).toBe("svc1/rrs1");
    expect(create).not.toHaveBeenCalled();
    expect(progress).toHaveBeenCalledWith(expect.stringMatching(/adopting/));
  });

  it("after an ambiguous failure, finds the set the lost request created instead of sending it again", async () => {
    stub("getService", () => service("READY"));
    let sets: ReplicaSetRecord[] = [];
    stub("listReplicaSets", () => sets);
    const create = stub("createReplicaSet", () => {
      sets = [record()];
      throw new MdbApiError({
        operation: "createReplicaSet",
        status: 502,
        code: "BAD_GATEWAY",
        apiMessage: "x",
        ambiguous: true,
      });
    });
    const result = await impl.create(await checked(valid));
    expect(result.id).toBe("svc1/rrs1");
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("fails a create whose set ends in `error` as a partial failure naming the set", async () => {
    stub("getService", () => service("READY"));
    let sets: ReplicaSetRecord[] = [];
    stub("listReplicaSets", () => sets);
    stub("createReplicaSet", () => {
      sets = [record({ status: "error" })];
      return record({ status: "creating" });
    });
    const error = await impl.create({ ...(await checked(valid)), __provider: "serialized" }).catch((e) => e);
    expect(error).toBeInstanceOf(PartialFailure);
    expect(error.id).toBe("svc1/rrs1");
    expect(error.properties).toMatchObject({
      status: "error",
      replicaSetId: "rrs1",
      __provider: "serialized",
    });
    expect(error.reasons[0]).toMatch(/read replica set rrs1 .*`error`/);
  });

  it("refuses to create on a paused service at once", async () => {
    stub("getService", () => service("PAUSED"));
    const list = stub("listReplicaSets", () => []);
    await expect(impl.create(await checked(valid))).rejects.toThrow(/PAUSED.*running service/);
    expect(list).not.toHaveBeenCalled();
  });

  it("reads a set by import id, with inputs that show no diff", async () => {
    stub("listReplicaSets", () => [record({ connection_pooler: { endpoint: { host: "h", port: 6432 } } })]);
    const read = await impl.read("other/svc1/rrs1", {});
    expect(read.id).toBe("svc1/rrs1");
    expect(read.props).toMatchObject({ projectId: "other", connectionPooler: true });
    const news = (await impl.check({}, read.inputs as Record<string, unknown>)).inputs as Record<
      string,
      unknown
    >;
    expect((await impl.diff(read.id as string, read.props as Record<string, unknown>, news)).changes).toBe(
      false,
    );
  });

  it("reads as gone when the set is not listed or the service is gone", async () => {
    stub("listReplicaSets", () => []);
    expect(await impl.read("svc1/rrs1", {})).toEqual({});
    jest.restoreAllMocks();
    stub("listReplicaSets", () => {
      throw notFound("listReplicaSets");
    });
    expect(await impl.read("svc1/rrs1", {})).toEqual({});
  });

  it("updates from the observed set: resize, wait active, then pooler and environment", async () => {
    let current = record();
    stub("listReplicaSets", () => [current]);
    stub("resizeReplicaSet", (...args) => {
      expect(args.slice(3)).toEqual([{ nodes: 3, cpuMillis: 1000, memoryGbs: 4 }]);
      current = { ...current, status: "resizing" };
      setTimeout(() => (current = { ...current, status: "active", nodes: 3 }), 30);
    });
    stub("disableReplicaSetPooler", () => ({ message: "ok" }));
    stub("setReplicaSetEnvironment", () => {
      current = { ...current, metadata: { environment: "PROD" } };
      return { message: "ok" };
    });
    const result = await impl.update(
      "svc1/rrs1",
      observed() as unknown as Record<string, unknown>,
      (await checked({ ...valid, nodes: 3, environment: "PROD" })) as unknown as Record<string, unknown>,
    );
    expect(calls.filter((c) => c !== "listReplicaSets")).toEqual([
      "resizeReplicaSet",
      "setReplicaSetEnvironment",
    ]);
    expect(result.outs).toMatchObject({ nodes: 3, environment: "PROD", status: "active" });
  });

  it("deletes, waits until the set is no longer listed, and treats 404 as already gone", async () => {
    let sets = [record()];
    stub("deleteReplicaSet", () => {
      sets = [record({ status: "deleting" })];
      setTimeout(() => (sets = []), 30);
    });
    stub("listReplicaSets", () => sets);
    await impl.delete("svc1/rrs1", observed() as unknown as Record<string, unknown>);
    expect(sets).toEqual([]);
    jest.restoreAllMocks();
    calls.length = 0;
    stub("deleteReplicaSet", () => {
      throw notFound("deleteReplicaSet");
    });
    stub("listReplicaSets", () => [record()]);
    await impl.delete("svc1/rrs1", observed() as unknown as Record<string, unknown>);
    expect(calls).toEqual(["deleteReplicaSet"]);
  });
});
