/**
 * Conformance of the 7 read replica set operations over real HTTP, in each dialect: success status
 * and body shape, 400 naming the field, 409 in a forbidden state, and the lifecycle creating ->
 * active, active -> resizing -> active, deleting -> gone, plus the failed terminal state `error`.
 * Resize sizes are sent as strings of digits, which both dialects take; delete answers
 * `{code, message}` in the seed dialect and no body in the vendor's.
 */
import { STRICT_RECORDS, type ReadReplicaSet, type Service } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { DIALECT_CASES, expectConflict, expectInvalid, startConformanceEmulator } from "./helpers";

const { ActionResult, ErrorBody, ReadReplicaSet: ReplicaSetSchema, Service: ServiceSchema } = STRICT_RECORDS;

describe.each(DIALECT_CASES)("%s dialect", (dialect) => {
  let emu: TestEmulator;
  let service: Service;
  let sets: string;

  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
    const created = (await emu.api<Service>("POST", `${emu.projectPath}/services`, { name: "primary" })).body;
    service = await emu.waitFor(
      async () => (await emu.api<Service>("GET", `${emu.projectPath}/services/${created.service_id}`)).body,
      (s) => s.status === "READY",
    );
    sets = `${emu.projectPath}/services/${service.service_id}/replicaSets`;
  });
  afterAll(() => emu.close());

  const VALID = { name: "readers", nodes: 2, cpu_millis: 500, memory_gbs: 2 };

  async function listSets(servicePath = sets): Promise<ReadReplicaSet[]> {
    const response = await emu.api<unknown[]>("GET", servicePath);
    expect(response.status).toBe(200);
    return response.body.map((r) => ReplicaSetSchema.parse(r));
  }

  async function getSet(id: string): Promise<ReadReplicaSet | undefined> {
    return (await listSets()).find((r) => r.id === id);
  }

  function waitForSet(id: string, status: string): Promise<ReadReplicaSet | undefined> {
    return emu.waitFor(
      () => getSet(id),
      (r) => r?.status === status,
      { what: `replica set ${id} ${status}` },
    );
  }

  async function createActiveSet(body: Record<string, unknown> = {}): Promise<ReadReplicaSet> {
    const response = await emu.api<ReadReplicaSet>("POST", sets, { ...VALID, ...body });
    expect(response.status).toBe(202);
    return (await waitForSet(response.body.id, "active"))!;
  }

  describe("Create a Read Replica Set", () => {
    it("202 with the record and its endpoint, creating, then active; the service lists it", async () => {
      const response = await emu.withTransitionMs(() => emu.api("POST", sets, VALID));
      expect(response.status).toBe(202);
      const created = ReplicaSetSchema.parse(response.body);
      expect(created).toMatchObject({ ...VALID, status: "creating", metadata: { environment: "DEV" } });
      expect(created.id).toMatch(/^rrs-[a-z0-9]{8}$/);
      const endpoint = { host: expect.stringContaining(created.id), port: 5432 };
      expect(created.endpoint).toEqual(endpoint);
      expect((await getSet(created.id))?.status).toBe("creating");

      const active = await waitForSet(created.id, "active");
      expect(active?.endpoint).toEqual(endpoint);
      const owner = ServiceSchema.parse(
        (await emu.api("GET", `${emu.projectPath}/services/${service.service_id}`)).body,
      );
      expect(owner.read_replica_sets?.find((r) => r.id === created.id)).toMatchObject({ status: "active" });
    });

    it.each([
      ["name", { ...VALID, name: undefined }],
      ["nodes", { ...VALID, nodes: 0 }],
      ["nodes", { ...VALID, nodes: 1.5 }],
      ["nodes", { ...VALID, nodes: 11 }],
      ["cpu_millis", { ...VALID, cpu_millis: 100 }],
      ["memory_gbs", { ...VALID, memory_gbs: "2 GB" }],
    ])("400 naming %s for %j", async (field, body) => {
      expectInvalid(await emu.api("POST", sets, body), field);
    });

    it("409 when the service is not READY", async () => {
      const young = await emu.withTransitionMs(() =>
        emu.api<Service>("POST", `${emu.projectPath}/services`, { name: "young" }),
      );
      const response = await emu.api(
        "POST",
        `${emu.projectPath}/services/${young.body.service_id}/replicaSets`,
        VALID,
      );
      expectConflict(response, "QUEUED");
    });
  });

  describe("Get Read Replica Sets", () => {
    it("200 with every set of the service, and an empty array for a service without any", async () => {
      const created = await createActiveSet({ name: "listed" });
      expect((await listSets()).map((r) => r.id)).toContain(created.id);
      const bare = (await emu.api<Service>("POST", `${emu.projectPath}/services`, { name: "bare" })).body;
      expect(await listSets(`${emu.projectPath}/services/${bare.service_id}/replicaSets`)).toEqual([]);
    });
  });

  describe("Resize a Read Replica Set", () => {
    it("202 with a message, resizing, then active with the new sizes", async () => {
      const set = await createActiveSet();
      const response = await emu.withTransitionMs(() =>
        emu.api("POST", `${sets}/${set.id}/resize`, { cpu_millis: "1000", memory_gbs: "4", nodes: 3 }),
      );
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ message: expect.stringContaining(set.id) });
      expect(await getSet(set.id)).toMatchObject({ status: "resizing", cpu_millis: 500, nodes: 2 });
      expectConflict(
        await emu.api("POST", `${sets}/${set.id}/resize`, { cpu_millis: "250", memory_gbs: "1" }),
        "resizing",
      );
      expect(await waitForSet(set.id, "active")).toMatchObject({ cpu_millis: 1000, memory_gbs: 4, nodes: 3 });
    });

    it("nodes is optional and kept", async () => {
      const set = await createActiveSet({ nodes: 4 });
      expect(
        (await emu.api("POST", `${sets}/${set.id}/resize`, { cpu_millis: "750", memory_gbs: "3" })).status,
      ).toBe(202);
      expect(await waitForSet(set.id, "active")).toMatchObject({ cpu_millis: 750, memory_gbs: 3, nodes: 4 });
    });

    it.each([
      ["cpu_millis", {}],
      ["cpu_millis", { cpu_millis: "64250", memory_gbs: "2" }],
      ["nodes", { cpu_millis: "500", memory_gbs: "2", nodes: -1 }],
    ])("400 naming %s for %j", async (field, body) => {
      const [set] = await listSets();
      expectInvalid(await emu.api("POST", `${sets}/${set.id}/resize`, body), field);
    });
  });

  describe("Enable and Disable Connection Pooler for a Read Replica", () => {
    it("200 Action result; connection_pooler appears with port 6432, then goes", async () => {
      const set = await createActiveSet();
      const enable = await emu.api("POST", `${sets}/${set.id}/enablePooler`);
      expect(enable.status).toBe(200);
      ActionResult.parse(enable.body);
      expect((await getSet(set.id))?.connection_pooler?.endpoint).toEqual({
        host: expect.any(String),
        port: 6432,
      });
      const disable = await emu.api("POST", `${sets}/${set.id}/disablePooler`);
      expect(disable.status).toBe(200);
      ActionResult.parse(disable.body);
      expect((await getSet(set.id))?.connection_pooler).toBeUndefined();
    });

    it("409 while creating", async () => {
      const creating = (await emu.withTransitionMs(() => emu.api<ReadReplicaSet>("POST", sets, VALID))).body;
      expectConflict(await emu.api("POST", `${sets}/${creating.id}/enablePooler`), "creating");
      expectConflict(await emu.api("POST", `${sets}/${creating.id}/disablePooler`), "creating");
    });
  });

  describe("Set Environment for a Read Replica", () => {
    it("200 Action result; metadata.environment changes at once", async () => {
      const set = await createActiveSet();
      const response = await emu.api("POST", `${sets}/${set.id}/setEnvironment`, { environment: "PROD" });
      expect(response.status).toBe(200);
      ActionResult.parse(response.body);
      expect((await getSet(set.id))?.metadata?.environment).toBe("PROD");
    });

    it("400 naming environment", async () => {
      const [set] = await listSets();
      expectInvalid(
        await emu.api("POST", `${sets}/${set.id}/setEnvironment`, { environment: "QA" }),
        "environment",
      );
      expectInvalid(await emu.api("POST", `${sets}/${set.id}/setEnvironment`), "\\(body\\)");
    });
  });

  describe("Delete a Read Replica Set", () => {
    it("202 with {code, message} (seed) or no body (vendor), deleting, a repeat is accepted, then gone", async () => {
      const set = await createActiveSet();
      const response = await emu.withTransitionMs(() => emu.api("DELETE", `${sets}/${set.id}`));
      expect(response.status).toBe(202);
      if (dialect === "seed")
        expect(ErrorBody.parse(response.body)).toEqual({
          code: expect.any(String),
          message: expect.any(String),
        });
      else expect(response.text).toBe("");
      expect((await getSet(set.id))?.status).toBe("deleting");
      expectConflict(
        await emu.api("POST", `${sets}/${set.id}/setEnvironment`, { environment: "PROD" }),
        "deleting",
      );
      expect((await emu.api("DELETE", `${sets}/${set.id}`)).status).toBe(202);
      await emu.waitFor(
        () => getSet(set.id),
        (r) => r === undefined,
        { what: "the replica set to be gone" },
      );
      expect((await emu.api("DELETE", `${sets}/${set.id}`)).status).toBe(404);
    });

    it("deleting the service deletes its replica sets", async () => {
      const owner = (await emu.api<Service>("POST", `${emu.projectPath}/services`, { name: "owner" })).body;
      const ownerPath = `${emu.projectPath}/services/${owner.service_id}`;
      await emu.waitFor(
        async () => (await emu.api<Service>("GET", ownerPath)).body.status,
        (s) => s === "READY",
      );
      const set = (await emu.api<ReadReplicaSet>("POST", `${ownerPath}/replicaSets`, VALID)).body;
      await emu.withTransitionMs(() => emu.api("DELETE", ownerPath));
      expect((await listSets(`${ownerPath}/replicaSets`)).map((r) => [r.id, r.status])).toEqual([
        [set.id, "deleting"],
      ]);
      await emu.waitFor(
        () => emu.api("GET", `${ownerPath}/replicaSets`),
        (r) => r.status === 404,
      );
    });
  });

  describe("failed terminal state (admin API)", () => {
    it("a failed set is in `error` with an error_message; it cannot be resized, it can be deleted", async () => {
      const set = await createActiveSet();
      const failed = await emu.admin("POST", `/replicaSets/${set.id}/fail`, {
        message: "disk full on node 2",
      });
      expect(failed.status).toBe(200);
      expect(await getSet(set.id)).toMatchObject({ status: "error", error_message: "disk full on node 2" });
      expectConflict(
        await emu.api("POST", `${sets}/${set.id}/resize`, { cpu_millis: "500", memory_gbs: "2" }),
        "error",
      );
      expect((await emu.api("DELETE", `${sets}/${set.id}`)).status).toBe(202);
      await emu.waitFor(
        () => getSet(set.id),
        (r) => r === undefined,
      );
      expect((await emu.admin("POST", "/replicaSets/rrs-unknown0/fail", {})).status).toBe(404);
    });
  });
});
