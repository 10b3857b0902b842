/**
 * What is particular to `Vpc` (no server): the CIDR rule, and create, rename, read and delete against a stubbed client.
 * The rows every resource shares (check, diff table, ids) are in resources-specs.test.ts.
 */
import { MdbApi } from "../../provider/client/api";
import { MdbApiError } from "../../provider/client/errors";
import type { Vpc as VpcRecord } from "../../provider/client/schemas";
import { type VpcInputs, type VpcOutputs, ipv4CidrProblem } from "../../provider/resources/vpc/fields";
import { planVpc } from "../../provider/resources/vpc/plan";
import { providerWith, testRuntime } from "../helpers/runtime";

/** Progress lines of this file's provider. */
const progress = jest.fn();
const runtime = testRuntime(progress);
const impl = providerWith("vpc", runtime);

const valid = { name: "core", cidr: "10.0.0.0/16", regionCode: "us-east-1" };

async function failuresOf(news: Record<string, unknown>) {
  const result = await impl.check({}, news);
  return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

describe("Vpc check", () => {
  it.each(["10.0.0.0/16", "192.168.1.0/24", "172.16.0.0/12", "10.1.2.3/32", "0.0.0.0/0"])(
    "accepts the block %s",
    async (cidr) => {
      expect(await failuresOf({ ...valid, cidr })).toEqual([]);
    },
  );

  it.each([
    ["10.0.0.1/16", /^cidr: has host bits set: write the block's network address, 10\.0\.0\.0\/16$/],
    ["192.168.1.77/24", /^cidr: has host bits set: .*192\.168\.1\.0\/24$/],
    ["10.0.0.0/33", /^cidr: must be an IPv4 block in CIDR notation/],
    ["10.0.0.0", /^cidr: must be an IPv4 block in CIDR notation/],
    ["300.0.0.0/8", /^cidr: must be an IPv4 block in CIDR notation/],
    ["fd00::/8", /^cidr: must be an IPv4 block in CIDR notation/],
    ["", /^cidr: must be an IPv4 block in CIDR notation/],
    ["010.0.0.0/8", /^cidr: must be written a\.b\.c\.d\/n in plain decimal/],
    ["10.0/16", /^cidr: must be written a\.b\.c\.d\/n in plain decimal/],
    ["10.0.0.0/016", /^cidr: must be written a\.b\.c\.d\/n in plain decimal/],
  ])("reports cidr = %p", async (cidr, expected) => {
    const failures = await failuresOf({ ...valid, cidr });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(expected);
  });

  it("explains a CIDR problem without Pulumi", () => {
    expect(ipv4CidrProblem("10.0.0.0/16")).toBeUndefined();
    expect(ipv4CidrProblem("10.0.0.1/16")).toMatch(/10\.0\.0\.0\/16/);
  });
});

function observed(overrides: Partial<VpcOutputs> = {}): VpcOutputs {
  return { vpcId: "vpc1", projectId: "proj", ...valid, ...overrides };
}

async function checked(news: Record<string, unknown>): Promise<VpcInputs> {
  return (await impl.check({}, news)).inputs as unknown as VpcInputs;
}

async function diffOf(olds: VpcOutputs, news: Record<string, unknown>) {
  return impl.diff(
    "vpc1",
    olds as unknown as Record<string, unknown>,
    (await checked(news)) as unknown as Record<string, unknown>,
  );
}

describe("Vpc diff", () => {
  it("renames in place", async () => {
    const result = await diffOf(observed(), { ...valid, name: "core-2" });
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual([]);
    expect(result.detailedDiff).toEqual({ name: { kind: "UPDATE", inputDiff: true } });
    const steps = planVpc(observed(), await checked({ ...valid, name: "core-2" }));
    expect(steps.map((s) => ({ op: s.op, body: s.body }))).toEqual([
      { op: "renameVpc", body: { name: "core-2" } },
    ]);
  });
});

// ---------------------------------------------------------------------------------------
// CRUD against a stubbed client (no server)
// ---------------------------------------------------------------------------------------

function record(overrides: Partial<VpcRecord> = {}): VpcRecord {
  return { id: "vpc1", name: "core", cidr: "10.0.0.0/16", region_code: "us-east-1", ...overrides };
}

function apiError(status: number, ambiguous = false): MdbApiError {
  return new MdbApiError({
    operation: "op",
    status,
    code: status === 409 ? "CONFLICT" : status === 404 ? "NOT_FOUND" : "INTERNAL",
    apiMessage: status === 409 ? "VPC vpc1 is in use by service svc1" : "x",
    ambiguous,
  });
}

describe("Vpc CRUD (stubbed client)", () => {
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

  it("creates a VPC and returns its outputs at once", async () => {
    stub("listVpcs", () => [record({ id: "other", cidr: "10.9.0.0/16" })]);
    const create = stub("createVpc", () => record());
    const result = await impl.create({ ...valid, __timeouts: { delete: 1000 } });
    expect(create.mock.calls[0]).toEqual([
      "proj",
      { name: "core", cidr: "10.0.0.0/16", regionCode: "us-east-1" },
    ]);
    expect(result).toEqual({
      id: "vpc1",
      outs: {
        vpcId: "vpc1",
        projectId: "proj",
        ...valid,
        deletionProtection: false,
        __timeouts: { delete: 1000 },
      },
    });
  });

  it("refuses to create over a VPC of the same name, block and region, advising import", async () => {
    stub("listVpcs", () => [record()]);
    const create = stub("createVpc", () => record());
    await expect(impl.create(valid)).rejects.toThrow(/import: "vpc1"/);
    expect(create).not.toHaveBeenCalled();
  });

  it("adopts it when the name was generated (an interrupted run)", async () => {
    stub("listVpcs", () => [record()]);
    const create = stub("createVpc", () => record());
    expect((await impl.create({ ...valid, __autoNamed: true })).id).toBe("vpc1");
    expect(create).not.toHaveBeenCalled();
    expect(progress).toHaveBeenCalledWith(expect.stringMatching(/adopting/));
  });

  it("after an ambiguous failure, finds the VPC the lost request created instead of sending it again", async () => {
    let vpcs: VpcRecord[] = [];
    stub("listVpcs", () => vpcs);
    const create = stub("createVpc", () => {
      vpcs = [record()];
      throw apiError(500, true);
    });
    expect((await impl.create(valid)).id).toBe("vpc1");
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("does not retry a definite refusal", async () => {
    stub("listVpcs", () => []);
    const create = stub("createVpc", () => {
      throw apiError(400);
    });
    await expect(impl.create(valid)).rejects.toThrow(MdbApiError);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("renames from the observed name", async () => {
    stub("getVpc", () => record());
    const rename = stub("renameVpc", () => record({ name: "core-2" }));
    const result = await impl.update("vpc1", observed() as never, { ...valid, name: "core-2" });
    expect(rename.mock.calls[0]).toEqual(["proj", "vpc1", { name: "core-2" }]);
    expect(result.outs).toMatchObject({ name: "core-2" });
  });

  it("does not rename again when a previous run already did", async () => {
    stub("getVpc", () => record({ name: "core-2" }));
    const rename = stub("renameVpc", () => record());
    await impl.update("vpc1", observed() as never, { ...valid, name: "core-2" });
    expect(rename).not.toHaveBeenCalled();
  });

  it("reads an imported VPC with inputs that show no diff, and a deleted one as gone", async () => {
    stub("getVpc", () => record());
    const read = await impl.read("proj2/vpc1", {});
    expect(read).toMatchObject({ id: "vpc1", props: { projectId: "proj2" }, inputs: valid });
    const news = (await impl.check({}, read.inputs as Record<string, unknown>)).inputs as Record<
      string,
      unknown
    >;
    expect((await impl.diff("vpc1", read.props as Record<string, unknown>, news)).changes).toBe(false);
    jest.restoreAllMocks();
    stub("getVpc", () => {
      throw apiError(404);
    });
    expect(await impl.read("vpc1", {})).toEqual({});
  });

  /** The lists a refused delete looks at for blockers show none (the refusal is settling). */
  function noBlockersListed(): void {
    stub("listPeerings", () => []);
    stub("listServices", () => []);
  }

  it("retries a delete refused with 409 while the VPC is still in use, until it goes through", async () => {
    noBlockersListed();
    let refusals = 2;
    const del = stub("deleteVpc", () => {
      if (refusals-- > 0) throw apiError(409);
    });
    await impl.delete("vpc1", { ...observed(), __timeouts: { delete: 10_000 } });
    expect(del).toHaveBeenCalledTimes(3);
  });

  it("fails a delete still refused with 409 at the deadline, quoting the API and saying what to do", async () => {
    noBlockersListed();
    stub("deleteVpc", () => {
      throw apiError(409);
    });
    await expect(impl.delete("vpc1", { ...observed(), __timeouts: { delete: 200 } })).rejects.toThrow(
      /cannot delete VPC vpc1: it is still in use .*in use by service svc1.*Detach the services/,
    );
  });

  it("treats 404 on delete as already gone", async () => {
    const del = stub("deleteVpc", () => {
      throw apiError(404);
    });
    await impl.delete("vpc1", observed() as never);
    expect(del).toHaveBeenCalledTimes(1);
  });
});
