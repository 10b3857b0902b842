import { CPU_MILLIS, MEMORY_GBS, REPLICA_SET_NODES, inRange } from "../../api/limits";
import {
  DEFAULT_ALLOWED_REGIONS,
  replicaSetSizeLimitsSchema,
  serviceSizeLimitsSchema,
} from "../../policy/config";
import { API_CPU_MILLIS, API_MEMORY_GBS, API_REPLICA_SET_NODES } from "../../policy/limits";
import { allowedRegions, replicaSetSizeLimits, serviceSizeLimits } from "../../policy/policies";
import { resourceArgs, runResourcePolicy, UNKNOWN_NUMBER, UNKNOWN_STRING, FACES } from "./helpers";

const service = {
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 2000,
  memoryGbs: 8,
  replicaCount: 0,
};
const vpc = { name: "main", cidr: "10.0.0.0/16", regionCode: "us-east-1" };
const replicaSet = {
  serviceId: "svc-1",
  name: "ro",
  nodes: 2,
  cpuMillis: 1000,
  memoryGbs: 4,
  environment: "DEV",
};

describe.each(FACES)("%s", (_face, T) => {
  describe("mdb-allowed-regions", () => {
    it("accepts services and VPCs in a default region", async () => {
      expect(DEFAULT_ALLOWED_REGIONS).toContain("us-east-1");
      expect(await runResourcePolicy(allowedRegions, resourceArgs(T.Service, "db", service))).toEqual([]);
      expect(await runResourcePolicy(allowedRegions, resourceArgs(T.Vpc, "main", vpc))).toEqual([]);
    });

    it("reports a service and a VPC outside the allowed list, with the list and the fix", async () => {
      const config = { allowedRegions: ["eu-west-1", "eu-central-1"] };
      const svc = resourceArgs(T.Service, "orders-db", service, { config });
      expect(await runResourcePolicy(allowedRegions, svc)).toEqual([
        'Service "orders-db" has regionCode "us-east-1", which is not allowed; use one of eu-west-1, eu-central-1, ' +
          "or add the region to allowedRegions in the policy config.",
      ]);
      const net = resourceArgs(T.Vpc, "main", vpc, { config });
      expect(await runResourcePolicy(allowedRegions, net)).toEqual([
        'Vpc "main" has regionCode "us-east-1", which is not allowed; use one of eu-west-1, eu-central-1, ' +
          "or add the region to allowedRegions in the policy config.",
      ]);
    });

    it("uses the default list when the config does not set allowedRegions", async () => {
      const args = resourceArgs(T.Service, "db", { ...service, regionCode: "mars-north-1" });
      const [message] = await runResourcePolicy(allowedRegions, args);
      expect(message).toContain(
        'regionCode "mars-north-1", which is not allowed; use one of us-east-1, us-east-2,',
      );
    });

    it("lets the config allow a region the defaults do not", async () => {
      const args = resourceArgs(
        T.Service,
        "db",
        { ...service, regionCode: "mars-north-1" },
        {
          config: { allowedRegions: ["mars-north-1"] },
        },
      );
      expect(await runResourcePolicy(allowedRegions, args)).toEqual([]);
    });

    it("ignores unknown regions, read replica sets and peerings (whose peer region is the peer's)", async () => {
      const unknown = resourceArgs(T.Service, "db", { ...service, regionCode: UNKNOWN_STRING });
      const peering = resourceArgs(T.VpcPeering, "peer", {
        vpcId: "vpc-1",
        peerAccountId: "123",
        peerRegionCode: "mars-north-1",
        peerVpcId: "vpc-x",
      });
      const set = resourceArgs(T.ReadReplicaSet, "ro", { ...replicaSet, regionCode: "mars-north-1" });
      for (const args of [unknown, peering, set]) {
        expect(await runResourcePolicy(allowedRegions, args)).toEqual([]);
      }
    });
  });

  describe("mdb-service-size-limits", () => {
    it("accepts a service within the default limits (8000m, 32 GiB), limits included", async () => {
      const args = resourceArgs(T.Service, "db", { ...service, cpuMillis: 8000, memoryGbs: 32 });
      expect(await runResourcePolicy(serviceSizeLimits, args)).toEqual([]);
    });

    it("reports CPU and memory above the default limits, one message each", async () => {
      const args = resourceArgs(T.Service, "big-db", { ...service, cpuMillis: 16000, memoryGbs: 64 });
      expect(await runResourcePolicy(serviceSizeLimits, args)).toEqual([
        'Service "big-db" has cpuMillis 16000m, above the limit of 8000m; set cpuMillis to at most 8000, ' +
          "or raise maxCpuMillis in the policy config.",
        'Service "big-db" has memoryGbs 64 GiB, above the limit of 32 GiB; set memoryGbs to at most 32, ' +
          "or raise maxMemoryGbs in the policy config.",
      ]);
    });

    it("reads the API's digit-string sizes as numbers", async () => {
      const args = resourceArgs(T.Service, "big-db", { ...service, cpuMillis: "16000", memoryGbs: "8" });
      expect(await runResourcePolicy(serviceSizeLimits, args)).toEqual([
        'Service "big-db" has cpuMillis 16000m, above the limit of 8000m; set cpuMillis to at most 8000, ' +
          "or raise maxCpuMillis in the policy config.",
      ]);
    });

    it("takes its limits from the config", async () => {
      const args = (config: object) =>
        resourceArgs(T.Service, "db", { ...service, cpuMillis: 4000 }, { config });
      expect(await runResourcePolicy(serviceSizeLimits, args({ maxCpuMillis: 2000 }))).toEqual([
        'Service "db" has cpuMillis 4000m, above the limit of 2000m; set cpuMillis to at most 2000, ' +
          "or raise maxCpuMillis in the policy config.",
      ]);
      const raised = args({ maxCpuMillis: 4000, maxMemoryGbs: 8 });
      expect(await runResourcePolicy(serviceSizeLimits, raised)).toEqual([]);
    });

    it("does not report sizes unknown during preview, nor other resource types", async () => {
      const unknown = resourceArgs(T.Service, "db", {
        ...service,
        cpuMillis: UNKNOWN_NUMBER,
        memoryGbs: UNKNOWN_NUMBER,
      });
      const set = resourceArgs(T.ReadReplicaSet, "ro", { ...replicaSet, cpuMillis: 64000 });
      expect(await runResourcePolicy(serviceSizeLimits, unknown)).toEqual([]);
      expect(await runResourcePolicy(serviceSizeLimits, set)).toEqual([]);
    });
  });

  describe("mdb-replica-set-size-limits", () => {
    it("accepts a replica set within the default limits (8000m, 32 GiB per node, 4 nodes)", async () => {
      const args = resourceArgs(T.ReadReplicaSet, "ro", {
        ...replicaSet,
        nodes: 4,
        cpuMillis: 8000,
        memoryGbs: 32,
      });
      expect(await runResourcePolicy(replicaSetSizeLimits, args)).toEqual([]);
    });

    it("reports CPU, memory per node and nodes above the limits", async () => {
      const args = resourceArgs(T.ReadReplicaSet, "ro", {
        ...replicaSet,
        nodes: 6,
        cpuMillis: 9000,
        memoryGbs: 40,
      });
      expect(await runResourcePolicy(replicaSetSizeLimits, args)).toEqual([
        'ReadReplicaSet "ro" has cpuMillis 9000m per node, above the limit of 8000m per node; ' +
          "set cpuMillis to at most 8000, or raise maxCpuMillis in the policy config.",
        'ReadReplicaSet "ro" has memoryGbs 40 GiB per node, above the limit of 32 GiB per node; ' +
          "set memoryGbs to at most 32, or raise maxMemoryGbs in the policy config.",
        'ReadReplicaSet "ro" has nodes 6, above the limit of 4; set nodes to at most 4, ' +
          "or raise maxNodes in the policy config.",
      ]);
    });

    it("takes its limits from the config, apart from the service limits", async () => {
      const config = { maxCpuMillis: 500, maxMemoryGbs: 2, maxNodes: 1 };
      const args = resourceArgs(T.ReadReplicaSet, "ro", replicaSet, { config });
      expect(await runResourcePolicy(replicaSetSizeLimits, args)).toHaveLength(3);
      const service16 = resourceArgs(T.Service, "db", { ...service, cpuMillis: 16000 }, { config });
      expect(await runResourcePolicy(replicaSetSizeLimits, service16)).toEqual([]);
    });

    it("does not report values unknown during preview", async () => {
      const args = resourceArgs(T.ReadReplicaSet, "ro", {
        ...replicaSet,
        nodes: UNKNOWN_NUMBER,
        cpuMillis: UNKNOWN_NUMBER,
        memoryGbs: UNKNOWN_NUMBER,
      });
      expect(await runResourcePolicy(replicaSetSizeLimits, args)).toEqual([]);
    });
  });

  describe("the size limits' bounds", () => {
    it("restate the service's own limits of the contract (api/limits.ts)", () => {
      expect(API_CPU_MILLIS).toEqual(CPU_MILLIS);
      expect(API_MEMORY_GBS).toEqual(MEMORY_GBS);
      expect(API_REPLICA_SET_NODES).toEqual(REPLICA_SET_NODES);
    });

    it.each([
      ["mdb-service-size-limits", serviceSizeLimitsSchema, "maxCpuMillis", CPU_MILLIS],
      ["mdb-service-size-limits", serviceSizeLimitsSchema, "maxMemoryGbs", MEMORY_GBS],
      ["mdb-replica-set-size-limits", replicaSetSizeLimitsSchema, "maxCpuMillis", CPU_MILLIS],
      ["mdb-replica-set-size-limits", replicaSetSizeLimitsSchema, "maxMemoryGbs", MEMORY_GBS],
      ["mdb-replica-set-size-limits", replicaSetSizeLimitsSchema, "maxNodes", REPLICA_SET_NODES],
    ] as const)(
      "%s: %s takes a default within the service's limits, and nothing outside them",
      (_p, schema, key, range) => {
        const property = schema.properties[key] as { minimum: number; maximum: number; default: number };
        expect({ minimum: property.minimum, maximum: property.maximum }).toEqual({
          minimum: range.min,
          maximum: range.max,
        });
        expect(inRange(property.default, range)).toBe(true);
      },
    );
  });
});
