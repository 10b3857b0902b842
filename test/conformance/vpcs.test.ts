/**
 * Conformance of the 5 VPC and 4 VPC peering operations over real HTTP, in each dialect: success
 * status and body shape, 400 naming the field, 409 when in use, and the peering lifecycle (pending ->
 * active with a provisioned id, or failed with an error message for an unreachable peer). What the
 * dialects word differently: the id forms and renameVpc's answer.
 */
import { STRICT_RECORDS, type Vpc, type VpcPeering } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { DIALECT_CASES, expectInvalid, startConformanceEmulator } from "./helpers";

const { ErrorBody, Vpc: VpcSchema, VpcPeering: VpcPeeringSchema } = STRICT_RECORDS;

/** The form of new VPC and peering ids in each dialect. */
const ID_FORM = {
  seed: { vpc: /^vpc-[a-z0-9]{8}$/, peering: /^pcx-[a-z0-9]{8}$/ },
  vendor: { vpc: /^[0-9]+$/, peering: /^[0-9]+$/ },
};

describe.each(DIALECT_CASES)("%s dialect", (dialect) => {
  let emu: TestEmulator;
  let vpcs: string;

  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
    vpcs = `${emu.projectPath}/vpcs`;
  });
  afterAll(() => emu.close());

  const VPC = { name: "main-vpc", cidr: "10.20.0.0/16", region_code: "us-east-1" };
  const PEER = { peer_account_id: "123456789012", peer_region_code: "us-east-1", peer_vpc_id: "vpc-0abc" };

  async function createVpc(body: Record<string, unknown> = {}): Promise<Vpc> {
    const response = await emu.api<Vpc>("POST", vpcs, { ...VPC, ...body });
    expect(response.status).toBe(201);
    return response.body;
  }

  async function getPeering(vpcId: string, id: string): Promise<VpcPeering> {
    const response = await emu.api("GET", `${vpcs}/${vpcId}/peerings/${id}`);
    expect(response.status).toBe(200);
    return VpcPeeringSchema.parse(response.body);
  }

  describe("Create a VPC", () => {
    it("201 with the record", async () => {
      const response = await emu.api("POST", vpcs, VPC);
      expect(response.status).toBe(201);
      const vpc = VpcSchema.parse(response.body);
      expect(vpc).toEqual({ id: expect.stringMatching(ID_FORM[dialect].vpc), ...VPC });
    });

    it.each([
      ["cidr", { ...VPC, cidr: "10.0.0.0" }],
      ["cidr", { ...VPC, cidr: "10.0.0.0/33" }],
      ["region_code", { ...VPC, region_code: "" }],
      ["name", { ...VPC, name: "n".repeat(129) }],
    ])("400 naming %s for %j", async (field, body) => {
      expectInvalid(await emu.api("POST", vpcs, body), field);
    });
  });

  describe("List All VPCs and Get a VPC", () => {
    it("200 with the records", async () => {
      const vpc = await createVpc({ name: "listed" });
      const list = await emu.api<unknown[]>("GET", vpcs);
      expect(list.status).toBe(200);
      expect(list.body.map((v) => VpcSchema.parse(v))).toContainEqual(vpc);
      const one = await emu.api("GET", `${vpcs}/${vpc.id}`);
      expect(one.status).toBe(200);
      expect(VpcSchema.parse(one.body)).toEqual(vpc);
    });
  });

  describe("Rename a VPC", () => {
    it("200 with the renamed VPC (seed) or {message} (vendor); reads see the new name", async () => {
      const vpc = await createVpc();
      const response = await emu.api("POST", `${vpcs}/${vpc.id}/rename`, { name: "renamed-vpc" });
      expect(response.status).toBe(200);
      if (dialect === "seed") expect(VpcSchema.parse(response.body)).toEqual({ ...vpc, name: "renamed-vpc" });
      else expect(response.body).toEqual({ message: expect.any(String) });
      expect((await emu.api<Vpc>("GET", `${vpcs}/${vpc.id}`)).body.name).toBe("renamed-vpc");
    });

    it("400 naming name", async () => {
      const vpc = await createVpc();
      expectInvalid(await emu.api("POST", `${vpcs}/${vpc.id}/rename`, { name: "" }), "name");
      expectInvalid(await emu.api("POST", `${vpcs}/${vpc.id}/rename`, { title: "x" }), "name");
    });
  });

  describe("Delete a VPC", () => {
    it("204 without body, then 404", async () => {
      const vpc = await createVpc();
      const response = await emu.api("DELETE", `${vpcs}/${vpc.id}`);
      expect(response.status).toBe(204);
      expect(response.text).toBe("");
      expect((await emu.api("GET", `${vpcs}/${vpc.id}`)).status).toBe(404);
    });

    it("409 while it has peerings; 204 once they are deleted", async () => {
      const vpc = await createVpc();
      const peering = (await emu.api<VpcPeering>("POST", `${vpcs}/${vpc.id}/peerings`, PEER)).body;
      const refused = await emu.api("DELETE", `${vpcs}/${vpc.id}`);
      expect(refused.status).toBe(409);
      expect(ErrorBody.parse(refused.body)).toEqual({
        code: "CONFLICT",
        message: expect.stringContaining(peering.id),
      });
      expect((await emu.api("DELETE", `${vpcs}/${vpc.id}/peerings/${peering.id}`)).status).toBe(204);
      expect((await emu.api("DELETE", `${vpcs}/${vpc.id}`)).status).toBe(204);
    });
  });

  describe("Create a VPC Peering", () => {
    it("201 with the record, pending, then active with a provisioned_id", async () => {
      const vpc = await createVpc();
      const response = await emu.withTransitionMs(() => emu.api("POST", `${vpcs}/${vpc.id}/peerings`, PEER));
      expect(response.status).toBe(201);
      const peering = VpcPeeringSchema.parse(response.body);
      expect(peering).toMatchObject({ ...PEER, status: "pending" });
      expect(peering.id).toMatch(ID_FORM[dialect].peering);
      expect(peering.provisioned_id).toBeUndefined();
      expect((await getPeering(vpc.id, peering.id)).status).toBe("pending");
      const active = await emu.waitFor(
        () => getPeering(vpc.id, peering.id),
        (x) => x.status !== "pending",
      );
      expect(active).toMatchObject({ status: "active", provisioned_id: expect.any(String) });
      expect(active.error_message).toBeUndefined();
    });

    it("an unreachable peer (peer_vpc_id starting with `unreachable`) ends failed with an error_message", async () => {
      const vpc = await createVpc();
      const body = { ...PEER, peer_vpc_id: "unreachable-vpc-1" };
      const peering = (await emu.api<VpcPeering>("POST", `${vpcs}/${vpc.id}/peerings`, body)).body;
      expect(peering.status).toBe("pending");
      const failed = await emu.waitFor(
        () => getPeering(vpc.id, peering.id),
        (x) => x.status !== "pending",
      );
      expect(failed).toMatchObject({
        status: "failed",
        error_message: expect.stringContaining("unreachable-vpc-1"),
      });
      expect(failed.provisioned_id).toBeUndefined();
    });

    it.each([
      ["peer_vpc_id", { ...PEER, peer_vpc_id: undefined }],
      ["peer_account_id", { ...PEER, peer_account_id: "" }],
      ["peer_region_code", { ...PEER, peer_region_code: 1 }],
    ])("400 naming %s", async (field, body) => {
      const vpc = await createVpc();
      expectInvalid(await emu.api("POST", `${vpcs}/${vpc.id}/peerings`, body), field);
      expect((await emu.api<unknown[]>("GET", `${vpcs}/${vpc.id}/peerings`)).body).toEqual([]);
    });
  });

  describe("List VPC Peerings, Get a VPC Peering, Delete a VPC Peering", () => {
    it("list and get: 200 with the records; delete: 204, then 404", async () => {
      const vpc = await createVpc();
      const first = (await emu.api<VpcPeering>("POST", `${vpcs}/${vpc.id}/peerings`, PEER)).body;
      const second = (
        await emu.api<VpcPeering>("POST", `${vpcs}/${vpc.id}/peerings`, { ...PEER, peer_vpc_id: "vpc-0def" })
      ).body;
      const list = await emu.api<unknown[]>("GET", `${vpcs}/${vpc.id}/peerings`);
      expect(list.status).toBe(200);
      expect(list.body.map((x) => VpcPeeringSchema.parse(x).id)).toEqual([first.id, second.id]);
      expect((await getPeering(vpc.id, second.id)).peer_vpc_id).toBe("vpc-0def");

      const response = await emu.api("DELETE", `${vpcs}/${vpc.id}/peerings/${first.id}`);
      expect(response.status).toBe(204);
      expect(response.text).toBe("");
      expect((await emu.api("GET", `${vpcs}/${vpc.id}/peerings/${first.id}`)).status).toBe(404);
      expect(
        (await emu.api<VpcPeering[]>("GET", `${vpcs}/${vpc.id}/peerings`)).body.map((x) => x.id),
      ).toEqual([second.id]);
    });

    it("a peering belongs to its VPC: another VPC's path answers 404", async () => {
      const [one, two] = [await createVpc(), await createVpc()];
      const peering = (await emu.api<VpcPeering>("POST", `${vpcs}/${one.id}/peerings`, PEER)).body;
      expect((await emu.api("GET", `${vpcs}/${two.id}/peerings/${peering.id}`)).status).toBe(404);
      expect((await emu.api("DELETE", `${vpcs}/${two.id}/peerings/${peering.id}`)).status).toBe(404);
    });
  });
});
