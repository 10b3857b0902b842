/**
 * What is particular to `ReadReplicaSet` (no server): the update plan (calls by operation id), record outputs, and create, read, update and delete against a stubbed client.
 * The rows every resource shares (check, diff table, ids) are in resources-specs.test.ts.
 */
import { MdbApi } from "../../provider/client/api";
import { MdbApiError } from "../../provider/client/errors";
import type {
  ReadReplicaSet as ReplicaSetRecord,
  Service as ServiceRecord,
} from "../../provider/client/schemas";
import { PartialFailure } from "../../provider/kit/lifecycle/partial";
import { readOutputs } from "../../provider/kit/fields/field-table";
import type { Step } from "../../provider/kit/lifecycle/steps";
import {
  READ_REPLICA_SET,
  type ReadReplicaSetInputs,
  type ReadReplicaSetOutputs,
} from "../../provider/resources/read-replica-set/fields";
import { planReplicaSet } from "../../provider/resources/read-replica-set/plan";
import { providerWith, testRuntime } from "../helpers/runtime";

/** Progress lines of this file's provider. */
const progress = jest.fn();
const runtime = testRuntime(progress);
const impl = providerWith("read-replica-set", runtime);

/** The calls a plan makes: operation and body. */
function calls(steps: Step<never>[]) {
  return steps.map((s) => ({ op: s.op, ...(s.body ? { body: s.body } : {}) }));
}

/** The plan from `have` to `want`, as its calls. */
const planReplicaSetUpdate = (have: ReadReplicaSetOutputs, want: ReadReplicaSetInputs) =>
  calls(planReplicaSet(have, want));

const valid = { serviceId: "svc1", name: "reports", nodes: 2, cpuMillis: 1000, memoryGbs: 4 };

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
  it("turns the pooler off in place when the input is removed", async () => {
    const result = await diffOf(observed({ connectionPooler: true }), valid);
    expect(result.detailedDiff).toEqual({ connectionPooler: { kind: "UPDATE", inputDiff: true } });
    expect(planReplicaSetUpdate(observed({ connectionPooler: true }), await checked(valid))).toEqual([
      { op: "disableReplicaSetPooler" },
    ]);
  });
});

describe("ReadReplicaSet update plan", () => {
  const want = (overrides: Partial<ReadReplicaSetInputs> = {}): ReadReplicaSetInputs => ({
    ...valid,
    environment: "DEV",
    connectionPooler: false,
    username: "tsdbadmin",
    databaseName: "tsdb",
    ...overrides,
  });

  it("orders every kind of change: resize, pooler, environment", () => {
    const steps = planReplicaSetUpdate(
      observed(),
      want({ nodes: 3, memoryGbs: 8, connectionPooler: true, environment: "PROD" }),
    );
    expect(steps).toEqual([
      { op: "resizeReplicaSet", body: { nodes: 3, cpuMillis: 1000, memoryGbs: 8 } },
      { op: "enableReplicaSetPooler" },
      { op: "setReplicaSetEnvironment", body: { environment: "PROD" } },
    ]);
  });

  it("resizes in one call, carrying both sizes always and nodes only when they change", () => {
    expect(planReplicaSetUpdate(observed(), want({ cpuMillis: 1500 }))).toEqual([
      { op: "resizeReplicaSet", body: { cpuMillis: 1500, memoryGbs: 4 } },
    ]);
    expect(planReplicaSetUpdate(observed(), want({ nodes: 3 }))).toEqual([
      { op: "resizeReplicaSet", body: { cpuMillis: 1000, memoryGbs: 4, nodes: 3 } },
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
      { op: "setReplicaSetEnvironment", body: { environment: "PROD" } },
    ]);
  });
});

describe("ReadReplicaSet outputs", () => {
  it("maps a record to camelCase outputs, pooler endpoint included", () => {
    const out = readOutputs(
      READ_REPLICA_SET,
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
      { projectId: "proj", serviceId: "svc1" },
      {},
    );
    expect(JSON.parse(JSON.stringify(out))).toEqual(
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
    runtime.configure(undefined);
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
