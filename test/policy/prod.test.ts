import { prodServiceHa, prodServiceProtected, prodServiceVpc } from "../../policy/policies";
import { resourceArgs, runResourcePolicy, UNKNOWN_NUMBER, UNKNOWN_STRING, FACES } from "./helpers";

/** A PROD service that satisfies every production guardrail. */
const prodService = {
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 2000,
  memoryGbs: 8,
  replicaCount: 1,
  environment: "PROD",
  vpcId: "vpc-123",
  connectionPooler: false,
  paused: false,
};

describe.each(FACES)("%s", (_face, T) => {
  describe("mdb-prod-service-ha", () => {
    it("accepts a PROD service with one or two HA replicas", async () => {
      for (const replicaCount of [1, 2]) {
        const args = resourceArgs(
          T.Service,
          "orders-db",
          { ...prodService, replicaCount },
          { protect: true },
        );
        expect(await runResourcePolicy(prodServiceHa, args)).toEqual([]);
      }
    });

    it("reports a PROD service with replicaCount 0, naming it, the value and the fix", async () => {
      const args = resourceArgs(T.Service, "orders-db", { ...prodService, replicaCount: 0 });
      expect(await runResourcePolicy(prodServiceHa, args)).toEqual([
        'Service "orders-db" is PROD but replicaCount is 0; set replicaCount to 1 or 2 so that it has a high-availability replica.',
      ]);
    });

    it("reports a PROD service with no replicaCount at all (the API's default is 0)", async () => {
      const { replicaCount: _omit, ...noReplicas } = prodService;
      const messages = await runResourcePolicy(
        prodServiceHa,
        resourceArgs(T.Service, "orders-db", noReplicas),
      );
      expect(messages).toEqual([
        'Service "orders-db" is PROD but replicaCount is not set (defaults to 0); set replicaCount to 1 or 2 so that it has a high-availability replica.',
      ]);
    });

    it("ignores DEV services, services with no environment (DEV) and other resource types", async () => {
      const dev = resourceArgs(T.Service, "scratch", { ...prodService, environment: "DEV", replicaCount: 0 });
      const { environment: _omit, ...noEnvironment } = { ...prodService, replicaCount: 0 };
      const defaulted = resourceArgs(T.Service, "scratch", noEnvironment);
      const replicaSet = resourceArgs(T.ReadReplicaSet, "ro", { environment: "PROD", replicaCount: 0 });
      for (const args of [dev, defaulted, replicaSet]) {
        expect(await runResourcePolicy(prodServiceHa, args)).toEqual([]);
      }
    });

    it("does not report while replicaCount or environment is unknown during preview", async () => {
      const unknownCount = resourceArgs(T.Service, "orders-db", {
        ...prodService,
        replicaCount: UNKNOWN_NUMBER,
      });
      const unknownEnv = resourceArgs(T.Service, "orders-db", {
        ...prodService,
        replicaCount: 0,
        environment: UNKNOWN_STRING,
      });
      expect(await runResourcePolicy(prodServiceHa, unknownCount)).toEqual([]);
      expect(await runResourcePolicy(prodServiceHa, unknownEnv)).toEqual([]);
    });
  });

  describe("mdb-prod-service-vpc", () => {
    it("accepts a PROD service attached to a VPC", async () => {
      expect(
        await runResourcePolicy(prodServiceVpc, resourceArgs(T.Service, "orders-db", prodService)),
      ).toEqual([]);
    });

    it("reports a PROD service without vpcId, or with an empty one", async () => {
      const { vpcId: _omit, ...noVpc } = prodService;
      const expected = [
        'Service "orders-db" is PROD but vpcId is not set; attach it to a VPC, e.g. vpcId: vpc.vpcId.',
      ];
      expect(await runResourcePolicy(prodServiceVpc, resourceArgs(T.Service, "orders-db", noVpc))).toEqual(
        expected,
      );
      const empty = resourceArgs(T.Service, "orders-db", { ...prodService, vpcId: "" });
      expect(await runResourcePolicy(prodServiceVpc, empty)).toEqual(expected);
    });

    it("accepts a vpcId unknown during preview (the VPC is created in the same update)", async () => {
      const args = resourceArgs(T.Service, "orders-db", { ...prodService, vpcId: UNKNOWN_STRING });
      expect(await runResourcePolicy(prodServiceVpc, args)).toEqual([]);
    });

    it("ignores DEV services without a VPC", async () => {
      const { vpcId: _omit, ...noVpc } = prodService;
      const args = resourceArgs(T.Service, "scratch", { ...noVpc, environment: "DEV" });
      expect(await runResourcePolicy(prodServiceVpc, args)).toEqual([]);
    });
  });

  describe("mdb-prod-service-protected", () => {
    it("accepts a protected PROD service", async () => {
      const args = resourceArgs(T.Service, "orders-db", prodService, { protect: true });
      expect(await runResourcePolicy(prodServiceProtected, args)).toEqual([]);
    });

    it("reports an unprotected PROD service", async () => {
      const args = resourceArgs(T.Service, "orders-db", prodService, { protect: false });
      expect(await runResourcePolicy(prodServiceProtected, args)).toEqual([
        'Service "orders-db" is PROD but protect is false and deletionProtection is off; ' +
          "set deletionProtection: true or pass the resource option { protect: true }.",
      ]);
    });

    it("accepts a PROD service with deletionProtection instead of protect", async () => {
      const args = resourceArgs(T.Service, "orders-db", { ...prodService, deletionProtection: true });
      expect(await runResourcePolicy(prodServiceProtected, args)).toEqual([]);
    });

    it("reports a PROD service whose deletionProtection is false", async () => {
      const args = resourceArgs(T.Service, "orders-db", { ...prodService, deletionProtection: false });
      expect(await runResourcePolicy(prodServiceProtected, args)).toEqual([
        expect.stringContaining("deletionProtection is off; set deletionProtection: true"),
      ]);
    });

    it("ignores unprotected DEV services and unprotected VPCs", async () => {
      const dev = resourceArgs(T.Service, "scratch", { ...prodService, environment: "DEV" });
      const vpc = resourceArgs(T.Vpc, "main", { name: "main", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
      expect(await runResourcePolicy(prodServiceProtected, dev)).toEqual([]);
      expect(await runResourcePolicy(prodServiceProtected, vpc)).toEqual([]);
    });
  });
});
