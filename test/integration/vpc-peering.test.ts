/**
 * Integration of the `VpcPeering` provider functions with an emulator over real HTTP: every
 * input replaces (deleting first), refresh and import, delete, waits that time out or end
 * `failed` (the id is kept, the API's message quoted), injected faults without duplicates, and
 * no secret in any error. Create-once and out-of-band deletes shared by every resource:
 * resources-shared.test.ts.
 */
import { TEST_TRANSITION_MS, randomFaults, type TestEmulator } from "../helpers/emulator";
import {
  PROVIDER,
  ReplaceNeededError,
  drive,
  errorOf,
  errorText,
  progressLines,
  recordCalls,
  stateFromError,
  type Props,
  useProviderEmulator,
} from "../helpers/provider";
import { PROVIDERS } from "../../provider/host";

const vpcImpl = PROVIDERS.vpc;
const impl = PROVIDERS["vpc-peering"];

const SECRET_KEY = "peering-integration-secret-93d0aa";
/** A lifecycle step long enough for a wait of 50 ms to time out, short enough to wait for. */
const SLOW_MS = 600;

let emu: TestEmulator;
const peerings = drive(impl);
const vpcs = drive(vpcImpl);

/** The VPC of the current test. */
let vpcId: string;
let peeringsPath: string;

const PEERINGS = "/projects/{project}/vpcs/{vpc}/peerings";
const ONE = `${PEERINGS}/{peering}`;

interface PeeringRecord {
  id: string;
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id: string;
  status: string;
  provisioned_id?: string | null;
  error_message?: string | null;
}

useProviderEmulator({ secretKey: SECRET_KEY }, (started) => (emu = started));
beforeEach(async () => {
  await emu.reset();
  await emu.setTransitionMs(TEST_TRANSITION_MS);
  const vpc = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
    name: "core",
    cidr: "10.0.0.0/16",
    region_code: "us-east-1",
  });
  expect(vpc.status).toBe(201);
  vpcId = vpc.body.id;
  peeringsPath = `${emu.projectPath}/vpcs/${vpcId}/peerings`;
});
afterEach(() => emu.setFaults({}));

function toPeer(extra: Props = {}): Props {
  return {
    vpcId,
    peerAccountId: "123456789012",
    peerRegionCode: "us-west-2",
    peerVpcId: "vpc-peer1",
    ...extra,
  };
}

async function listPeerings(): Promise<PeeringRecord[]> {
  const response = await emu.api<PeeringRecord[]>("GET", peeringsPath);
  expect(response.status).toBe(200);
  return response.body;
}

async function only(): Promise<PeeringRecord> {
  const all = await listPeerings();
  expect(all).toHaveLength(1);
  return all[0];
}

describe("create", () => {
  it("one POST, waits until active; outputs camelCase with the id vpcId/peeringId", async () => {
    const { result: peering, calls } = await recordCalls(emu, () => peerings.create(toPeer()));
    expect(calls).toEqual([`POST ${PEERINGS}`]);
    const record = await only();
    expect(record.status).toBe("active");
    expect(peering.id).toBe(`${vpcId}/${record.id}`);
    expect(peering.outs).toEqual({
      peeringId: record.id,
      vpcId,
      projectId: emu.credentials.projectId,
      peerAccountId: "123456789012",
      peerRegionCode: "us-west-2",
      peerVpcId: "vpc-peer1",
      provisionedId: record.provisioned_id,
      status: "active",
      // Known to be none: never [unknown] at a preview.
      errorMessage: null,
      __provider: PROVIDER,
    });
    expect(record.provisioned_id).toMatch(/^pcx-prov-/);
  });

  it("a failed peering to the same peer does not block a new one, and is reported", async () => {
    const failed = await emu.api<PeeringRecord>("POST", peeringsPath, {
      peer_account_id: "123456789012",
      peer_region_code: "us-west-2",
      peer_vpc_id: "unreachable-1",
    });
    await emu.waitFor(only, (p) => p.status === "failed", { what: "peering failed" });
    progressLines.length = 0;
    // The new attempt fails too (the peer is still unreachable), but it is a new peering.
    const error = await errorOf(peerings.create(toPeer({ peerVpcId: "unreachable-1" })));
    expect(error.id).toMatch(new RegExp(`^${vpcId}/pcx-`));
    expect(error.id).not.toBe(`${vpcId}/${failed.body.id}`);
    expect(await listPeerings()).toHaveLength(2);
    expect(progressLines.join("\n")).toContain(`failed peering(s) to account 123456789012`);
  });
});

describe("diff table: any input replaces, deleting first", () => {
  it.each([
    ["vpcId", "vpc-other"],
    ["peerAccountId", "210987654321"],
    ["peerRegionCode", "eu-central-1"],
    ["peerVpcId", "vpc-peer2"],
  ])("%s: replace with deleteBeforeReplace, and no call is made for it", async (prop, value) => {
    const peering = await peerings.create(toPeer());
    const news = toPeer({ [prop]: value });
    const { result: diff, calls } = await recordCalls(emu, async () => {
      const { diff } = await peerings.diff(peering, news);
      await expect(peerings.update(peering, news)).rejects.toBeInstanceOf(ReplaceNeededError);
      return diff;
    });
    expect(diff).toMatchObject({ changes: true, replaces: [prop], deleteBeforeReplace: true });
    expect(diff.detailedDiff).toEqual({ [prop]: { kind: "UPDATE_REPLACE", inputDiff: true } });
    expect(calls).toEqual([]);
  });

  it("the replacement as the engine runs it: exactly DELETE old, then POST new; one peering left", async () => {
    const old = await peerings.create(toPeer());
    const news = toPeer({ peerVpcId: "vpc-peer2" });
    const { result: replacement, calls } = await recordCalls(emu, async () => {
      await peerings.delete(old);
      return peerings.create(news);
    });
    expect(calls).toEqual([`DELETE ${ONE}`, `POST ${PEERINGS}`]);
    expect(replacement.id).not.toBe(old.id);
    expect(await only()).toMatchObject({
      id: replacement.outs.peeringId,
      peer_vpc_id: "vpc-peer2",
      status: "active",
    });
  });

  it("unchanged inputs: no change, no call", async () => {
    const peering = await peerings.create(toPeer());
    const { result, calls } = await recordCalls(emu, () => peerings.update(peering, toPeer()));
    expect(result.diff.changes).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe("refresh", () => {
  it("a peering deleted outside Pulumi reads as gone; so does one whose VPC is gone", async () => {
    const peering = await peerings.create(toPeer());
    expect((await emu.api("DELETE", `${peeringsPath}/${peering.outs.peeringId}`)).status).toBe(204);
    expect(await peerings.read(peering.id, peering.outs)).toMatchObject({ id: undefined, props: undefined });
    expect((await emu.api("DELETE", `${emu.projectPath}/vpcs/${vpcId}`)).status).toBe(204);
    expect(await peerings.read(peering.id, peering.outs)).toMatchObject({ id: undefined, props: undefined });
  });

  it("a peering recorded pending reads active with its provisioned id once the API is done", async () => {
    await emu.setTransitionMs(SLOW_MS);
    const error = await errorOf(peerings.create(toPeer({ __timeouts: { create: 50 } })));
    const state = stateFromError(error, await peerings.check(toPeer()));
    expect(state.outs).toMatchObject({ status: "pending" });
    expect(state.outs.provisionedId).toBeNull();
    await emu.waitFor(only, (p) => p.status === "active", { what: "peering active" });

    const read = await peerings.read(state.id, state.outs);
    expect(read.id).toBe(state.id);
    expect(read.props).toMatchObject({
      status: "active",
      provisionedId: expect.stringMatching(/^pcx-prov-/),
    });
  });
});

describe("import", () => {
  it.each([
    ["vpcId/peeringId", (id: string) => `${vpcId}/${id}`],
    ["projectId/vpcId/peeringId", (id: string) => `${emu.credentials.projectId}/${vpcId}/${id}`],
  ])("by %s with empty props: inputs that check and diff to no change", async (_form, idOf) => {
    const made = await emu.api<PeeringRecord>("POST", peeringsPath, {
      peer_account_id: "555555555555",
      peer_region_code: "ap-south-1",
      peer_vpc_id: "vpc-legacy",
    });
    expect(made.status).toBe(201);
    await emu.waitFor(only, (p) => p.status === "active", { what: "peering active" });

    const read = await peerings.read(idOf(made.body.id), {});
    expect(read.id).toBe(`${vpcId}/${made.body.id}`);
    expect(read.inputs).toEqual({
      vpcId,
      peerAccountId: "555555555555",
      peerRegionCode: "ap-south-1",
      peerVpcId: "vpc-legacy",
      __provider: PROVIDER,
    });
    const imported = { id: read.id!, inputs: read.inputs!, outs: read.props! };
    const { result, calls } = await recordCalls(emu, () => peerings.update(imported, read.inputs!));
    expect(result.diff.changes).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe("delete", () => {
  it("one DELETE leaves no peering, and the VPC can then be deleted; deleting again succeeds", async () => {
    const peering = await peerings.create(toPeer());
    const { calls } = await recordCalls(emu, () => peerings.delete(peering));
    expect(calls).toEqual([`DELETE ${ONE}`]);
    expect(await listPeerings()).toEqual([]);
    await expect(peerings.delete(peering)).resolves.toBeUndefined();

    const { calls: vpcCalls } = await recordCalls(emu, () =>
      vpcs.delete({ id: vpcId, outs: { projectId: emu.credentials.projectId } }),
    );
    expect(vpcCalls).toEqual(["DELETE /projects/{project}/vpcs/{vpc}"]);
  });
});

describe("waits that fail keep the id", () => {
  it("create past its timeout: error with id, properties (with __provider) and reasons; next up finishes", async () => {
    await emu.setTransitionMs(SLOW_MS);
    const inputs = toPeer({ __timeouts: { create: 50 } });
    const error = await errorOf(peerings.create(inputs));
    const record = await only();
    expect(error.id).toBe(`${vpcId}/${record.id}`);
    expect(error.message).toMatch(
      /timed out .* waiting for VPC peering .* to be active \(last state: pending\)/,
    );
    expect(error.reasons).toEqual([error.message]);
    expect(error.properties).toMatchObject({
      peeringId: record.id,
      status: "pending",
      __provider: PROVIDER,
      __timeouts: { create: 50 },
    });

    // The engine keeps it; the next `pulumi up` updates it (init errors), which only waits.
    const state = stateFromError(error, await peerings.check(inputs));
    const { result, calls } = await recordCalls(emu, () =>
      peerings.update(state, inputs, { initErrors: true }),
    );
    expect(calls).toEqual([]);
    expect(result.state.id).toBe(state.id);
    expect(result.state.outs).toMatchObject({
      status: "active",
      provisionedId: expect.stringMatching(/^pcx-prov-/),
    });
    expect(await listPeerings()).toHaveLength(1);
  });

  it("an unreachable peer ends `failed`: error with the id and the API's message; the next up replaces it", async () => {
    const inputs = toPeer({ peerVpcId: "unreachable-vpc-9" });
    const error = await errorOf(peerings.create(inputs));
    const record = await only();
    expect(record.status).toBe("failed");
    expect(error.id).toBe(`${vpcId}/${record.id}`);
    expect(error.message).toContain(record.error_message!);
    expect(error.message).toContain("unreachable-vpc-9");
    expect(error.properties).toMatchObject({
      status: "failed",
      errorMessage: record.error_message,
      __provider: PROVIDER,
    });

    const state = stateFromError(error, await peerings.check(inputs));
    const { diff } = await peerings.diff(state, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: ["status"], deleteBeforeReplace: true });
  });
});

describe("faults", () => {
  it("random 429/500/503 during create and delete: converges, one peering at a time", async () => {
    // Random faults, plus one sure fault per create and per delete, so every round meets one.
    const faults = randomFaults(
      { method: "POST", path: "/peerings", count: 1, status: 503 },
      { method: "DELETE", path: "/peerings/", count: 1, status: 429 },
    );
    for (const peerVpcId of ["vpc-a", "vpc-b", "vpc-c"]) {
      await emu.setFaults(faults);
      const peering = await peerings.create(toPeer({ peerVpcId }));
      await emu.setFaults({});
      expect(await only()).toMatchObject({
        id: peering.outs.peeringId,
        peer_vpc_id: peerVpcId,
        status: "active",
      });
      await emu.setFaults(faults);
      await peerings.delete(peering);
      await emu.setFaults({});
      expect(await listPeerings()).toEqual([]);
    }
    expect((await emu.requests()).filter((r) => r.status >= 429).length).toBeGreaterThanOrEqual(6);
  });

  it("the DELETE answered with a 500 after taking effect: converges, nothing left", async () => {
    const peering = await peerings.create(toPeer());
    await emu.setFaults({
      rules: [{ method: "DELETE", path: "/peerings/", count: 1, status: 500, after: true }],
    });
    const { calls } = await recordCalls(emu, () => peerings.delete(peering), { withStatus: true });
    expect(calls).toEqual([`DELETE ${ONE} -> 500`, `DELETE ${ONE} -> 404`]);
    expect(await listPeerings()).toEqual([]);
  });
});

describe("secrets", () => {
  it("no error quotes the secret key or the Authorization header", async () => {
    const token = Buffer.from(`${emu.credentials.publicKey}:${SECRET_KEY}`).toString("base64");
    const errors = [await errorOf(peerings.create(toPeer({ peerVpcId: "unreachable-2" })))];
    await emu.setFaults({ rules: [{ method: "*", path: "/peerings", count: 1000, status: 403 }] });
    errors.push(await errorOf(peerings.create(toPeer())));
    errors.push(await errorOf(peerings.read(`${vpcId}/pcx-x`, {})));
    errors.push(await errorOf(peerings.delete({ id: `${vpcId}/pcx-x`, outs: {} })));
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/cannot be reached/),
      expect.stringMatching(/HTTP 403/),
      expect.stringMatching(/HTTP 403/),
      expect.stringMatching(/HTTP 403/),
    ]);
    for (const error of errors) {
      expect(errorText(error)).not.toContain(SECRET_KEY);
      expect(errorText(error)).not.toContain(token);
    }
  });
});
