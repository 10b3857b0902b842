/**
 * Conformance of the service operations that change a running service over real HTTP (password,
 * environment, HA, pooler, fork, VPC attachment): success status and strict body, 400 naming the
 * field, 409 in a forbidden state, and the lifecycle a client waits for; in each dialect (the VPC
 * endpoint is read through the strict reading, which gives it under both names).
 */
import { STRICT_RECORDS, type Service } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { DIALECT_CASES, expectConflict, expectInvalid, startConformanceEmulator } from "./helpers";
import { serviceCalls } from "./service-calls";

const { ActionResult, ErrorBody, Service } = STRICT_RECORDS;

describe.each(DIALECT_CASES)("%s dialect", (dialect) => {
  let emu: TestEmulator;
  let p: string;

  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
    p = emu.projectPath;
  });
  afterAll(() => emu.close());

  const { path, getService, waitForStatus, createReadyService, createQueuedService, createVpc } =
    serviceCalls(() => emu);

  describe("Update Service Password", () => {
    it("204 without body; the new password is stored, never returned", async () => {
      const service = await createReadyService();
      const response = await emu.api("POST", path(service.service_id, "updatePassword"), {
        password: "a-new-long-password",
      });
      expect(response.status).toBe(204);
      expect(response.text).toBe("");
      expect(
        emu.emulator.model.verifyPassword(
          emu.credentials.projectId,
          service.service_id,
          "a-new-long-password",
        ),
      ).toBe(true);
      expect(JSON.stringify(await getService(service.service_id))).not.toContain("a-new-long-password");
    });

    it("400 naming password when too short; 409 while QUEUED", async () => {
      const queued = await createQueuedService();
      expectInvalid(
        await emu.api("POST", path(queued.service_id, "updatePassword"), { password: "short" }),
        "password",
      );
      expectConflict(
        await emu.api("POST", path(queued.service_id, "updatePassword"), { password: "long-enough-now" }),
        "QUEUED",
      );
    });
  });

  describe("Set Environment for a Service", () => {
    it("200 Action result; metadata.environment changes at once, in any state but DELETING", async () => {
      const queued = await createQueuedService();
      const response = await emu.api("POST", path(queued.service_id, "setEnvironment"), {
        environment: "PROD",
      });
      expect(response.status).toBe(200);
      expect(ActionResult.parse(response.body).message).toEqual(expect.any(String));
      expect(await getService(queued.service_id)).toMatchObject({
        status: "QUEUED",
        metadata: { environment: "PROD" },
      });
    });

    it("400 naming environment", async () => {
      const service = (await emu.api<Service>("POST", `${p}/services`, { name: "env" })).body;
      expectInvalid(
        await emu.api("POST", path(service.service_id, "setEnvironment"), { environment: "prod" }),
        "environment",
      );
    });
  });

  describe("Change HA Configuration for a Service", () => {
    it("202 Service, CONFIGURING, then READY with the new ha_replicas", async () => {
      const service = await createReadyService();
      const response = await emu.withTransitionMs(() =>
        emu.api("POST", path(service.service_id, "setHA"), { replica_count: 2, sync_replica_count: 1 }),
      );
      expect(response.status).toBe(202);
      expect(Service.parse(response.body).status).toBe("CONFIGURING");
      expectConflict(
        await emu.api("POST", path(service.service_id, "setHA"), { replica_count: 1 }),
        "CONFIGURING",
      );
      const ready = await waitForStatus(service.service_id, "READY");
      expect(ready.ha_replicas).toEqual({ replica_count: 2, sync_replica_count: 1 });
    });

    it.each([
      ["sync_replica_count", { replica_count: 1, sync_replica_count: 2 }],
      ["sync_replica_count", { sync_replica_count: 1 }],
      ["replica_count", { replica_count: 3 }],
      ["replica_count", {}],
    ])("400 naming %s for %j", async (field, body) => {
      const service = await createReadyService();
      expectInvalid(await emu.api("POST", path(service.service_id, "setHA"), body), field);
      expect((await getService(service.service_id)).status).toBe("READY");
    });
  });

  describe("Enable and Disable Connection Pooler for a Service", () => {
    it("200 Action result; connection_pooler appears with port 6432, then goes", async () => {
      const service = await createReadyService();
      const enable = await emu.api("POST", path(service.service_id, "enablePooler"));
      expect(enable.status).toBe(200);
      ActionResult.parse(enable.body);
      expect((await getService(service.service_id)).connection_pooler?.endpoint).toEqual({
        host: expect.any(String),
        port: 6432,
      });
      const disable = await emu.api("POST", path(service.service_id, "disablePooler"));
      expect(disable.status).toBe(200);
      ActionResult.parse(disable.body);
      expect((await getService(service.service_id)).connection_pooler).toBeUndefined();
    });

    it("works while PAUSED; 409 while QUEUED", async () => {
      const service = await createReadyService();
      await emu.api("POST", path(service.service_id, "stop"));
      await waitForStatus(service.service_id, "PAUSED");
      expect((await emu.api("POST", path(service.service_id, "enablePooler"))).status).toBe(200);
      const queued = await createQueuedService();
      expectConflict(await emu.api("POST", path(queued.service_id, "enablePooler")), "QUEUED");
      expectConflict(await emu.api("POST", path(queued.service_id, "disablePooler")), "QUEUED");
    });
  });

  describe("Fork a Service", () => {
    it("202 with the fork: same type and region, no HA replicas, forked_from, initial password; then READY", async () => {
      const source = await createReadyService({
        addons: ["ai"],
        region_code: "eu-central-1",
        replica_count: 2,
      });
      const response = await emu.api("POST", path(source.service_id, "forkService"), {
        fork_strategy: "LAST_SNAPSHOT",
        name: "the-fork",
      });
      expect(response.status).toBe(202);
      const fork = Service.parse(response.body);
      expect(fork.service_id).not.toBe(source.service_id);
      expect(fork).toMatchObject({
        name: "the-fork",
        service_type: "VECTOR",
        region_code: "eu-central-1",
        status: "QUEUED",
        ha_replicas: { replica_count: 0 },
        forked_from: {
          project_id: emu.credentials.projectId,
          service_id: source.service_id,
          is_standby: false,
        },
        initial_password: expect.any(String),
      });
      expect(fork.resources?.[0].spec).toMatchObject({ cpu_millis: source.resources?.[0].spec.cpu_millis });
      const ready = await waitForStatus(fork.service_id, "READY");
      expect(ready.initial_password).toBeUndefined();
    });

    it("PITR: target_time required, not in the future, not before the source was created", async () => {
      const source = await createReadyService();
      const fork = (body: Record<string, unknown>) =>
        emu.api("POST", path(source.service_id, "forkService"), { fork_strategy: "PITR", ...body });
      expectInvalid(await fork({}), "target_time");
      expectInvalid(
        await fork({ target_time: new Date(Date.now() + 3_600_000).toISOString() }),
        "target_time",
      );
      expectInvalid(await fork({ target_time: "2001-01-01T00:00:00Z" }), "target_time");
      expectInvalid(await fork({ target_time: "yesterday" }), "target_time");
      expect((await fork({ target_time: source.created })).status).toBe(202);
    });

    it("400 naming fork_strategy; 409 when the source is not READY", async () => {
      const queued = await createQueuedService();
      expectInvalid(
        await emu.api("POST", path(queued.service_id, "forkService"), { fork_strategy: "LATER" }),
        "fork_strategy",
      );
      expectConflict(
        await emu.api("POST", path(queued.service_id, "forkService"), { fork_strategy: "NOW" }),
        "QUEUED",
      );
    });
  });

  describe("Attach Service to VPC and Detach Service from VPC", () => {
    it("attach: 202 Action result, CONFIGURING, then READY with vpcEndpoint; detach: 202, then no vpcEndpoint", async () => {
      const service = await createReadyService();
      const vpc = await createVpc();
      const attach = await emu.withTransitionMs(() =>
        emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: vpc.id }),
      );
      expect(attach.status).toBe(202);
      ActionResult.parse(attach.body);
      expect((await getService(service.service_id)).status).toBe("CONFIGURING");
      const attached = await waitForStatus(service.service_id, "READY");
      expect(attached.vpcEndpoint).toEqual({
        host: expect.any(String),
        port: expect.any(Number),
        vpc_id: vpc.id,
      });

      const detach = await emu.withTransitionMs(() =>
        emu.api("POST", path(service.service_id, "detachFromVPC"), { vpc_id: vpc.id }),
      );
      expect(detach.status).toBe(202);
      ActionResult.parse(detach.body);
      expect((await getService(service.service_id)).status).toBe("CONFIGURING");
      const detached = await waitForStatus(service.service_id, "READY");
      expect(detached.vpcEndpoint).toBeUndefined();
      expect((await emu.api("DELETE", `${p}/vpcs/${vpc.id}`)).status).toBe(204);
    });

    it("attaching again to the same VPC is accepted and changes nothing; another VPC is a 409", async () => {
      const service = await createReadyService();
      const [vpc, other] = [await createVpc(), await createVpc()];
      await emu.withTransitionMs(() =>
        emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: vpc.id }),
      );
      expect((await getService(service.service_id)).status).toBe("CONFIGURING");
      const retry = await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: vpc.id });
      expect(retry.status).toBe(202);
      await waitForStatus(service.service_id, "READY");
      const again = await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: vpc.id });
      expect(again.status).toBe(202);
      expect((await getService(service.service_id)).status).toBe("READY");
      expectConflict(
        await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: other.id }),
        vpc.id,
      );
      expectConflict(
        await emu.api("POST", path(service.service_id, "detachFromVPC"), { vpc_id: other.id }),
        other.id,
      );
      expectConflict(await emu.api("DELETE", `${p}/vpcs/${vpc.id}`), service.service_id);
    });

    it("400 naming vpc_id for a VPC of another region or a missing vpc_id; 404 for an unknown VPC; 409 while QUEUED", async () => {
      const service = await createReadyService({ region_code: "us-east-1" });
      const elsewhere = await createVpc("ap-south-1");
      expectInvalid(
        await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: elsewhere.id }),
        "vpc_id",
      );
      expectInvalid(await emu.api("POST", path(service.service_id, "attachToVPC"), {}), "vpc_id");
      expectInvalid(
        await emu.api("POST", path(service.service_id, "detachFromVPC"), { vpc_id: 7 }),
        "vpc_id",
      );
      // An id of the dialect's form that names no VPC.
      const nowhere = dialect === "seed" ? "vpc-nothere0" : "9999999999";
      const unknown = await emu.api("POST", path(service.service_id, "attachToVPC"), { vpc_id: nowhere });
      expect(unknown.status).toBe(404);
      expect(ErrorBody.parse(unknown.body).message).toContain(nowhere);
      const queued = await createQueuedService();
      expectConflict(
        await emu.api("POST", path(queued.service_id, "attachToVPC"), { vpc_id: (await createVpc()).id }),
        "QUEUED",
      );
    });
  });
});
