/**
 * Integration of the `Vpc` provider functions with an emulator over real HTTP: each row of the
 * diff table (rename in place; cidr and region replace), refresh after an out-of-band change,
 * import by id, delete while in use, injected faults without duplicates, and no secret in any
 * error. Delete, out-of-band deletes and create-once shared by every resource:
 * resources-shared.test.ts.
 */
import { CREATE_ATTEMPTS } from "../../provider/kit/lifecycle/create";
import { configureRuntime } from "../../provider/runtime";
import { randomFaults, type TestEmulator } from "../helpers/emulator";
import {
  CheckFailedError,
  PROVIDER,
  ReplaceNeededError,
  drive,
  errorOf,
  errorText,
  recordCalls,
  type Props,
  type ResourceState,
  useProviderEmulator,
} from "../helpers/provider";
import { PROVIDERS } from "../../provider/host";

const impl = PROVIDERS.vpc;

const SECRET_KEY = "vpc-integration-secret-7f3a9c";

let emu: TestEmulator;
const vpcs = drive(impl);

useProviderEmulator({ secretKey: SECRET_KEY }, (started) => (emu = started));
beforeEach(() => emu.reset());

const CORE = { name: "core", cidr: "10.0.0.0/16", regionCode: "us-east-1" };
const PEER = { peer_account_id: "acct-1", peer_region_code: "us-east-1", peer_vpc_id: "vpc-peer" };

interface VpcRecord {
  id: string;
  name: string;
  cidr: string;
  region_code: string;
}

async function listVpcs(): Promise<VpcRecord[]> {
  const response = await emu.api<VpcRecord[]>("GET", `${emu.projectPath}/vpcs`);
  expect(response.status).toBe(200);
  return response.body;
}

function createVpc(inputs: Props = CORE): Promise<ResourceState> {
  return vpcs.create(inputs);
}

async function peer(vpcId: string): Promise<string> {
  const response = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs/${vpcId}/peerings`, PEER);
  expect(response.status).toBe(201);
  return response.body.id;
}

describe("create", () => {
  it("one POST; the outputs are the API's record, camelCase, with the project resolved", async () => {
    const { result: vpc, calls } = await recordCalls(emu, () => createVpc());
    expect(calls).toEqual(["POST /projects/{project}/vpcs"]);
    const [record] = await listVpcs();
    expect(vpc.id).toBe(record.id);
    expect(vpc.outs).toEqual({
      ...CORE,
      vpcId: record.id,
      projectId: emu.credentials.projectId,
      deletionProtection: false,
      __provider: PROVIDER,
    });
    expect(record).toMatchObject({ name: "core", cidr: "10.0.0.0/16", region_code: "us-east-1" });
  });

  it("an invalid program makes no API call at all", async () => {
    await emu.clearRequests();
    const error = await errorOf(createVpc({ ...CORE, cidr: "10.0.0.1/16" }));
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(error.message).toMatch(/cidr: has host bits set/);
    expect(await emu.requests()).toEqual([]);
  });

  it("a generated name (an interrupted run) adopts the VPC it finds instead of creating another", async () => {
    const first = await createVpc({ ...CORE, __autoNamed: true });
    const { result: again, calls } = await recordCalls(emu, () => createVpc({ ...CORE, __autoNamed: true }));
    expect(again.id).toBe(first.id);
    expect(calls).toEqual([]);
    expect(await listVpcs()).toHaveLength(1);
  });
});

describe("diff table", () => {
  it("name: in place, exactly one rename, same id", async () => {
    const vpc = await createVpc();
    const news = { ...CORE, name: "core-renamed" };
    const { diff } = await vpcs.diff(vpc, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(diff.detailedDiff).toEqual({ name: { kind: "UPDATE", inputDiff: true } });

    const { result, calls } = await recordCalls(emu, () => vpcs.update(vpc, news));
    expect(calls).toEqual(["POST /projects/{project}/vpcs/{vpc}/rename"]);
    expect(result.state.id).toBe(vpc.id);
    expect(result.state.outs).toMatchObject({ vpcId: vpc.id, name: "core-renamed", cidr: CORE.cidr });
    expect(await listVpcs()).toEqual([expect.objectContaining({ id: vpc.id, name: "core-renamed" })]);
  });

  it.each([
    ["cidr", "10.1.0.0/16"],
    ["regionCode", "eu-west-1"],
  ])("%s: replace, and no call is made for it", async (property, value) => {
    const vpc = await createVpc();
    const news = { ...CORE, [property]: value };
    const { result: diff, calls } = await recordCalls(emu, async () => {
      const { diff } = await vpcs.diff(vpc, news);
      await expect(vpcs.update(vpc, news)).rejects.toBeInstanceOf(ReplaceNeededError);
      return diff;
    });
    expect(diff).toMatchObject({ changes: true, replaces: [property] });
    expect(diff.detailedDiff).toEqual({ [property]: { kind: "UPDATE_REPLACE", inputDiff: true } });
    expect(diff.stables).toEqual(expect.arrayContaining(["vpcId"]));
    expect(calls).toEqual([]);
    expect(await listVpcs()).toEqual([expect.objectContaining({ id: vpc.id, cidr: CORE.cidr })]);
  });

  it("unchanged inputs, or projectId set to the project in use: no change, no call", async () => {
    const vpc = await createVpc();
    for (const news of [CORE, { ...CORE, projectId: emu.credentials.projectId }]) {
      const { result, calls } = await recordCalls(emu, () => vpcs.update(vpc, news));
      expect(result.diff.changes).toBe(false);
      expect(calls).toEqual([]);
    }
  });

  it("projectId changed to another project: replace", async () => {
    const vpc = await createVpc();
    const { diff } = await vpcs.diff(vpc, { ...CORE, projectId: "proj-other" });
    expect(diff.replaces).toEqual(["projectId"]);
  });
});

describe("refresh", () => {
  it("a rename made outside Pulumi shows in read, then in the diff, and update renames it back", async () => {
    const vpc = await createVpc();
    const renamed = await emu.api("POST", `${emu.projectPath}/vpcs/${vpc.id}/rename`, { name: "by-hand" });
    expect(renamed.status).toBe(200);

    const read = await vpcs.read(vpc.id, vpc.outs);
    expect(read.id).toBe(vpc.id);
    expect(read.props).toMatchObject({ name: "by-hand", cidr: CORE.cidr, __provider: PROVIDER });

    const refreshed = { ...vpc, outs: read.props! };
    const { diff } = await vpcs.diff(refreshed, CORE);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(diff.detailedDiff).toEqual({ name: { kind: "UPDATE", inputDiff: true } });

    const { calls } = await recordCalls(emu, () => vpcs.update(refreshed, CORE));
    expect(calls).toEqual(["POST /projects/{project}/vpcs/{vpc}/rename"]);
    expect((await listVpcs())[0].name).toBe("core");
  });
});

describe("import", () => {
  it.each([
    ["vpcId", (id: string) => id],
    ["projectId/vpcId", (id: string) => `${emu.credentials.projectId}/${id}`],
  ])("by %s with empty props: read gives inputs that check and diff to no change", async (_form, idOf) => {
    const made = await emu.api<VpcRecord>("POST", `${emu.projectPath}/vpcs`, {
      name: "legacy",
      cidr: "172.16.0.0/12",
      region_code: "eu-west-1",
    });
    const read = await vpcs.read(idOf(made.body.id), {});
    expect(read.id).toBe(made.body.id);
    expect(read.props).toMatchObject({ vpcId: made.body.id, name: "legacy", cidr: "172.16.0.0/12" });
    expect(read.inputs).toEqual({
      name: "legacy",
      cidr: "172.16.0.0/12",
      regionCode: "eu-west-1",
      __provider: PROVIDER,
    });
    const imported = { id: read.id!, inputs: read.inputs!, outs: read.props! };
    const { result, calls } = await recordCalls(emu, () => vpcs.update(imported, read.inputs!));
    expect(result.diff.changes).toBe(false);
    expect(calls).toEqual([]);
  });

  it("an unknown id reads as gone", async () => {
    expect(await vpcs.read("vpc-doesnotx", {})).toMatchObject({ id: undefined, props: undefined });
  });
});

describe("delete", () => {
  it("a VPC still peered is deleted once the peering is gone", async () => {
    const vpc = await createVpc();
    const peeringId = await peer(vpc.id);
    const deleting = vpcs.delete(vpc);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await listVpcs()).toHaveLength(1);
    await emu.api("DELETE", `${emu.projectPath}/vpcs/${vpc.id}/peerings/${peeringId}`);
    await deleting;
    expect(await listVpcs()).toEqual([]);
  });

  it("a VPC in use past the delete timeout fails quoting the API's reason, and stays", async () => {
    const vpc = await createVpc({ ...CORE, __timeouts: { delete: 300 } });
    expect(vpc.outs.__timeouts).toEqual({ delete: 300 });
    const peeringId = await peer(vpc.id);
    const started = Date.now();
    const error = await errorOf(vpcs.delete(vpc));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error.message).toContain(`cannot delete VPC ${vpc.id}: it is still in use`);
    expect(error.message).toContain(`has peerings ${peeringId}`);
    expect(await listVpcs()).toHaveLength(1);
  });
});

describe("faults", () => {
  afterEach(() => emu.setFaults({}));

  it("random 429/500/503 during create, rename and delete: converges, never two VPCs", async () => {
    // Random faults, plus one sure fault per phase (a GET in creates, a 429 to a DELETE, both
    // retried), so that every run meets faults.
    const faults = randomFaults(
      { method: "GET", path: "/vpcs", count: 1, status: 503 },
      { method: "DELETE", path: "/vpcs/", count: 1, status: 429 },
    );
    await emu.setFaults(faults);
    const states: ResourceState[] = [];
    for (let i = 0; i < 4; i++) {
      const inputs = { ...CORE, name: `faulty-${i}`, cidr: `10.${i}.0.0/16` };
      const vpc = await createVpc(inputs);
      const { state } = await vpcs.update(vpc, { ...inputs, name: `faulty-${i}-renamed` });
      expect(state.outs.name).toBe(`faulty-${i}-renamed`);
      states.push(state);
    }
    await emu.setFaults({});
    const all = await listVpcs();
    expect(all.map((v) => v.name).sort()).toEqual([0, 1, 2, 3].map((i) => `faulty-${i}-renamed`));
    expect(all.map((v) => v.id).sort()).toEqual(states.map((s) => s.id).sort());

    await emu.setFaults(faults);
    for (const state of states) await vpcs.delete(state);
    await emu.setFaults({});
    expect(await listVpcs()).toEqual([]);
    expect((await emu.requests()).filter((r) => r.status >= 429).length).toBeGreaterThanOrEqual(2);
  });

  it("the create POST refused with a 503 before the VPC was made: sent again, one VPC", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: "/vpcs$", count: 1, status: 503 }] });
    const { result: vpc, calls } = await recordCalls(emu, () => createVpc(), { withStatus: true });
    expect(calls).toEqual(["POST /projects/{project}/vpcs -> 503", "POST /projects/{project}/vpcs -> 201"]);
    expect((await listVpcs()).map((v) => v.id)).toEqual([vpc.id]);
  });

  it("rename and delete answered with a 500 after taking effect: both converge", async () => {
    const vpc = await createVpc();
    await emu.setFaults({
      rules: [
        { method: "POST", path: "/rename$", count: 1, status: 500, after: true },
        { method: "DELETE", path: "/vpcs/", count: 1, status: 500, after: true },
      ],
    });
    const { state } = await vpcs.update(vpc, { ...CORE, name: "again" });
    expect(state.outs.name).toBe("again");
    const { calls } = await recordCalls(emu, () => vpcs.delete(state), { withStatus: true });
    expect(calls).toEqual([
      "DELETE /projects/{project}/vpcs/{vpc} -> 500",
      "DELETE /projects/{project}/vpcs/{vpc} -> 404",
    ]);
    expect(await listVpcs()).toEqual([]);
  });
});

describe("secrets", () => {
  const token = (secret: string) => Buffer.from(`${emu.credentials.publicKey}:${secret}`).toString("base64");

  it("errors of refused and dropped calls quote neither the secret key nor the Authorization header", async () => {
    const vpc = await createVpc();
    // Refusals that are not retried, and a create whose connection drops on every attempt.
    await emu.setFaults({
      rules: [
        { method: "POST", path: "/vpcs$", count: CREATE_ATTEMPTS, drop: true },
        { method: "*", path: "/vpcs/", count: 1000, status: 403 },
      ],
    });
    try {
      const errors = [
        await errorOf(createVpc({ ...CORE, name: "other" })),
        await errorOf(vpcs.update(vpc, { ...CORE, name: "x" })),
        await errorOf(vpcs.read(vpc.id, vpc.outs)),
        await errorOf(vpcs.delete(vpc)),
      ];
      expect(errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/^createVpc failed: NETWORK_ERROR: /),
        expect.stringMatching(/HTTP 403/),
        expect.stringMatching(/HTTP 403/),
        expect.stringMatching(/HTTP 403/),
      ]);
      for (const error of errors) {
        const text = errorText(error);
        expect(text).not.toContain(SECRET_KEY);
        expect(text).not.toContain(token(SECRET_KEY));
      }
    } finally {
      await emu.setFaults({});
    }
  });

  it("a wrong secret key is refused (401) without quoting it", async () => {
    const wrong = "wrong-secret-key-d41d8cd9";
    process.env.MDB_SECRET_KEY = wrong;
    configureRuntime(undefined);
    try {
      const error = await errorOf(createVpc());
      expect(error.message).toMatch(/HTTP 401/);
      const text = errorText(error);
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(token(wrong));
    } finally {
      process.env.MDB_SECRET_KEY = SECRET_KEY;
      configureRuntime(undefined);
    }
    expect(await listVpcs()).toEqual([]);
  });
});
