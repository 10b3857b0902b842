/**
 * What is particular to `VpcPeering` (no server): replacement reasons, record outputs, and create, read, update and delete against a stubbed client.
 * The rows every resource shares (check, diff table, ids) are in resources-specs.test.ts.
 */
import { MdbApi } from "../../provider/client/api";
import { MdbApiError } from "../../provider/client/errors";
import type { VpcPeering as PeeringRecord } from "../../provider/client/schemas";
import { PartialFailure } from "../../provider/kit/lifecycle/partial";
import { readOutputs } from "../../provider/kit/fields/field-table";
import { VPC_PEERING, type VpcPeeringOutputs } from "../../provider/resources/vpc-peering/fields";
import { providerWith, testRuntime } from "../helpers/runtime";

/** Progress lines of this file's provider. */
const progress = jest.fn();
const runtime = testRuntime(progress);
const impl = providerWith("vpc-peering", runtime);

const valid = { vpcId: "vpc1", peerAccountId: "acct-9", peerRegionCode: "us-west-2", peerVpcId: "vpc-peer" };

function observed(overrides: Partial<VpcPeeringOutputs> = {}): VpcPeeringOutputs {
  return {
    peeringId: "pcx1",
    projectId: "proj",
    ...valid,
    provisionedId: "prov1",
    status: "active",
    ...overrides,
  };
}

async function diffOf(olds: VpcPeeringOutputs, news: Record<string, unknown>) {
  const checked = (await impl.check({}, news)).inputs as Record<string, unknown>;
  return impl.diff("vpc1/pcx1", olds as unknown as Record<string, unknown>, checked);
}

describe("VpcPeering diff", () => {
  it("lists every changed input among the replacement reasons", async () => {
    const result = await diffOf(observed(), {
      ...valid,
      peerRegionCode: "eu-west-1",
      peerVpcId: "vpc-other",
    });
    expect(result.replaces.sort()).toEqual(["peerRegionCode", "peerVpcId"]);
  });

  it("does not replace a peering that is still pending", async () => {
    expect((await diffOf(observed({ status: "pending", provisionedId: undefined }), valid)).changes).toBe(
      false,
    );
  });
});

describe("VpcPeering outputs", () => {
  it("maps a record to camelCase outputs", () => {
    const out = readOutputs(
      VPC_PEERING,
      {
        id: "pcx1",
        peer_account_id: "acct-9",
        peer_region_code: "us-west-2",
        peer_vpc_id: "vpc-peer",
        status: "failed",
        error_message: "peer cannot be reached",
        provisioned_id: null,
      },
      { projectId: "proj", vpcId: "vpc1" },
      {},
    );
    expect(JSON.parse(JSON.stringify(out))).toEqual(
      observed({ status: "failed", errorMessage: "peer cannot be reached", provisionedId: undefined }),
    );
  });
});

// ---------------------------------------------------------------------------------------
// CRUD against a stubbed client (no server)
// ---------------------------------------------------------------------------------------

function record(overrides: Partial<PeeringRecord> = {}): PeeringRecord {
  return {
    id: "pcx1",
    peer_account_id: "acct-9",
    peer_region_code: "us-west-2",
    peer_vpc_id: "vpc-peer",
    status: "active",
    provisioned_id: "prov1",
    ...overrides,
  };
}

function apiError(status: number, ambiguous = false): MdbApiError {
  return new MdbApiError({ operation: "op", status, code: `HTTP_${status}`, apiMessage: "x", ambiguous });
}

describe("VpcPeering CRUD (stubbed client)", () => {
  const stub = <K extends Exclude<keyof MdbApi, "http">>(name: K, impl: (...args: unknown[]) => unknown) =>
    jest
      .spyOn(MdbApi.prototype, name)
      .mockImplementation(((...args: unknown[]) => Promise.resolve().then(() => impl(...args))) as never);

  beforeEach(() => {
    process.env.MDB_API_URL = "http://127.0.0.1:9";
    process.env.MDB_PUBLIC_KEY = "pub";
    process.env.MDB_SECRET_KEY = "secret-key";
    process.env.MDB_PROJECT_ID = "proj";
    runtime.configure(undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it("creates, waits pending -> active, and returns the id vpcId/peeringId", async () => {
    stub("listPeerings", () => []);
    const create = stub("createPeering", () => record({ status: "pending", provisioned_id: null }));
    const states = ["pending", "active"];
    stub("getPeering", () => record({ status: states.shift() ?? "active" }));
    const result = await impl.create({ ...valid, __timeouts: { create: 5000 } });
    expect(create.mock.calls[0]).toEqual([
      "proj",
      "vpc1",
      { peerAccountId: "acct-9", peerRegionCode: "us-west-2", peerVpcId: "vpc-peer" },
    ]);
    expect(result.id).toBe("vpc1/pcx1");
    expect(result.outs).toMatchObject({ status: "active", provisionedId: "prov1", peeringId: "pcx1" });
  });

  it("fails a peering that ends `failed` as a partial failure quoting the API's error_message", async () => {
    stub("listPeerings", () => []);
    stub("createPeering", () => record({ status: "pending" }));
    stub("getPeering", () =>
      record({ status: "failed", error_message: "peer VPC vpc-peer cannot be reached" }),
    );
    const error = await impl.create({ ...valid, __provider: "serialized" }).catch((e) => e);
    expect(error).toBeInstanceOf(PartialFailure);
    expect(error.id).toBe("vpc1/pcx1");
    expect(error.properties).toMatchObject({
      status: "failed",
      errorMessage: "peer VPC vpc-peer cannot be reached",
      __provider: "serialized",
    });
    expect(error.reasons[0]).toMatch(/peering pcx1 failed: peer VPC vpc-peer cannot be reached/);
  });

  it("refuses to create beside a live peering to the same peer, advising import", async () => {
    stub("listPeerings", () => [record({ status: "pending" })]);
    const create = stub("createPeering", () => record());
    await expect(impl.create(valid)).rejects.toThrow(
      /already has a peering .* pcx1 \(pending\).*import: "vpc1\/pcx1"/,
    );
    expect(create).not.toHaveBeenCalled();
  });

  it("ignores a failed peering to the same peer (it connects nothing) and says so", async () => {
    stub("listPeerings", () => [record({ id: "pcx-old", status: "failed" })]);
    const create = stub("createPeering", () => record());
    stub("getPeering", () => record());
    expect((await impl.create(valid)).id).toBe("vpc1/pcx1");
    expect(create).toHaveBeenCalledTimes(1);
    expect(progress).toHaveBeenCalledWith(expect.stringMatching(/failed peering\(s\) .*pcx-old/));
  });

  it("after an ambiguous failure, adopts only a peering that was not there before", async () => {
    let peerings = [record({ id: "pcx-old", status: "failed" })];
    stub("listPeerings", () => peerings);
    const create = stub("createPeering", () => {
      peerings = [...peerings, record({ id: "pcx-new", status: "pending" })];
      throw apiError(503, true);
    });
    stub("getPeering", () => record({ id: "pcx-new" }));
    expect((await impl.create(valid)).id).toBe("vpc1/pcx-new");
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("update only finishes awaiting a peering still pending (every input change replaces it)", async () => {
    const states = ["pending", "active"];
    stub("getPeering", () => record({ status: states.shift() ?? "active" }));
    const result = await impl.update("vpc1/pcx1", observed({ status: "pending" }) as never, {
      ...valid,
      __timeouts: { update: 5000 },
    });
    expect(result.outs).toMatchObject({ status: "active" });
  });

  it("reads an imported peering with inputs that show no diff, and a deleted one as gone", async () => {
    stub("getPeering", () => record());
    const read = await impl.read("vpc1/pcx1", {});
    expect(read).toMatchObject({
      id: "vpc1/pcx1",
      props: { projectId: "proj", status: "active" },
      inputs: valid,
    });
    const news = (await impl.check({}, read.inputs as Record<string, unknown>)).inputs as Record<
      string,
      unknown
    >;
    expect((await impl.diff("vpc1/pcx1", read.props as Record<string, unknown>, news)).changes).toBe(false);
    jest.restoreAllMocks();
    stub("getPeering", () => {
      throw apiError(404);
    });
    expect(await impl.read("vpc1/pcx1", {})).toEqual({});
  });

  it("deletes and waits until gone; 404 means already gone", async () => {
    let present = true;
    stub("deletePeering", () => {
      setTimeout(() => (present = false), 30);
    });
    const get = stub("getPeering", () => {
      if (present) return record();
      throw apiError(404);
    });
    await impl.delete("vpc1/pcx1", observed() as never);
    expect(present).toBe(false);
    expect(get).toHaveBeenCalled();
    jest.restoreAllMocks();
    stub("deletePeering", () => {
      throw apiError(404);
    });
    const after = stub("getPeering", () => record());
    await impl.delete("vpc1/pcx1", observed() as never);
    expect(after).not.toHaveBeenCalled();
  });
});
