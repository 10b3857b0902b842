/**
 * What is particular to `Service` (no server): PITR forks, synchronous replicas and the update plan's order.
 * The rows every resource shares (check, diff table, ids) are in resources-specs.test.ts.
 */
import type { ServiceInputs, ServiceOutputs } from "../../provider/resources/service/fields";
import { planService } from "../../provider/resources/service/plan";

/** The plan from `have` to `want`, as the operations it calls and their bodies. */
const planServiceUpdate = (have: ServiceOutputs, want: ServiceInputs) =>
  planService(have, want).map((s) => ({ op: s.op, ...(s.body ? { body: s.body } : {}) }));
import { finalForkName } from "../../provider/resources/service/final-fork";
import { PROVIDERS } from "../../provider/host";
import { MdbApiError } from "../../provider/client/errors";

const impl = PROVIDERS.service;

const valid = {
  name: "orders-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
};

async function failuresOf(news: Record<string, unknown>) {
  const result = await impl.check({}, news);
  return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

describe("Service check", () => {
  it("requires targetTime for PITR forks and refuses it otherwise", async () => {
    expect(await failuresOf({ ...valid, forkFrom: { serviceId: "abc", strategy: "PITR" } })).toEqual([
      ": property forkFrom.targetTime is required when strategy is PITR",
    ]);
    expect(
      await failuresOf({
        ...valid,
        forkFrom: { serviceId: "abc", strategy: "NOW", targetTime: "2026-01-01T00:00:00Z" },
      }),
    ).toEqual([": property forkFrom.targetTime is only allowed when strategy is PITR"]);
    expect(await failuresOf({ ...valid, forkFrom: { serviceId: "abc", strategy: "YESTERDAY" } })).toEqual([
      ": property forkFrom.strategy must be one of LAST_SNAPSHOT, NOW, PITR",
    ]);
  });

  it("checks the final fork's options like a service's", async () => {
    expect(await failuresOf({ ...valid, finalFork: { cpuMillis: 300, memoryGbs: 0 } })).toEqual([
      ": property finalFork.cpuMillis must be a multiple of 250 from 250 to 64000",
      ": property finalFork.memoryGbs must be a whole number from 1 to 1024",
    ]);
    expect(await failuresOf({ ...valid, finalFork: { name: "archive", nodes: 2 } })).toHaveLength(1);
    expect(await failuresOf({ ...valid, finalFork: { name: "archive", cpuMillis: 500 } })).toEqual([]);
  });

  it("names a final fork after the service and its id, within the API's 128 characters", () => {
    expect(finalForkName("orders", "svc123")).toBe("orders-final-svc123");
    const long = finalForkName("x".repeat(128), "svc123");
    expect(long).toHaveLength(128);
    expect(long.endsWith("-final-svc123")).toBe(true);
  });

  it("takes TIMESCALEDB, the vendor's name of TIMESERIESDB, as the same type: no change either way", async () => {
    expect(await failuresOf({ ...valid, serviceType: "TIMESCALEDB" })).toEqual([]);
    const olds = { ...observed(), serviceType: "TIMESERIESDB" } as Record<string, unknown>;
    const diff = await impl.diff("svc1", olds, { ...valid, serviceType: "TIMESCALEDB" });
    expect(diff.changes).toBe(false);
    const back = await impl.diff(
      "svc1",
      { ...olds, serviceType: "TIMESCALEDB" },
      { ...valid, serviceType: "TIMESERIESDB" },
    );
    expect(back.changes).toBe(false);
    const other = await impl.diff("svc1", olds, { ...valid, serviceType: "VECTOR" });
    expect(other.replaces).toEqual(["serviceType"]);
  });

  it("refuses more synchronous replicas than replicas", async () => {
    expect(await failuresOf({ ...valid, replicaCount: 1, syncReplicaCount: 2 })).toEqual([
      "syncReplicaCount: must not exceed replicaCount (1)",
    ]);
  });
});

/** Observed outputs of a service that matches `valid`. */
function observed(overrides: Partial<ServiceOutputs> = {}): ServiceOutputs {
  return {
    serviceId: "svc1",
    projectId: "proj",
    name: valid.name,
    serviceType: "POSTGRES",
    regionCode: valid.regionCode,
    cpuMillis: 1000,
    memoryGbs: 4,
    replicaCount: 0,
    syncReplicaCount: 0,
    environment: "DEV",
    connectionPooler: false,
    paused: false,
    status: "READY",
    resources: [],
    readReplicaSets: [],
    ...overrides,
  };
}

describe("Service update plan", () => {
  const want = (overrides: Partial<ServiceInputs>): ServiceInputs =>
    ({
      ...valid,
      replicaCount: 0,
      syncReplicaCount: 0,
      environment: "DEV",
      connectionPooler: false,
      paused: false,
      ...overrides,
    }) as ServiceInputs;

  it("renames in place, first of all, and says so in the preview's words", () => {
    const steps = planService(
      observed({ paused: true }),
      want({ name: "orders-db-2", cpuMillis: 2000, paused: true }),
    );
    expect(steps.map((s) => s.op)).toEqual(["renameService", "startService", "resizeService", "stopService"]);
    expect(steps[0]).toMatchObject({ body: { name: "orders-db-2" }, detail: "orders-db → orders-db-2" });
  });

  it("explains a rename the server has no route for, and passes any other failure on", () => {
    const [rename] = planService(observed(), want({ name: "orders-db-2" }));
    const answer = (apiMessage: string) =>
      new MdbApiError({
        operation: "renameService",
        status: 404,
        code: "NOT_FOUND",
        apiMessage,
        ambiguous: false,
      });
    for (const route of ["no route POST /public/api/v1/projects/proj/services/svc1/rename", "Not Found"]) {
      const explained = rename.explain!(answer(route)) as Error;
      expect(explained.message).toMatch(/the server has no rename operation/);
      expect(explained.message).toMatch(/replaceOnChanges: \["name"\]/);
      expect(explained.message).toMatch(/nothing was changed or deleted/);
    }
    const gone = answer("service svc1 not found");
    expect(rename.explain!(gone)).toBe(gone);
    const busy = new MdbApiError({ ...gone, status: 409, code: "CONFLICT", apiMessage: "busy" });
    expect(rename.explain!(busy)).toBe(busy);
  });

  it("orders every kind of change: startService, detachFromVpc, resizeService, setHA, attachToVpc, enablePooler, setServiceEnvironment, updatePassword, stopService", () => {
    const have = observed({ paused: true, vpcId: "vpc-old" });
    const steps = planServiceUpdate(
      have,
      want({
        paused: true,
        vpcId: "vpc-new",
        cpuMillis: 2000,
        replicaCount: 2,
        syncReplicaCount: 1,
        connectionPooler: true,
        environment: "PROD",
        password: "p4ssword!",
      }),
    );
    expect(steps.map((s) => s.op)).toEqual([
      "startService",
      "detachFromVpc",
      "resizeService",
      "setHA",
      "attachToVpc",
      "enablePooler",
      "setServiceEnvironment",
      "updatePassword",
      "stopService",
    ]);
  });

  it("moves between VPCs by detaching the old one first", () => {
    const steps = planServiceUpdate(observed({ vpcId: "vpc-a" }), want({ vpcId: "vpc-b" }));
    expect(steps).toEqual([
      { op: "detachFromVpc", body: { vpcId: "vpc-a" } },
      { op: "attachToVpc", body: { vpcId: "vpc-b" } },
    ]);
  });

  it("plans nothing once the service matches (a re-run after a failure does no harm)", () => {
    const target = want({ cpuMillis: 2000, connectionPooler: true, vpcId: "vpc-b" });
    const done = observed({ cpuMillis: 2000, connectionPooler: true, vpcId: "vpc-b" });
    expect(planServiceUpdate(done, target)).toEqual([]);
  });

  it("plans only what is left after a failure half-way", () => {
    const target = want({ cpuMillis: 2000, connectionPooler: true, environment: "PROD" });
    const halfWay = observed({ cpuMillis: 2000 });
    expect(planServiceUpdate(halfWay, target).map((s) => s.op)).toEqual([
      "enablePooler",
      "setServiceEnvironment",
    ]);
  });

  it("resumes a paused service and leaves it running when paused becomes false", () => {
    expect(planServiceUpdate(observed({ paused: true }), want({ paused: false })).map((s) => s.op)).toEqual([
      "startService",
    ]);
  });
});

describe('Service on shared resources ("shared" sizes)', () => {
  const shared = { ...valid, cpuMillis: "shared", memoryGbs: "shared" };

  it("takes both sizes shared, and refuses one alone or anything else", async () => {
    expect(await failuresOf(shared)).toEqual([]);
    expect(await failuresOf({ ...valid, cpuMillis: "shared" })).toEqual([
      'memoryGbs: must be "shared" too: a service shares CPU and memory together',
    ]);
    expect(await failuresOf({ ...valid, cpuMillis: "small" })).toEqual([
      'cpuMillis: must be a multiple of 250 from 250 to 64000, or "shared"',
    ]);
  });

  it("resizes a shared service to dedicated sizes in place, and replaces one going back to shared", async () => {
    const olds = { ...observed(), cpuMillis: "shared", memoryGbs: "shared" } as Record<string, unknown>;
    const checked = async (news: Record<string, unknown>) => (await impl.check({}, news)).inputs;
    const dedicated = await impl.diff("svc1", olds, await checked(valid));
    expect(dedicated.replaces).toEqual([]);
    expect(Object.keys(dedicated.detailedDiff).sort()).toEqual(["cpuMillis", "memoryGbs"]);
    const same = await impl.diff("svc1", olds, await checked(shared));
    expect(same.changes).toBe(false);
    const back = await impl.diff(
      "svc1",
      observed() as unknown as Record<string, unknown>,
      await checked(shared),
    );
    expect(back.replaces.sort()).toEqual(["cpuMillis", "memoryGbs"]);
  });
});
