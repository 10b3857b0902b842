/**
 * The line each resource with changes prints at preview (no server): the API calls the update
 * will make, in the order `up` makes them, what they do to the database, why a replacement
 * happens, and nothing secret. Printed by the providers' own `diff`, as the engine calls it.
 */
import { UNKNOWN } from "../../provider/kit/fields/check";
import { RESOURCE_NAME_INPUT } from "../../provider/adapters/dynamic/hidden";
import { acceptedEarlierNote, effectsOf } from "../../provider/kit/preview/lines";
import { ACCEPTED_OUTPUT } from "../../provider/kit/hidden";
import type { ResourceKind } from "../../provider/resources/registry";
import { providerWith, testRuntime } from "../helpers/runtime";

/** The preview lines the providers of this file print. */
const progress = jest.fn();
const runtime = testRuntime(progress);
const PROVIDERS = {
  service: providerWith("service", runtime),
  "read-replica-set": providerWith("read-replica-set", runtime),
  vpc: providerWith("vpc", runtime),
  "vpc-peering": providerWith("vpc-peering", runtime),
} satisfies Record<ResourceKind, unknown>;

afterEach(() => jest.clearAllMocks());

/** What the service `db` looks like in the state. */
const SERVICE_STATE = {
  serviceId: "svc1",
  projectId: "p1",
  name: "orders-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  replicaCount: 0,
  syncReplicaCount: 0,
  environment: "DEV",
  connectionPooler: false,
  paused: false,
  status: "READY",
};

/** The program's inputs that match {@link SERVICE_STATE}. */
const SERVICE_INPUTS = {
  name: "orders-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  [RESOURCE_NAME_INPUT]: "db",
};

/** What the VPC `net` looks like in the state. */
const VPC_STATE = {
  vpcId: "vpc1",
  projectId: "p1",
  name: "core",
  cidr: "10.0.0.0/16",
  regionCode: "us-east-1",
};

/** What the peering `peer` looks like in the state. */
const PEERING_STATE = {
  peeringId: "pcx1",
  vpcId: "vpc1",
  projectId: "p1",
  peerAccountId: "acct-1",
  peerRegionCode: "us-east-1",
  peerVpcId: "vpc-peer-1",
  status: "active",
};

/** The lines the diff printed. */
function printed(): string[] {
  return (progress as jest.Mock).mock.calls.map(([line]) => line as string);
}

/** Diffs `news` against `olds` with the provider of `kind` and returns the one line it printed. */
async function lineOf(kind: keyof typeof PROVIDERS, olds: object, news: object): Promise<string> {
  const provider = PROVIDERS[kind];
  const checked = await provider.check(olds as Record<string, unknown>, news as Record<string, unknown>);
  expect(checked.failures ?? []).toEqual([]);
  const diff = await provider.diff("id", olds as Record<string, unknown>, checked.inputs);
  expect(diff.changes).toBe(true);
  expect(printed()).toHaveLength(1);
  return printed()[0];
}

describe("an in-place update names its calls in the order up makes them", () => {
  it("resize and setHA restart the service twice (the issue's own example)", async () => {
    expect(
      await lineOf("service", SERVICE_STATE, {
        ...SERVICE_INPUTS,
        cpuMillis: 2000,
        memoryGbs: 8,
        replicaCount: 1,
      }),
    ).toBe("db: resizeService 1000m/4GB → 2000m/8GB, setHA 0 → 1 (the service restarts twice)");
  });

  it("a call an earlier run left accepted is still listed, with a note that up waits for it", async () => {
    const news = { ...SERVICE_INPUTS, cpuMillis: 2000, memoryGbs: 8, replicaCount: 1 };
    // Written by the name users' states hold since it was introduced, which no release renames.
    expect(ACCEPTED_OUTPUT).toBe("__acceptedCalls");
    const accepted = { ...SERVICE_STATE, __acceptedCalls: ["resizeService 1000m/4GB → 2000m/8GB"] };
    expect(await lineOf("service", accepted, news)).toBe(
      "db: resizeService 1000m/4GB → 2000m/8GB, setHA 0 → 1 (the service restarts twice); resizeService was " +
        "accepted by the API in an earlier run that ended before it settled: up waits for it and sends it again " +
        "only if the API has not applied it",
    );
    jest.clearAllMocks();
    // Accepted for other sizes than the program now asks: up waits for that one first, and the
    // planned resize is a new call.
    const other = { ...SERVICE_STATE, __acceptedCalls: ["resizeService 1000m/4GB → 4000m/16GB"] };
    expect(await lineOf("service", other, news)).toBe(
      "db: resizeService 1000m/4GB → 2000m/8GB, setHA 0 → 1 (the service restarts twice); resizeService was " +
        "accepted by the API in an earlier run that ended before it settled: up waits for it",
    );
  });

  it("a create an earlier run left unsettled, with no change since: a line that up only waits for it", async () => {
    const unsettled = {
      ...SERVICE_STATE,
      status: "QUEUED",
      __acceptedCalls: ["createService orders-db 1000m/4GB"],
    };
    const checked = await PROVIDERS.service.check(unsettled, SERVICE_INPUTS);
    const diff = await PROVIDERS.service.diff("id", unsettled, checked.inputs);
    // No change: the engine's update of a partial state is what finishes the wait.
    expect(diff.changes).toBe(false);
    expect(printed()).toEqual([
      "db: no API call; createService was accepted by the API in an earlier run that ended before it " +
        "settled: up waits for it",
    ]);
    jest.clearAllMocks();
    // A state with nothing accepted and no change prints nothing.
    await PROVIDERS.service.diff("id", SERVICE_STATE, checked.inputs);
    expect(printed()).toEqual([]);
  });

  it("a create left unsettled and a change: the line lists the calls and that up waits for the create first", async () => {
    const unsettled = { ...SERVICE_STATE, __acceptedCalls: ["createService orders-db 1000m/4GB"] };
    expect(await lineOf("service", unsettled, { ...SERVICE_INPUTS, cpuMillis: 2000, memoryGbs: 8 })).toBe(
      "db: resizeService 1000m/4GB → 2000m/8GB (the service restarts once); createService was accepted by " +
        "the API in an earlier run that ended before it settled: up waits for it",
    );
  });

  it("two calls left accepted are named together", () => {
    expect(acceptedEarlierNote(["resizeService", "setHA"])).toBe(
      "resizeService, setHA were accepted by the API in an earlier run that ended before they settled: up " +
        "waits for them and sends them again only if the API has not applied them",
    );
  });

  it("a paused service is started for a resize and stopped again", async () => {
    expect(
      await lineOf(
        "service",
        { ...SERVICE_STATE, paused: true },
        { ...SERVICE_INPUTS, paused: true, cpuMillis: 2000 },
      ),
    ).toBe(
      "db: startService, resizeService 1000m/4GB → 2000m/4GB, stopService (the service starts, restarts once, then stops)",
    );
  });

  it("moving to another VPC detaches, then attaches: two restarts", async () => {
    expect(
      await lineOf("service", { ...SERVICE_STATE, vpcId: "vpc-a" }, { ...SERVICE_INPUTS, vpcId: "vpc-b" }),
    ).toBe("db: detachFromVpc vpc-a, attachToVpc vpc-b (the service restarts twice)");
  });

  it("synchronous replicas show when they are involved", async () => {
    expect(
      await lineOf(
        "service",
        { ...SERVICE_STATE, replicaCount: 1 },
        { ...SERVICE_INPUTS, replicaCount: 2, syncReplicaCount: 1 },
      ),
    ).toBe("db: setHA 1 (0 sync) → 2 (1 sync) (the service restarts once)");
  });

  it("pooler, environment and password are made without a restart, in that order, and the password never shows", async () => {
    const line = await lineOf("service", SERVICE_STATE, {
      ...SERVICE_INPUTS,
      password: "n3w-Secret-pw",
      environment: "PROD",
      connectionPooler: true,
    });
    expect(line).toBe("db: enablePooler, setServiceEnvironment DEV → PROD, updatePassword (no restart)");
    expect(line).not.toContain("n3w-Secret-pw");
  });

  it("a change no API call carries says so and what the stack records", async () => {
    expect(await lineOf("service", SERVICE_STATE, { ...SERVICE_INPUTS, deletionProtection: true })).toBe(
      "db: no API call; the stack records deletionProtection false → true",
    );
  });

  it("a value known only during up is named, and the known calls are still listed", async () => {
    expect(
      await lineOf("service", SERVICE_STATE, { ...SERVICE_INPUTS, vpcId: UNKNOWN, cpuMillis: 2000 }),
    ).toBe(
      "db: resizeService 1000m/4GB → 2000m/4GB (the service restarts once); vpcId known only during up, which plans its calls then",
    );
    jest.clearAllMocks();
    expect(await lineOf("service", SERVICE_STATE, { ...SERVICE_INPUTS, vpcId: UNKNOWN })).toBe(
      "db: no API call yet; vpcId known only during up, which plans its calls then",
    );
  });

  it("a read replica set: one resize call for nodes and sizes, then pooler and environment", async () => {
    const olds = {
      replicaSetId: "rrs1",
      serviceId: "svc1",
      projectId: "p1",
      name: "reads",
      nodes: 1,
      cpuMillis: 1000,
      memoryGbs: 4,
      environment: "DEV",
      connectionPooler: false,
      status: "active",
    };
    const news = {
      serviceId: "svc1",
      name: "reads",
      nodes: 2,
      cpuMillis: 1000,
      memoryGbs: 4,
      [RESOURCE_NAME_INPUT]: "reads",
    };
    expect(
      await lineOf("read-replica-set", olds, { ...news, connectionPooler: true, environment: "PROD" }),
    ).toBe(
      "reads: resizeReplicaSet 1×1000m/4GB → 2×1000m/4GB, enableReplicaSetPooler, setReplicaSetEnvironment DEV → PROD (the read replica set restarts once)",
    );
  });

  it("a service rename is one call in place, keeping the service", async () => {
    expect(await lineOf("service", SERVICE_STATE, { ...SERVICE_INPUTS, name: "orders-db-2" })).toBe(
      "db: renameService orders-db → orders-db-2 (no restart)",
    );
  });

  it("a service rename comes first of the calls of an update", async () => {
    expect(
      await lineOf("service", SERVICE_STATE, { ...SERVICE_INPUTS, name: "orders-db-2", cpuMillis: 2000 }),
    ).toBe(
      "db: renameService orders-db → orders-db-2, resizeService 1000m/4GB → 2000m/4GB (the service restarts once)",
    );
  });

  it("a VPC rename is one call, with no word on restarts", async () => {
    const olds = VPC_STATE;
    const news = {
      name: "core-2",
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
      [RESOURCE_NAME_INPUT]: "net",
    };
    expect(await lineOf("vpc", olds, news)).toBe("net: renameVpc core → core-2");
  });
});

describe("a replacement says why, and names the create, the calls after it and the delete", () => {
  it("a service moved to another region is created with what the create cannot carry, then the old one deleted", async () => {
    const olds = {
      ...SERVICE_STATE,
      vpcId: "vpc-a",
      connectionPooler: true,
      replicaCount: 1,
      syncReplicaCount: 1,
    };
    const news = {
      ...SERVICE_INPUTS,
      regionCode: "eu-west-1",
      vpcId: "vpc-a",
      connectionPooler: true,
      replicaCount: 1,
      syncReplicaCount: 1,
      password: "Pw-Secret-9981",
    };
    const line = await lineOf("service", olds, news);
    expect(line).toBe(
      "db: replace (regionCode us-east-1 → eu-west-1: cannot change in place): " +
        "createService orders-db 1000m/4GB, setHA 1 (0 sync) → 1 (1 sync), attachToVpc vpc-a, enablePooler, updatePassword, " +
        "then deleteService of the old service",
    );
    expect(line).not.toContain("Pw-Secret-9981");
  });

  it("a fork source change forks; a final fork of the old one shows", async () => {
    // Protection of the new one only: a protected old one fails the preview (test/unit/safety-invariants.test.ts).
    const olds = { ...SERVICE_STATE, paused: true, finalFork: true };
    const news = {
      ...SERVICE_INPUTS,
      deletionProtection: true,
      finalFork: true,
      forkFrom: { serviceId: "src1", strategy: "LAST_SNAPSHOT" },
    };
    expect(await lineOf("service", olds, news)).toBe(
      'db: replace (forkFrom (none) → {"serviceId":"src1","strategy":"LAST_SNAPSHOT"}: cannot change in place): ' +
        "forkService orders-db from src1 (LAST_SNAPSHOT), " +
        "then startService, forkService orders-db-final-svc1 (final fork), deleteService of the old service",
    );
  });

  it("a peering is deleted first, then made again", async () => {
    const olds = PEERING_STATE;
    const { peeringId: _id, status: _status, projectId: _project, ...inputs } = PEERING_STATE;
    const news = { ...inputs, peerVpcId: "vpc-peer-2", [RESOURCE_NAME_INPUT]: "peer" };
    expect(await lineOf("vpc-peering", olds, news)).toBe(
      "peer: replace (peerVpcId vpc-peer-1 → vpc-peer-2: the API cannot change a peering): " +
        "deletePeering of the old VPC peering first, then createPeering to account acct-1, region us-east-1, VPC vpc-peer-2",
    );
  });

  it("a VPC whose block changes is made anew before the old one is deleted", async () => {
    const olds = VPC_STATE;
    const news = { name: "core", cidr: "10.1.0.0/16", regionCode: "us-east-1", [RESOURCE_NAME_INPUT]: "net" };
    expect(await lineOf("vpc", olds, news)).toBe(
      "net: replace (cidr 10.0.0.0/16 → 10.1.0.0/16: cannot change in place): createVpc core 10.1.0.0/16, then deleteVpc of the old VPC",
    );
  });

  it("a value known only during up shows as such in the reason", async () => {
    const olds = PEERING_STATE;
    const { peeringId: _id, status: _status, projectId: _project, ...inputs } = PEERING_STATE;
    const news = { ...inputs, vpcId: UNKNOWN, [RESOURCE_NAME_INPUT]: "peer" };
    expect(await lineOf("vpc-peering", olds, news)).toMatch(
      /^peer: replace \(vpcId vpc1 → \(known during up\): the API cannot change a peering\): deletePeering of the old VPC peering first, then createPeering/,
    );
  });
});

describe("what is not a change prints nothing", () => {
  it("no line for a resource without changes", async () => {
    const diff = await PROVIDERS.service.diff("svc1", SERVICE_STATE, SERVICE_INPUTS);
    expect(diff.changes).toBe(false);
    expect(printed()).toEqual([]);
  });
});

describe("effects", () => {
  it.each([
    [[], "no restart"],
    [["restart", "restart", "restart"], "the service restarts 3 times"],
    [["stop"], "the service stops"],
    [["start", "restart"], "the service starts, then restarts once"],
  ])("%j reads %p", (effects, words) => {
    const calls = (effects as Array<"restart" | "start" | "stop">).map((effect) => ({
      op: "setHA" as const,
      effect,
    }));
    expect(effectsOf("service", calls)).toBe(words);
  });
});
