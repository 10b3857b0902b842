/**
 * Deletion protection of `Service` and `Vpc` against an emulator over real HTTP, as one table:
 * while the state says `deletionProtection: true`, delete refuses before any request (none in
 * the emulator's log, GETs included), naming the resource and how to lift it; turning it on or
 * off is an update that changes nothing at the API; once off, delete works.
 */
import { PROVIDERS } from "../../provider/host";
import type { ResourceKind } from "../../provider/resources/registry";
import type { TestEmulator } from "../helpers/emulator";
import { drive, errorOf, recordCalls, type Props, useProviderEmulator } from "../helpers/provider";

let emu: TestEmulator;

useProviderEmulator({}, (started) => (emu = started));

/** One protectable resource: its inputs, its label in messages, and where the API lists it. */
interface Row {
  kind: ResourceKind;
  inputs: Props;
  label: string;
  collection: string;
}

const ROWS: Row[] = [
  {
    kind: "service",
    inputs: {
      name: "orders",
      serviceType: "POSTGRES",
      regionCode: "us-east-1",
      cpuMillis: 500,
      memoryGbs: 2,
    },
    label: "service",
    collection: "services",
  },
  {
    kind: "vpc",
    inputs: { name: "core", cidr: "10.0.0.0/16", regionCode: "us-east-1" },
    label: "VPC",
    collection: "vpcs",
  },
];

/** How many records the project's collection holds. */
async function count(collection: string): Promise<number> {
  return (await emu.api<unknown[]>("GET", `${emu.projectPath}/${collection}`)).body.length;
}

describe.each(ROWS.map((row) => [row.kind, row] as const))("%s", (_kind, row) => {
  const resources = drive(PROVIDERS[row.kind]);
  beforeEach(() => emu.reset());

  it("records deletionProtection in the outputs (false by default)", async () => {
    expect((await resources.create(row.inputs)).outs.deletionProtection).toBe(false);
    expect(
      (await resources.create({ ...row.inputs, name: "other", deletionProtection: true })).outs,
    ).toMatchObject({ deletionProtection: true });
  });

  it("refuses to delete while protected, before any request, naming the resource and the way out", async () => {
    const state = await resources.create({ ...row.inputs, deletionProtection: true });
    await emu.clearRequests();
    const error = await errorOf(resources.delete(state));
    expect(await emu.requests()).toEqual([]);
    expect(error.message).toContain(`${row.label} "${row.inputs.name as string}" (${state.id})`);
    // The way that refuses before deleting anything, and the way out that re-creates nothing.
    expect(error.message).toContain(
      "to have `pulumi destroy` refuse before it deletes anything, give every resource of the stack Pulumi's option `protect: true`",
    );
    expect(error.message).toMatch(
      /set deletionProtection: false in the program, run `pulumi up --target [^`]+` \(it records that setting alone; .*\), then run `pulumi destroy` again$/,
    );
    expect(await count(row.collection)).toBe(1);
  });

  it("turns protection off with no call that changes anything, then deletes", async () => {
    const state = await resources.create({ ...row.inputs, deletionProtection: true });
    const { result, calls } = await recordCalls(emu, () =>
      resources.update(state, { ...row.inputs, deletionProtection: false }),
    );
    expect(calls).toEqual([]);
    expect(result.diff.changes).toBe(true);
    expect(result.diff.replaces).toEqual([]);
    expect(result.state.outs.deletionProtection).toBe(false);
    await resources.delete(result.state);
    expect(await count(row.collection)).toBe(0);
  });

  it("turning protection on is an update with no call that changes anything", async () => {
    const state = await resources.create(row.inputs);
    const { result, calls } = await recordCalls(emu, () =>
      resources.update(state, { ...row.inputs, deletionProtection: true }),
    );
    expect(calls).toEqual([]);
    expect(result.state.outs.deletionProtection).toBe(true);
    await expect(resources.delete(result.state)).rejects.toThrow(/deletionProtection: true/);
  });

  it("a refresh keeps the flag the stack recorded", async () => {
    const state = await resources.create({ ...row.inputs, deletionProtection: true });
    const read = await resources.read(state.id, state.outs);
    expect(read.props).toMatchObject({ deletionProtection: true });
    expect(read.inputs).toMatchObject({ deletionProtection: true });
  });
});
