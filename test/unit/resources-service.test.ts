import { UNKNOWN } from "../../provider/resources/check";
import { ServiceInputs, ServiceOutputs, impl, planServiceUpdate } from "../../provider/resources/service";

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
  it("accepts a minimal service and fills in the defaults", async () => {
    const result = await impl.check({}, valid);
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({
      ...valid,
      replicaCount: 0,
      syncReplicaCount: 0,
      environment: "DEV",
      connectionPooler: false,
      paused: false,
    });
  });

  it.each([
    ["cpuMillis", -1000, /cpuMillis: must be positive/],
    ["cpuMillis", 1000.5, /cpuMillis: must be a whole number/],
    ["cpuMillis", 1100, /cpuMillis: must be a multiple of 250/],
    ["memoryGbs", 0, /memoryGbs: must be positive/],
    ["memoryGbs", "4", /memoryGbs: must be a number/],
    ["serviceType", "MYSQL", /serviceType: must be one of TIMESERIESDB, POSTGRES, VECTOR/],
    ["environment", "STAGING", /environment: must be PROD or DEV/],
    ["name", "", /name: must not be empty/],
    ["name", "   ", /name: must not be empty/],
    ["regionCode", "", /regionCode: must not be empty/],
    ["replicaCount", 3, /replicaCount: must be at most 2/],
    ["password", "short", /password: must be at least 8 characters/],
  ])("reports %s = %p", async (property, value, expected) => {
    const failures = await failuresOf({ ...valid, [property]: value });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(expected);
  });

  it("reports one failure per bad property", async () => {
    const failures = await failuresOf({ ...valid, cpuMillis: -1, memoryGbs: 1.5, environment: "QA" });
    expect(failures.sort()).toEqual([
      "cpuMillis: must be positive; must be a multiple of 250",
      "environment: must be PROD or DEV",
      "memoryGbs: must be a whole number",
    ]);
  });

  it("requires targetTime for PITR forks and refuses it otherwise", async () => {
    expect(await failuresOf({ ...valid, forkFrom: { serviceId: "abc", strategy: "PITR" } })).toEqual([
      "forkFrom: forkFrom.targetTime: is required when strategy is PITR",
    ]);
    expect(
      await failuresOf({
        ...valid,
        forkFrom: { serviceId: "abc", strategy: "NOW", targetTime: "2026-01-01T00:00:00Z" },
      }),
    ).toEqual(["forkFrom: forkFrom.targetTime: is only allowed when strategy is PITR"]);
    expect(await failuresOf({ ...valid, forkFrom: { serviceId: "abc", strategy: "YESTERDAY" } })).toEqual([
      "forkFrom: forkFrom.strategy: must be one of LAST_SNAPSHOT, NOW, PITR",
    ]);
  });

  it("refuses more synchronous replicas than replicas", async () => {
    expect(await failuresOf({ ...valid, replicaCount: 1, syncReplicaCount: 2 })).toEqual([
      "syncReplicaCount: must not exceed replicaCount (1)",
    ]);
  });

  it("does not report values unknown during preview", async () => {
    expect(await failuresOf({ ...valid, cpuMillis: UNKNOWN, vpcId: UNKNOWN })).toEqual([]);
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

async function diffOf(olds: ServiceOutputs, news: Record<string, unknown>) {
  const checked = await impl.check({}, news);
  return impl.diff(
    "svc1",
    olds as unknown as Record<string, unknown>,
    checked.inputs as Record<string, unknown>,
  );
}

describe("Service diff", () => {
  it("shows no change when the observed service matches the program", async () => {
    const result = await diffOf(observed(), valid);
    expect(result.changes).toBe(false);
    expect(result.replaces).toEqual([]);
  });

  it.each([
    ["serviceType", "VECTOR"],
    ["regionCode", "eu-west-1"],
    ["name", "orders-db-2"],
    ["forkFrom", { serviceId: "other", strategy: "NOW" }],
  ])("replaces on %s", async (property, value) => {
    const result = await diffOf(observed(), { ...valid, [property]: value });
    expect(result.replaces).toEqual([property]);
    expect(result.detailedDiff[property].kind).toMatch(/_REPLACE$/);
  });

  it.each([
    ["cpuMillis", 2000, "resize"],
    ["memoryGbs", 8, "resize"],
    ["replicaCount", 1, "setHA"],
    ["environment", "PROD", "setEnvironment"],
    ["password", "a-new-password", "updatePassword"],
    ["connectionPooler", true, "enablePooler"],
    ["vpcId", "vpc-1", "attachToVPC"],
    ["paused", true, "stop"],
  ])("updates %s in place with %s", async (property, value, action) => {
    const news = { ...valid, [property]: value };
    const result = await diffOf(observed(), news);
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual([]);
    expect(Object.keys(result.detailedDiff)).toEqual([property]);
    const checked = (await impl.check({}, news)).inputs as unknown as ServiceInputs;
    expect(planServiceUpdate(observed(), checked).map((s) => s.action)).toEqual([action]);
  });

  it("treats a value unknown during preview as a change", async () => {
    const result = await diffOf(observed(), { ...valid, vpcId: UNKNOWN });
    expect(result.changes).toBe(true);
    expect(result.detailedDiff.vpcId.kind).toBe("ADD");
  });

  it("ignores the forwarded timeouts", async () => {
    const result = await diffOf(observed(), { ...valid, __timeouts: { create: 1000 } });
    expect(result.changes).toBe(false);
  });
});

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

  it("orders every kind of change: start, detach, resize, setHA, attach, pooler, environment, password, stop", () => {
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
    expect(steps.map((s) => s.action)).toEqual([
      "start",
      "detachFromVPC",
      "resize",
      "setHA",
      "attachToVPC",
      "enablePooler",
      "setEnvironment",
      "updatePassword",
      "stop",
    ]);
  });

  it("moves between VPCs by detaching the old one first", () => {
    const steps = planServiceUpdate(observed({ vpcId: "vpc-a" }), want({ vpcId: "vpc-b" }));
    expect(steps).toEqual([
      { action: "detachFromVPC", vpcId: "vpc-a" },
      { action: "attachToVPC", vpcId: "vpc-b" },
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
    expect(planServiceUpdate(halfWay, target).map((s) => s.action)).toEqual([
      "enablePooler",
      "setEnvironment",
    ]);
  });

  it("resumes a paused service and leaves it running when paused becomes false", () => {
    expect(
      planServiceUpdate(observed({ paused: true }), want({ paused: false })).map((s) => s.action),
    ).toEqual(["start"]);
  });
});
