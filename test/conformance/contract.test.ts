/**
 * Conformance, driven by api/operations.ts, in each dialect: each operation the dialect serves,
 * called with a valid body on records in the state it needs, answers the success status of its row
 * and a body that the STRICT schema of its row reads as that dialect answers it (an undocumented
 * field fails, except the documented extensions), in the dialect's words. Also the two readings of
 * a record, the lenient reading of every version's answers (W2), and the contract's paths and limits.
 */
import {
  OPERATIONS,
  answerKind,
  fillPath,
  operationIdsOf,
  responseSchema,
  type OperationId,
} from "../../api/operations";
import {
  CPU_MILLIS,
  EMULATOR_EXTENSIONS,
  HA_REPLICAS,
  MEMORY_GBS,
  REPLICA_SET_NODES,
  SERVICE_NODES,
  describeRange,
  inRange,
  LENIENT_RECORDS,
  STRICT_RECORDS,
  canonicalServiceType,
  sameServiceType,
  type ReadReplicaSet,
  type Service,
  type Vpc,
  type VpcPeering,
} from "../../api/schemas";
import type { TestEmulator, TestResponse } from "../helpers/emulator";
import { exampleBody, type Ids } from "./examples";
import { DIALECT_CASES, startConformanceEmulator } from "./helpers";

let emu: TestEmulator;

/** Calls operation `id` about the records `ids`, with its example body. */
function call(id: OperationId, ids: Ids) {
  const op = OPERATIONS[id];
  return emu.api(
    op.method,
    fillPath(
      op.path,
      op.params.map((param) => ids[param]),
    ),
    exampleBody(id, ids),
  );
}

/** Waits until `probe` reads `status`. */
function settle(probe: () => Promise<TestResponse>, status: string, what: string) {
  return emu.waitFor(probe, (r) => (r.body as { status?: string }).status === status, {
    what: `${what} ${status}`,
  });
}

/** A READY service with an active replica set, and a VPC of its region with an active peering. */
async function records(): Promise<Ids> {
  const p = emu.projectPath;
  const service = (await emu.api<Service>("POST", `${p}/services`, { name: "contract-db" })).body;
  const servicePath = `${p}/services/${service.service_id}`;
  await settle(() => emu.api<Service>("GET", servicePath), "READY", "service");
  const replicaSet = (
    await emu.api<ReadReplicaSet>(
      "POST",
      `${servicePath}/replicaSets`,
      exampleBody("createReplicaSet", {} as Ids),
    )
  ).body;
  const vpc = (await emu.api<Vpc>("POST", `${p}/vpcs`, exampleBody("createVpc", {} as Ids))).body;
  const peering = (
    await emu.api<VpcPeering>("POST", `${p}/vpcs/${vpc.id}/peerings`, exampleBody("createPeering", {} as Ids))
  ).body;
  const ids: Ids = {
    project_id: emu.credentials.projectId,
    service_id: service.service_id,
    replica_set_id: replicaSet.id,
    vpc_id: vpc.id,
    peering_id: peering.id,
  };
  await emu.waitFor(
    () => call("listReplicaSets", ids),
    (r) => (r.body as ReadReplicaSet[])[0]?.status === "active",
    { what: "replica set active" },
  );
  await settle(() => call("getPeering", ids), "active", "peering");
  return ids;
}

/** What an operation needs beyond {@link records}, brought about before the call. */
const PRECONDITIONS: { readonly [Id in OperationId]?: (ids: Ids) => Promise<unknown> } = {
  detachFromVpc: async (ids) => {
    await call("attachToVpc", ids);
    await settle(() => call("getService", ids), "READY", "service");
  },
  startService: async (ids) => {
    await call("stopService", ids);
    await settle(() => call("getService", ids), "PAUSED", "service");
  },
  deleteVpc: (ids) => call("deletePeering", ids),
};

describe.each(DIALECT_CASES)("%s dialect", (dialect) => {
  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
  });
  afterAll(() => emu.close());
  beforeEach(() => emu.reset());

  describe.each(operationIdsOf(dialect).map((id) => [OPERATIONS[id].name, id] as const))(
    "%s",
    (_name, id) => {
      const op = OPERATIONS[id];
      const kind = answerKind(id, dialect);
      it(`answers ${op.status} with a ${kind} body that the strict schema reads`, async () => {
        const ids = await records();
        await PRECONDITIONS[id]?.(ids);
        const response = await call(id, ids);
        expect(response.status).toBe(op.status);
        expect(responseSchema(id, "strict", dialect).safeParse(response.body).error).toBeUndefined();
        if (kind === "none") expect(response.text).toBe("");
      });
    },
  );
});

describe("the two readings of a record", () => {
  const vpc = { id: "vpc-1", name: "n", cidr: "10.0.0.0/16", region_code: "r" };
  const peering = { id: "pcx-1", peer_account_id: "a", peer_region_code: "r", peer_vpc_id: "v" };

  it("strict refuses an undocumented field and an unlisted enum value; lenient keeps both", () => {
    expect(STRICT_RECORDS.Vpc.safeParse({ ...vpc, tags: ["x"] }).success).toBe(false);
    expect(LENIENT_RECORDS.Vpc.parse({ ...vpc, tags: ["x"] })).toEqual({ ...vpc, tags: ["x"] });
    expect(STRICT_RECORDS.VpcPeering.safeParse({ ...peering, status: "provisioning" }).success).toBe(false);
    expect(LENIENT_RECORDS.VpcPeering.parse({ ...peering, status: "provisioning" }).status).toBe(
      "provisioning",
    );
  });

  it("strict accepts the emulator's documented extensions, and no other field", () => {
    const replicaSet = { id: "rrs-1", name: "r", status: "error", nodes: 1, cpu_millis: 250, memory_gbs: 1 };
    for (const field of Object.keys(EMULATOR_EXTENSIONS.readReplicaSet)) {
      expect(STRICT_RECORDS.ReadReplicaSet.safeParse({ ...replicaSet, [field]: "disk full" }).success).toBe(
        true,
      );
    }
    expect(STRICT_RECORDS.ReadReplicaSet.safeParse({ ...replicaSet, reason: "disk full" }).success).toBe(
      false,
    );
    const service = {
      service_id: "s1",
      project_id: "p1",
      name: "db",
      region_code: "us-east-1",
      service_type: "POSTGRES",
      status: "UNSTABLE",
    };
    for (const field of Object.keys(EMULATOR_EXTENSIONS.service)) {
      expect(STRICT_RECORDS.Service.safeParse({ ...service, [field]: "the server exited" }).success).toBe(
        true,
      );
      expect(LENIENT_RECORDS.Service.parse({ ...service, [field]: "the server exited" })[field]).toBe(
        "the server exited",
      );
    }
    expect(STRICT_RECORDS.Service.safeParse({ ...service, reason: "the server exited" }).success).toBe(false);
  });
});

describe("the lenient reading of every version's answers (W2)", () => {
  const base = {
    service_id: "s1",
    project_id: "p1",
    name: "db",
    region_code: "us-east-1",
    service_type: "TIMESERIESDB",
    status: "READY",
  };
  const endpoint = { host: "h", port: 5432, vpc_id: "1234" };
  const read = (record: object) => LENIENT_RECORDS.Service.parse(record);

  it("TIMESCALEDB is a known service type, the same as TIMESERIESDB", () => {
    expect(STRICT_RECORDS.Service.safeParse({ ...base, service_type: "TIMESCALEDB" }).success).toBe(true);
    expect(sameServiceType(read({ ...base, service_type: "TIMESCALEDB" }).service_type, "TIMESERIESDB")).toBe(
      true,
    );
    expect(sameServiceType("TIMESCALEDB", "POSTGRES")).toBe(false);
    expect(canonicalServiceType("TIMESCALEDB")).toBe("TIMESERIESDB");
  });

  it.each([
    ["vpcEndpoint only (seed, spec-era)", { vpcEndpoint: endpoint }],
    ["vpc_endpoint only (current, deprecated aliases off)", { vpc_endpoint: endpoint }],
    ["both (current)", { vpc_endpoint: endpoint, vpcEndpoint: endpoint }],
    ["vpc_endpoint and a null vpcEndpoint", { vpc_endpoint: endpoint, vpcEndpoint: null }],
  ])("%s: readers see the one endpoint under either name", (_what, fields) => {
    const service = read({ ...base, ...fields });
    expect(service.vpc_endpoint).toEqual(endpoint);
    expect(service.vpcEndpoint).toEqual(endpoint);
  });

  it("no endpoint, or null ones: neither name is set", () => {
    const service = read({ ...base, vpcEndpoint: null, vpc_endpoint: null });
    expect("vpc_endpoint" in service || "vpcEndpoint" in service).toBe(false);
  });

  it.each([
    ["READY", false],
    ["PAUSING", true],
    ["PAUSED", true],
    ["RESUMING", false],
  ])("without paused, a %s service reads paused %s; a sent paused is kept", (status, paused) => {
    expect(read({ ...base, status }).paused).toBe(paused);
    expect(read({ ...base, status, paused: !paused }).paused).toBe(!paused);
  });

  it("renameVpc: the VPC and {message} both read, in the lenient and the undialected strict reading", () => {
    const vpc = { id: "123", name: "n", cidr: "10.0.0.0/16", region_code: "r" };
    for (const reading of ["lenient", "strict"] as const) {
      expect(responseSchema("renameVpc", reading).safeParse(vpc).success).toBe(true);
      expect(responseSchema("renameVpc", reading).safeParse({ message: "renamed" }).success).toBe(true);
    }
    expect(responseSchema("renameVpc", "strict", "seed").safeParse({ message: "renamed" }).success).toBe(
      false,
    );
    expect(responseSchema("renameVpc", "strict", "vendor").safeParse(vpc).success).toBe(false);
  });

  it("delete replica set: {code, message} and no body both read; each dialect answers its own", () => {
    const ack = { code: "ACCEPTED", message: "deleting" };
    expect(responseSchema("deleteReplicaSet", "lenient").safeParse(ack).success).toBe(true);
    expect(responseSchema("deleteReplicaSet", "lenient").safeParse(undefined).success).toBe(true);
    expect(responseSchema("deleteReplicaSet", "strict", "seed").safeParse(undefined).success).toBe(false);
    expect(responseSchema("deleteReplicaSet", "strict", "vendor").safeParse(ack).success).toBe(false);
  });

  it("service logs: last_cursor read from the deprecated lastCursor when only that came", () => {
    expect(responseSchema("getServiceLogs", "lenient").parse({ logs: [], lastCursor: "c1" })).toMatchObject({
      last_cursor: "c1",
    });
  });
});

describe("resize answers, old and new", () => {
  it.each(["resizeService", "resizeReplicaSet"] as const)(
    "%s: the client reads the spec-era empty answer; conformance requires the current body",
    (id) => {
      expect(responseSchema(id, "lenient").safeParse(undefined).success).toBe(true);
      expect(responseSchema(id, "strict").safeParse(undefined).success).toBe(false);
    },
  );
});

describe("paths and limits of the contract", () => {
  it("fills a path template in order, each value URL-encoded", () => {
    const op = OPERATIONS.getPeering;
    expect(op.params).toEqual(["project_id", "vpc_id", "peering_id"]);
    expect(fillPath(op.path, ["p 1", "vpc/2", "pcx-3"])).toBe("/projects/p%201/vpcs/vpc%2F2/peerings/pcx-3");
  });

  it.each([
    [CPU_MILLIS, [250, 500, 64000], [0, 249, 300, 64250, 250.5], "a multiple of 250 from 250 to 64000"],
    [MEMORY_GBS, [1, 1024], [0, 1025, 1.5], "a whole number from 1 to 1024"],
    [REPLICA_SET_NODES, [1, 10], [0, 11], "a whole number from 1 to 10"],
    [SERVICE_NODES, [1], [0, 2], "exactly 1"],
    [HA_REPLICAS, [0, 2], [-1, 3], "a whole number from 0 to 2"],
  ])("%j holds %j, refuses %j, and reads %s", (range, inside, outside, words) => {
    expect(inside.map((n) => inRange(n, range))).toEqual(inside.map(() => true));
    expect(outside.map((n) => inRange(n, range))).toEqual(outside.map(() => false));
    expect(describeRange(range)).toBe(words);
  });
});
