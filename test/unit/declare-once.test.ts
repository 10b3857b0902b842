/**
 * A resource kind that exists only in this file, declared by a field table and a registry entry
 * (definition and its own operations) alone, with no other file written for it: the kit checks
 * it, diffs it, prints its preview line, creates, reads and updates it, and the class registers
 * its outputs and secrets, all from the table. It stands on the VPC rows of the operation table
 * (so its own id is the `vpcId` path parameter); its client is a stub over an in-memory record
 * store, and its runtime is built here (no module state touched).
 */
import { z } from "zod";
import type { MdbApi } from "../../provider/client/api";
import { REAL_CLOCK, type Runtime } from "../../provider/kit/context";
import { type ResourceDefinition, rowsOf } from "../../provider/kit/fields/field-table";
import { resourceProvider } from "../../provider/kit/lifecycle/provider";
import { dynamicProvider } from "../../provider/adapters/dynamic/provider";
import { registration } from "../../provider/adapters/dynamic/register";
import { PROJECT_ID_ROW } from "../../provider/kit/fields/rows";
import { resourceName } from "../../provider/kit/fields/rules";
import { type ResourceOps, specOf } from "../../provider/kit/spec";

/** The widget's record, as its (stub) API returns it. */
interface WidgetRecord {
  id: string;
  name: string;
  size: number;
  state: string;
}

const { input, name, output, setting } = rowsOf<WidgetRecord>();

const WIDGET_FIELDS = {
  /** Id of the widget (the `vpc_id` of the operations it stands on). */
  vpcId: output(z.string(), { stable: true, fromId: true, read: (r) => r.id }),
  /** Project of the widget. */
  projectId: PROJECT_ID_ROW,
  /** Name of the widget. Change: in place (renameVpc, standing in for the widget's own rename). */
  name: name(resourceName, { update: ["renameVpc"] }, { read: (r) => r.name }),
  /** Size, 1 to 9. Default 1. Change: replace. */
  size: input(
    z.number().int().min(1).max(9).default(1),
    { replace: "sizes are fixed" },
    { read: (r) => r.size },
  ),
  /** A note only the stack keeps (secret). */
  note: setting(z.string().optional(), { secret: true }),
  /** What the API says of it. */
  status: output(z.string(), { read: (r) => r.state }),
};

const WIDGET: ResourceDefinition<typeof WIDGET_FIELDS, "vpcId"> = {
  kind: "widget",
  typeName: "Widget",
  label: "widget",
  summary: "A test-only resource.",
  id: { label: "widget", parts: ["vpcId"] },
  naming: "generated",
  fields: WIDGET_FIELDS,
};

type Inputs = { name: string; size: number; note?: string; projectId?: string };

/** The widget store behind the stub client, and the calls it saw. */
const records = new Map<string, WidgetRecord>();
const calls: Array<[string, ...unknown[]]> = [];
const stubApi = {
  listVpcs: async () => [...records.values()],
  getVpc: async (_p: string, id: string) => {
    const r = records.get(id);
    if (!r) throw Object.assign(new Error("not found"), { status: 404 });
    return r;
  },
  renameVpc: async (...args: unknown[]) => {
    calls.push(["renameVpc", ...args]);
    const [, id, body] = args as [string, string, { name: string }];
    const r = records.get(id) as WidgetRecord;
    r.name = body.name;
    return r;
  },
  deleteVpc: async (_p: string, id: string) => {
    calls.push(["deleteVpc", id]);
    records.delete(id);
  },
} as unknown as MdbApi;

/** The widget's own operations: what no table can say. */
const OPS: ResourceOps<Inputs, Record<string, unknown>, WidgetRecord, "vpcId"> = {
  find: async (_api, ref) => records.get(ref.vpcId),
  recordId: (r) => r.id,
  plan: (have, want) =>
    have.name === want.name
      ? []
      : [{ op: "renameVpc", body: { name: want.name }, detail: `${have.name} → ${want.name}` }],
  create: {
    what: (want) => `widget ${want.name}`,
    list: async () => [...records.values()],
    same: (r, want) => r.name === want.name,
    identity: "name",
    send: async (_ctx, want) => {
      const record = { id: `w${records.size + 1}`, name: want.name, size: want.size, state: "ready" };
      records.set(record.id, record);
      calls.push(["create", want.name]);
      return record;
    },
    refusal: (found) => `a widget named ${found.name} exists`,
    otherwise: "choose another name",
  },
  calls: {
    runs: false,
    create: (want) => ({ op: "createVpc", detail: want.name }),
    remove: () => [{ op: "deleteVpc" }],
  },
  remove: "deleteVpc",
  removedAtOnce: true,
};

const log = jest.fn();
const runtime: Runtime = {
  configure: () => undefined,
  configSource: () => undefined,
  liveChecks: () => false,
  enableLiveChecks: () => undefined,
  session: () => ({
    api: stubApi,
    projectId: async (own?: string) => own ?? "proj",
    keyProjectId: async () => "proj",
    adoptExisting: false,
  }),
  log,
  clock: REAL_CLOCK,
};

/** The registry entry, and the provider the host would make of it. */
const entry = { definition: WIDGET, ops: OPS };
const provider = dynamicProvider(resourceProvider(entry.definition, entry.ops as never, runtime), runtime);

beforeEach(() => {
  records.clear();
  calls.length = 0;
  log.mockClear();
});

describe("a kind declared by its field table and registry entry alone", () => {
  it("checks its inputs: defaults, one failure per bad property, unknown and output names refused", async () => {
    const ok = await provider.check({}, { name: "a" });
    expect(ok.failures).toEqual([]);
    expect(ok.inputs).toMatchObject({ name: "a", size: 1 });

    const bad = await provider.check({}, { name: "a", size: 12, colour: "red", status: "x" });
    expect(bad.failures).toEqual(
      expect.arrayContaining([
        { property: "size", reason: expect.stringMatching(/9/) },
        // Not inputs: the resource's failures, so that Pulumi prints no value beside them.
        { property: "", reason: expect.stringMatching(/^property colour is not an input of Widget/) },
        { property: "", reason: "property status is an output of Widget, not an input" },
      ]),
    );
    expect(bad.failures).toHaveLength(3);
  });

  it("diffs by its rows: in place, replace (with why), stack-only, and secrets never shown", async () => {
    const olds = { vpcId: "w1", projectId: "proj", name: "a", size: 1, status: "ready" };
    const renamed = await provider.diff("w1", olds, { name: "b", size: 1 });
    expect(renamed.detailedDiff).toEqual({ name: { kind: "UPDATE", inputDiff: true } });
    expect(renamed.stables).toEqual(["vpcId", "projectId"]);
    expect(log).toHaveBeenLastCalledWith("a: renameVpc a → b");

    const resized = await provider.diff("w1", olds, { name: "a", size: 2 });
    expect(resized.replaces).toEqual(["size"]);
    expect(log).toHaveBeenLastCalledWith(
      "a: replace (size 1 → 2: sizes are fixed): createVpc a, then deleteVpc of the old widget",
    );

    const noted = await provider.diff("w1", olds, { name: "a", size: 1, note: "s3cret-note" });
    expect(noted.detailedDiff).toEqual({ note: { kind: "ADD", inputDiff: true } });
    expect(log).toHaveBeenLastCalledWith("a: no API call; the stack records note (none) → [secret]");
    expect(JSON.stringify(log.mock.calls)).not.toContain("s3cret-note");
  });

  it("creates once and round-trips its outputs through read and update", async () => {
    const inputs = (await provider.check({}, { name: "a", note: "kept" })).inputs;
    const created = await provider.create(inputs);
    expect(created.id).toBe("w1");
    expect(created.outs).toMatchObject({
      vpcId: "w1",
      projectId: "proj",
      name: "a",
      size: 1,
      note: "kept",
      status: "ready",
    });

    const read = await provider.read("w1", created.outs);
    expect(read.props).toEqual(created.outs);
    expect(read.inputs).toEqual({ name: "a", size: 1, note: "kept" });

    const updated = await provider.update("w1", created.outs, { ...inputs, name: "b" });
    expect(calls).toEqual([
      ["create", "a"],
      ["renameVpc", "proj", "w1", { name: "b" }],
    ]);
    expect(updated.outs).toMatchObject({ vpcId: "w1", name: "b", note: "kept" });

    await provider.delete("w1", updated.outs ?? {});
    expect(records.size).toBe(0);
  });

  it("registers every row as an output of its class, the secret ones as secret", () => {
    const spec = specOf(WIDGET);
    const { type, props, opts } = registration(spec, "w", { name: "a" }, undefined);
    expect(type).toBe("pulumi-nodejs:dynamic/mdb:Widget");
    for (const row of ["projectId", "name", "size", "note", "status"]) expect(props).toHaveProperty(row);
    // The id row is the Pulumi id itself, not a registered output.
    expect(props).not.toHaveProperty("vpcId");
    expect(opts.additionalSecretOutputs).toEqual(["note"]);
  });
});
