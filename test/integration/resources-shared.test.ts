/**
 * What every resource does alike against an emulator over real HTTP, as one table: delete
 * sends one DELETE, waits until gone and can be repeated; a resource deleted out of band reads
 * as gone; a create never duplicates (a record of the same identity is refused with import
 * advice, adopted with `mdb:adoptExisting`, and a create POST whose answer is lost after the record was made adopts it); a create
 * whose wait fails after the API accepted it keeps the resource in the stack; no error quotes
 * the secret key. What is particular to one resource lives in its own `<name>.test.ts`.
 */
import { IMPORT_INPUT } from "../../provider/adapters/dynamic/hidden";
import { PROVIDERS } from "../../provider/host";
import type { ResourceKind } from "../../provider/resources/registry";
import { TEST_TRANSITION_MS, type TestEmulator } from "../helpers/emulator";
import {
  PROVIDER,
  drive,
  errorOf,
  errorText,
  progressLines,
  recordCalls,
  type Props,
  useProviderEmulator,
} from "../helpers/provider";

const SECRET_KEY = "shared-integration-secret-62e0f1";

let emu: TestEmulator;

useProviderEmulator({ secretKey: SECRET_KEY }, (started) => (emu = started));
afterEach(() => emu.setFaults({}));

/** Creates a READY service through the API; its id. */
async function readyService(): Promise<string> {
  const made = await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, {
    name: "primary",
  });
  const id = made.body.service_id;
  await emu.waitFor(
    async () => (await emu.api<{ status: string }>("GET", `${emu.projectPath}/services/${id}`)).body,
    (s) => s.status === "READY",
    { what: "service READY" },
  );
  return id;
}

/** Creates a VPC through the API; its id. */
async function vpc(): Promise<string> {
  const made = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
    name: "core",
    cidr: "10.0.0.0/16",
    region_code: "us-east-1",
  });
  return made.body.id;
}

/** One resource: how to make its parent, its inputs, and where the API lists it. */
interface Row {
  kind: ResourceKind;
  /** Makes what the resource needs (its parent) and returns the parent's id, if any. */
  parent(): Promise<string | undefined>;
  /** Program inputs on that parent. */
  inputs(parent: string | undefined): Props;
  /** API path of the collection it is created in (the create POST goes there). */
  collection(parent: string | undefined): string;
  /** The collection as `recordCalls` writes it. */
  logged: string;
  /** The path of one record as `recordCalls` writes it. */
  one: string;
  /** The own id of a record in the collection's list. */
  idOf(record: Record<string, unknown>): string;
  /** Sends a create through the API for a record the program's inputs describe. */
  rawCreate(parent: string | undefined): Promise<void>;
  /** The create waits until the record settles (so a slow API can time it out). */
  waits: boolean;
}

const P = "/projects/{project}";
const ROWS: Row[] = [
  {
    kind: "service",
    waits: true,
    parent: async () => undefined,
    inputs: () => ({
      name: "orders",
      serviceType: "TIMESERIESDB",
      regionCode: "us-east-1",
      cpuMillis: 1000,
      memoryGbs: 4,
    }),
    collection: () => `${emu.projectPath}/services`,
    logged: `${P}/services`,
    one: `${P}/services/{service}`,
    idOf: (r) => r.service_id as string,
    rawCreate: async () => {
      const body = {
        name: "orders",
        addons: ["time-series"],
        region_code: "us-east-1",
        cpu_millis: 1000,
        memory_gbs: 4,
      };
      await emu.api("POST", `${emu.projectPath}/services`, body);
    },
  },
  {
    kind: "vpc",
    waits: false,
    parent: async () => undefined,
    inputs: () => ({ name: "core", cidr: "10.0.0.0/16", regionCode: "us-east-1" }),
    collection: () => `${emu.projectPath}/vpcs`,
    logged: `${P}/vpcs`,
    one: `${P}/vpcs/{vpc}`,
    idOf: (r) => r.id as string,
    rawCreate: () => vpc().then(() => undefined),
  },
  {
    kind: "read-replica-set",
    waits: true,
    parent: readyService,
    inputs: (serviceId) => ({ serviceId, name: "readers", nodes: 1, cpuMillis: 500, memoryGbs: 2 }),
    collection: (serviceId) => `${emu.projectPath}/services/${serviceId}/replicaSets`,
    logged: `${P}/services/{service}/replicaSets`,
    one: `${P}/services/{service}/replicaSets/{replicaSet}`,
    idOf: (r) => r.id as string,
    rawCreate: async (serviceId) => {
      const body = { name: "readers", nodes: 1, cpu_millis: 500, memory_gbs: 2 };
      await emu.api("POST", `${emu.projectPath}/services/${serviceId}/replicaSets`, body);
    },
  },
  {
    kind: "vpc-peering",
    waits: true,
    parent: vpc,
    inputs: (vpcId) => ({
      vpcId,
      peerAccountId: "123456789012",
      peerRegionCode: "us-west-2",
      peerVpcId: "vpc-peer1",
    }),
    collection: (vpcId) => `${emu.projectPath}/vpcs/${vpcId}/peerings`,
    logged: `${P}/vpcs/{vpc}/peerings`,
    one: `${P}/vpcs/{vpc}/peerings/{peering}`,
    idOf: (r) => r.id as string,
    rawCreate: async (vpcId) => {
      const body = {
        peer_account_id: "123456789012",
        peer_region_code: "us-west-2",
        peer_vpc_id: "vpc-peer1",
      };
      await emu.api("POST", `${emu.projectPath}/vpcs/${vpcId}/peerings`, body);
    },
  },
];

describe.each(ROWS.map((row) => [row.kind, row] as const))("%s", (_kind, row) => {
  const resources = drive(PROVIDERS[row.kind]);
  let parent: string | undefined;

  /** The records of the collection, as the API lists them. */
  const list = async () =>
    (await emu.api<Array<Record<string, unknown>>>("GET", row.collection(parent))).body;

  beforeEach(async () => {
    await emu.reset();
    await emu.setTransitionMs(TEST_TRANSITION_MS);
    parent = await row.parent();
  });

  it("delete: one DELETE, waits until gone, leaves nothing; deleting again is fine, and says so", async () => {
    const state = await resources.create(row.inputs(parent));
    const [record] = await list();
    progressLines.length = 0;
    const { calls } = await recordCalls(emu, () => resources.delete(state));
    expect(calls).toEqual([`DELETE ${row.one}`]);
    expect(await list()).toEqual([]);
    const gone = / is already gone from the API: nothing left to delete$/;
    expect(progressLines.filter((line) => gone.test(line))).toEqual([]);
    await expect(resources.delete(state)).resolves.toBeUndefined();
    expect(progressLines.filter((line) => gone.test(line))).toEqual([
      expect.stringMatching(new RegExp(`^\\S.* ${row.idOf(record)} is already gone from the API:`)),
    ]);
  });

  it("a resource deleted out of band reads as gone, and the refresh says why it drops it", async () => {
    const state = await resources.create(row.inputs(parent));
    const [record] = await list();
    await emu.api("DELETE", `${row.collection(parent)}/${row.idOf(record)}`);
    await emu.waitFor(list, (all) => all.length === 0, { what: "record gone" });
    progressLines.length = 0;
    expect(await resources.read(state.id, state.outs)).toMatchObject({ id: undefined, props: undefined });
    expect(progressLines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\S.* ${row.idOf(record)} is not in the API any more \\(deleted outside this stack\\?\\): ` +
            "the refresh removes it from the stack; the next `pulumi up` creates a new one if the program still declares it$",
        ),
      ),
    ]);
    // An import of an id the API does not have: Pulumi's own error says so; the provider adds nothing.
    progressLines.length = 0;
    expect(await resources.read(state.id, {})).toMatchObject({ id: undefined });
    expect(progressLines).toEqual([]);
    // The classes' import option says it does not exist, and nothing of a refresh.
    expect(
      errorText(await errorOf(resources.create({ ...row.inputs(parent), [IMPORT_INPUT]: state.id }))),
    ).toMatch(/^cannot import .* it does not exist/);
    expect(progressLines).toEqual([]);
  });

  it("a record of the same identity is refused with import advice, not duplicated, and no call is made", async () => {
    await row.rawCreate(parent);
    const [record] = await list();
    const { result: error, calls } = await recordCalls(emu, () =>
      errorOf(resources.create(row.inputs(parent))),
    );
    const importId = parent ? `${parent}/${row.idOf(record)}` : row.idOf(record);
    expect(error.message).toContain(`{ import: "${importId}" }`);
    expect(error.message).toContain("set mdb:adoptExisting to true");
    expect(calls).toEqual([]);
    expect(await list()).toHaveLength(1);
  });

  it("with MDB_ADOPT_EXISTING=true a record of the same identity is adopted: no call, one record, said so", async () => {
    await row.rawCreate(parent);
    const [record] = await list();
    process.env.MDB_ADOPT_EXISTING = "true";
    try {
      progressLines.length = 0;
      const { result: state, calls } = await recordCalls(emu, () => resources.create(row.inputs(parent)));
      expect(state.id).toBe(parent ? `${parent}/${row.idOf(record)}` : row.idOf(record));
      expect(calls).toEqual([]);
      // No create was sent: the progress says adopted, never "accepted as" nor "created as".
      const own = String(row.idOf(record));
      expect(progressLines).toContainEqual(
        expect.stringMatching(new RegExp(` adopted ${own}(; waiting until it settles)?$`)),
      );
      expect(progressLines.filter((line) => / (accepted|created) as /.test(line))).toEqual([]);
    } finally {
      delete process.env.MDB_ADOPT_EXISTING;
    }
    expect(await list()).toHaveLength(1);
  });

  it.each([
    ["a 500", { status: 500 }, 500],
    ["a dropped connection", { drop: true }, 0],
  ])(
    "the create POST answered with %s after the record was made: adopted, not duplicated",
    async (_what, fault, status) => {
      const path = `${row.logged.split("/").pop()}$`;
      await emu.setFaults({ rules: [{ method: "POST", path: `/${path}`, count: 1, after: true, ...fault }] });
      const { result: state, calls } = await recordCalls(emu, () => resources.create(row.inputs(parent)), {
        withStatus: true,
      });
      expect(calls).toEqual([`POST ${row.logged} -> ${status}`]);
      const all = await list();
      expect(all.map(row.idOf)).toEqual([state.id.split("/").pop()]);
    },
  );

  if (row.waits) {
    it("a read of a record not yet settled, or being deleted, says so and records it as the API shows it", async () => {
      const importId = (record: Record<string, unknown>) =>
        parent ? `${parent}/${row.idOf(record)}` : row.idOf(record);
      const told = (pattern: string) => progressLines.filter((line) => new RegExp(pattern).test(line));

      // Settled: a read says nothing.
      const state = await resources.create(row.inputs(parent));
      progressLines.length = 0;
      await resources.read(state.id, state.outs);
      expect(told(" is \\S+(, not settled|: the API is deleting)")).toEqual([]);

      // Being deleted (outside the program, or by a run cut off after the API accepted it).
      const [made] = await list();
      await emu.withTransitionMs(
        () => emu.api("DELETE", `${row.collection(parent)}/${row.idOf(made)}`),
        1_500,
      );
      const [leaving] = await list();
      if (leaving !== undefined) {
        const read = await resources.read(state.id, state.outs);
        expect(read.id).toBe(state.id);
        expect(
          told(
            `^\\S.* ${row.idOf(made)} is ${String(leaving.status)}: the API is deleting it; it stays in the stack until it is gone, then \`pulumi refresh\` removes it$`,
          ),
        ).toHaveLength(1);
      }

      // Imported while the API is still creating it: recorded as it is, and said so.
      await emu.reset();
      parent = await row.parent();
      await emu.withTransitionMs(() => row.rawCreate(parent), 1_500);
      const [fresh] = await list();
      progressLines.length = 0;
      const imported = await resources.read(importId(fresh), {});
      expect(imported.id).toBe(importId(fresh));
      expect(
        told(
          `^\\S.* ${row.idOf(fresh)} is ${String(fresh.status)}, not settled: recorded as the API shows it now; run \`pulumi refresh\` once it settles to record where it ends$`,
        ),
      ).toHaveLength(1);
    });

    it("a create past its timeout fails with the id, properties (with __provider) and reasons", async () => {
      await emu.setTransitionMs(600);
      const error = await errorOf(resources.create({ ...row.inputs(parent), __timeouts: { create: 50 } }));
      const [record] = await list();
      expect(error.id).toBe(parent ? `${parent}/${row.idOf(record)}` : row.idOf(record));
      // What the failure leaves, and what to do next, after the wait's own words.
      expect(error.message).toMatch(
        new RegExp(
          "^timed out after .* waiting for .*; raise the limit with the customTimeouts resource option\\. " +
            `\\S.* ${row.idOf(record)} exists and stays in the stack with your inputs; nothing was deleted\\. ` +
            "Run `pulumi up` again to wait for it: the job is finished once it settles\\.$",
        ),
      );
      expect(error.reasons).toEqual([error.message]);
      expect(error.properties).toMatchObject({ __provider: PROVIDER, __timeouts: { create: 50 } });
      expect(await list()).toHaveLength(1);
    });
  }

  it("errors of refused calls quote neither the secret key nor the Authorization header", async () => {
    const state = await resources.create(row.inputs(parent));
    await emu.setFaults({ rules: [{ method: "*", path: "/projects/", count: 1000, status: 403 }] });
    const errors = [
      await errorOf(resources.create(row.inputs(parent))),
      await errorOf(resources.read(state.id, state.outs)),
      await errorOf(resources.delete(state)),
    ];
    const token = Buffer.from(`${emu.credentials.publicKey}:${SECRET_KEY}`).toString("base64");
    for (const error of errors) {
      expect(error.message).toMatch(/HTTP 403/);
      expect(errorText(error)).not.toContain(SECRET_KEY);
      expect(errorText(error)).not.toContain(token);
    }
  });
});
