import {
  findReplicatedService,
  prodReplicaSetEnvironment,
  replicaSetNotLargerThanService,
} from "../../policy/policies";
import type { PolicyResource } from "../../policy/types";
import { link, runStackPolicy, stackResource, UNKNOWN_STRING, urnOf, FACES } from "./helpers";

const serviceProps = {
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 2000,
  memoryGbs: 8,
  replicaCount: 1,
  environment: "PROD",
  vpcId: "vpc-1",
};
const setProps = { name: "ro", nodes: 2, cpuMillis: 2000, memoryGbs: 8, environment: "PROD" };

describe.each(FACES)("%s", (_face, T) => {
  /** A service as a stack policy sees it after it exists (its serviceId output is known). */
  const service = (name: string, serviceId: string | undefined, props: object = {}) =>
    stackResource(T.Service, name, { ...serviceProps, ...(serviceId ? { serviceId } : {}), ...props });

  /** A replica set whose serviceId input is known. */
  const replicaSet = (name: string, serviceId: unknown, props: object = {}) =>
    stackResource(T.ReadReplicaSet, name, { ...setProps, serviceId, ...props });

  describe("findReplicatedService", () => {
    it("matches the Service whose serviceId output equals the replica set's serviceId", () => {
      const a = service("a", "svc-a");
      const b = service("b", "svc-b");
      const set = replicaSet("ro", "svc-b");
      expect(findReplicatedService(set, [a, b, set])).toBe(b);
    });

    it("during preview (serviceId unknown) follows the propertyDependencies of serviceId", () => {
      const a = service("a", undefined);
      const b = service("b", undefined);
      const set = link(replicaSet("ro", UNKNOWN_STRING), "serviceId", b);
      link(set, "nodes", a); // a dependency of another property does not count
      expect(findReplicatedService(set, [a, b, set])).toBe(b);
    });

    it("falls back on the dependencies when the engine sent no property dependencies", () => {
      const a = service("a", undefined);
      const set = replicaSet("ro", UNKNOWN_STRING);
      set.dependencies = [a];
      expect(findReplicatedService(set, [a, set])).toBe(a);
    });

    it("gives up rather than guess", () => {
      const a = service("a", "svc-a");
      const b = service("b", "svc-b");
      // several services behind serviceId
      const ambiguous = link(replicaSet("ro", UNKNOWN_STRING), "serviceId", a, b);
      expect(findReplicatedService(ambiguous, [a, b, ambiguous])).toBeUndefined();
      // several dependencies and no property dependencies
      const deps = replicaSet("ro", UNKNOWN_STRING);
      deps.dependencies = [a, b];
      expect(findReplicatedService(deps, [a, b, deps])).toBeUndefined();
      // a known id of a service outside the stack, even with an unrelated dependsOn
      const outside = replicaSet("ro", "svc-elsewhere");
      outside.dependencies = [a];
      expect(findReplicatedService(outside, [a, outside])).toBeUndefined();
      // a known id that contradicts the service it depends on
      const contradiction = link(replicaSet("ro", "svc-elsewhere"), "serviceId", a);
      expect(findReplicatedService(contradiction, [a, contradiction])).toBeUndefined();
      // two services claiming the same id
      const twin = service("twin", "svc-a");
      const set = replicaSet("ro", "svc-a");
      expect(findReplicatedService(set, [a, twin, set])).toBeUndefined();
    });
  });

  describe("mdb-replica-set-not-larger-than-service", () => {
    it("accepts a replica set the size of its service or smaller", async () => {
      const svc = service("orders-db", "svc-1");
      const same = replicaSet("ro-same", "svc-1");
      const smaller = replicaSet("ro-small", "svc-1", { cpuMillis: 500, memoryGbs: 2 });
      expect(await runStackPolicy(replicaSetNotLargerThanService, [svc, same, smaller])).toEqual([]);
    });

    it("reports CPU and memory larger than the service's, on the replica set, naming both", async () => {
      const svc = service("orders-db", "svc-1");
      const big = replicaSet("orders-ro", "svc-1", { cpuMillis: 4000, memoryGbs: 16 });
      expect(await runStackPolicy(replicaSetNotLargerThanService, [svc, big])).toEqual([
        {
          message:
            'ReadReplicaSet "orders-ro" has cpuMillis 4000m per node, more than its Service "orders-db" (2000m); ' +
            "set cpuMillis to at most 2000, or resize the service first.",
          urn: urnOf(T.ReadReplicaSet, "orders-ro"),
        },
        {
          message:
            'ReadReplicaSet "orders-ro" has memoryGbs 16 GiB per node, more than its Service "orders-db" (8 GiB); ' +
            "set memoryGbs to at most 8, or resize the service first.",
          urn: urnOf(T.ReadReplicaSet, "orders-ro"),
        },
      ]);
    });

    it("finds the service through propertyDependencies in a first preview", async () => {
      const svc = service("orders-db", undefined);
      const big = link(replicaSet("orders-ro", UNKNOWN_STRING, { cpuMillis: 4000 }), "serviceId", svc);
      const violations = await runStackPolicy(replicaSetNotLargerThanService, [svc, big]);
      expect(violations.map((v) => v.message)).toEqual([
        expect.stringContaining('more than its Service "orders-db"'),
      ]);
    });

    it("does not report when the service cannot be found or a size is unknown", async () => {
      const svc = service("orders-db", undefined, { cpuMillis: UNKNOWN_STRING });
      const orphan = replicaSet("orphan-ro", UNKNOWN_STRING, { cpuMillis: 64000, memoryGbs: 512 });
      const unknownSize = link(replicaSet("ro", UNKNOWN_STRING, { cpuMillis: 64000 }), "serviceId", svc);
      expect(await runStackPolicy(replicaSetNotLargerThanService, [svc, orphan, unknownSize])).toEqual([]);
    });
  });

  describe("mdb-prod-replica-set-environment", () => {
    it("accepts a PROD replica set of a PROD service, and any replica set of a DEV service", async () => {
      const prod = service("orders-db", "svc-1");
      const dev = service("scratch", "svc-2", { environment: "DEV" });
      const resources: PolicyResource[] = [
        prod,
        dev,
        replicaSet("orders-ro", "svc-1"),
        replicaSet("scratch-ro", "svc-2", { environment: "DEV" }),
      ];
      expect(await runStackPolicy(prodReplicaSetEnvironment, resources)).toEqual([]);
    });

    it("reports a DEV replica set of a PROD service", async () => {
      const prod = service("orders-db", "svc-1");
      const set = replicaSet("orders-ro", "svc-1", { environment: "DEV" });
      expect(await runStackPolicy(prodReplicaSetEnvironment, [prod, set])).toEqual([
        {
          message:
            'ReadReplicaSet "orders-ro" replicates PROD Service "orders-db" but its environment is DEV; ' +
            'set environment: "PROD".',
          urn: urnOf(T.ReadReplicaSet, "orders-ro"),
        },
      ]);
    });

    it("reports a replica set with no environment (DEV by default) in a first preview", async () => {
      const prod = service("orders-db", undefined);
      const { environment: _omit, ...noEnvironment } = setProps;
      const set = link(
        stackResource(T.ReadReplicaSet, "orders-ro", { ...noEnvironment, serviceId: UNKNOWN_STRING }),
        "serviceId",
        prod,
      );
      expect(await runStackPolicy(prodReplicaSetEnvironment, [prod, set])).toEqual([
        {
          message:
            'ReadReplicaSet "orders-ro" replicates PROD Service "orders-db" but its environment is not set ' +
            '(defaults to DEV); set environment: "PROD".',
          urn: urnOf(T.ReadReplicaSet, "orders-ro"),
        },
      ]);
    });

    it("does not report when an environment is unknown or the service is not in the stack", async () => {
      const prod = service("orders-db", "svc-1");
      const unknownSet = replicaSet("a-ro", "svc-1", { environment: UNKNOWN_STRING });
      const unknownService = service("b-db", "svc-2", { environment: UNKNOWN_STRING });
      const ofUnknown = replicaSet("b-ro", "svc-2", { environment: "DEV" });
      const elsewhere = replicaSet("c-ro", "svc-9", { environment: "DEV" });
      const resources = [prod, unknownSet, unknownService, ofUnknown, elsewhere];
      expect(await runStackPolicy(prodReplicaSetEnvironment, resources)).toEqual([]);
    });
  });
});
