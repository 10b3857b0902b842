/**
 * The native plugin's resource RPCs over real gRPC against an emulator, as the engine calls them:
 * for each of the four types, Check (a generated name from the URN when none is given), Create,
 * a clean Diff, an in-place change (Diff names it, Update makes the call), a replacing change,
 * Read (refresh), and Delete; progress lines reach the engine under the resource's URN.
 */
import { autoName } from "../../provider/kit/fields/naming";
import { type TestEmulator, startTestEmulator } from "../helpers/emulator";
import {
  PROJECT,
  type Props,
  STACK,
  type TestPlugin,
  reveal,
  startTestPlugin,
  urnOf,
} from "../helpers/plugin";

let emu: TestEmulator;
let plugin: TestPlugin;

beforeAll(async () => {
  emu = await startTestEmulator();
  plugin = await startTestPlugin();
  await plugin.configureFor(emu);
});
afterAll(async () => {
  await plugin?.close();
  await emu?.close();
});

/** What one type's run needs: its inputs, a change made in place and the call it makes, a change that replaces. */
interface Case {
  type: string;
  name: string;
  /** Inputs, given what the run made before (parents). */
  inputs(made: Record<string, string>): Props;
  /** Absent when every input replaces the resource. */
  inPlace?: { property: string; value: unknown; call: RegExp };
  replaces: { property: string; value: unknown };
  /** The output that is the resource's own id. */
  idOutput: string;
  /** Whether it names itself (a generated name when the program gives none). */
  generatesName: boolean;
}

const CASES: Case[] = [
  {
    type: "mdb:index:Vpc",
    name: "network",
    inputs: () => ({ cidr: "10.0.0.0/16", regionCode: "us-east-1" }),
    inPlace: {
      property: "name",
      value: "renamed-net",
      call: /^POST \/projects\/[^/]+\/vpcs\/[^/]+\/rename$/,
    },
    replaces: { property: "cidr", value: "10.9.0.0/16" },
    idOutput: "vpcId",
    generatesName: true,
  },
  {
    type: "mdb:index:Service",
    name: "db",
    inputs: () => ({ serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4 }),
    inPlace: {
      property: "cpuMillis",
      value: 2000,
      call: /^POST \/projects\/[^/]+\/services\/[^/]+\/resize$/,
    },
    replaces: { property: "regionCode", value: "eu-west-1" },
    idOutput: "serviceId",
    generatesName: true,
  },
  {
    type: "mdb:index:ReadReplicaSet",
    name: "reads",
    inputs: (made) => ({ serviceId: made.service, nodes: 1, cpuMillis: 1000, memoryGbs: 4 }),
    inPlace: {
      property: "nodes",
      value: 2,
      call: /^POST \/projects\/[^/]+\/services\/[^/]+\/replicaSets\/[^/]+\/resize$/,
    },
    replaces: { property: "name", value: "other-reads" },
    idOutput: "replicaSetId",
    generatesName: true,
  },
  {
    type: "mdb:index:VpcPeering",
    name: "peer",
    inputs: (made) => ({
      vpcId: made.vpc,
      peerAccountId: "123456789012",
      peerRegionCode: "us-east-1",
      peerVpcId: "vpc-0a1b2c3d",
    }),
    replaces: { property: "peerVpcId", value: "vpc-0f0f0f0f" },
    idOutput: "peeringId",
    generatesName: false,
  },
];

/** Non-GET calls the emulator logged since the last clear, as `METHOD path`. */
async function writes(): Promise<string[]> {
  return (await emu.requests())
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path.replace(/^\/public\/api\/v1/, "")}`);
}

describe("each type, as the engine drives it", () => {
  const made: Record<string, string> = {};
  const labels: Record<string, string> = {
    "mdb:index:Vpc": "vpc",
    "mdb:index:Service": "service",
    "mdb:index:ReadReplicaSet": "reads",
    "mdb:index:VpcPeering": "peer",
  };
  const states: Record<string, { id: string; inputs: Props; outputs: Props }> = {};

  describe.each(CASES)("$type", (c) => {
    it("Check fills defaults, and generates a missing name from the URN (project, stack, name)", async () => {
      const { inputs, failures } = await plugin.check(c.type, c.name, c.inputs(made));
      expect(failures).toEqual([]);
      if (c.generatesName) {
        expect(inputs.name).toBe(autoName(PROJECT, STACK, c.name));
        expect(inputs.__autoNamed).toBe(true);
      } else expect(inputs.name).toBeUndefined();
      states[c.type] = { id: "", inputs, outputs: {} };
    });

    it("Create makes it, logging under its URN, and returns its id and outputs", async () => {
      plugin.logs.length = 0;
      const { id, properties } = await plugin.create(c.type, c.name, states[c.type].inputs);
      expect(id).toMatch(/\S/);
      expect(properties[c.idOutput]).toBe(id.split("/").pop());
      expect(properties.__provider).toBeUndefined();
      expect(properties.__resourceName).toBeUndefined();
      expect(plugin.logs.length).toBeGreaterThan(0);
      for (const line of plugin.logs) {
        expect(line.urn).toBe(urnOf(c.type, c.name));
        expect(line.message).toMatch(/^\[mdb\] /);
      }
      states[c.type] = { ...states[c.type], id, outputs: properties };
      made[labels[c.type]] = properties[c.idOutput] as string;
    });

    it("Diff of the same inputs finds nothing, with the ids stable", async () => {
      const { id, inputs, outputs } = states[c.type];
      const diff = await plugin.diff(c.type, c.name, id, outputs, inputs);
      expect(diff.changes).toBe(1); // DIFF_NONE
      expect(diff.hasdetaileddiff).toBe(true);
      expect(diff.detaileddiffMap).toEqual([]);
      expect(diff.stablesList).toContain(c.idOutput);
    });

    // A peering has no in-place change: every input replaces it (the next test).
    const inPlace = c.inPlace;
    if (inPlace)
      it("Diff names an in-place change, and Update makes its one call", async () => {
        const { id, inputs, outputs } = states[c.type];
        const news = { ...inputs, [inPlace.property]: inPlace.value };
        const diff = await plugin.diff(c.type, c.name, id, outputs, news);
        expect(diff.changes).toBe(2); // DIFF_SOME
        expect(diff.replacesList).toEqual([]);
        expect(diff.diffsList).toEqual([inPlace.property]);
        expect(diff.detaileddiffMap).toEqual([[inPlace.property, { kind: 4, inputdiff: true }]]); // UPDATE
        await emu.clearRequests();
        const outs = await plugin.update(c.type, c.name, id, outputs, news);
        expect(await writes()).toEqual([expect.stringMatching(inPlace.call)]);
        expect(reveal(outs[inPlace.property])).toEqual(inPlace.value);
        states[c.type] = { id, inputs: news, outputs: outs };
      });

    it("Diff of an input that cannot change in place asks for a replacement", async () => {
      const { id, inputs, outputs } = states[c.type];
      const news = { ...inputs, [c.replaces.property]: c.replaces.value };
      const diff = await plugin.diff(c.type, c.name, id, outputs, news);
      expect(diff.replacesList).toEqual([c.replaces.property]);
      expect(diff.detaileddiffMap).toEqual([[c.replaces.property, { kind: 5, inputdiff: true }]]); // UPDATE_REPLACE
    });

    it("Read (refresh) finds it as it is, with inputs that reproduce it", async () => {
      const { id, inputs, outputs } = states[c.type];
      const read = await plugin.read(c.type, c.name, id, outputs, inputs);
      expect(read.id).toBe(id);
      expect(read.properties?.[c.idOutput]).toBe(outputs[c.idOutput]);
      const diff = await plugin.diff(c.type, c.name, id, read.properties ?? {}, inputs);
      expect(diff.diffsList).toEqual([]);
      if (c.generatesName && inputs.__autoNamed) expect(read.inputs?.__autoNamed).toBe(true);
    });
  });

  it("Delete in the run that made it deletes nothing (invariant I2: the run holds it)", async () => {
    const c = CASES[0];
    const { id, outputs } = states[c.type];
    plugin.logs.length = 0;
    await plugin.delete(c.type, c.name, id, outputs);
    expect((await plugin.read(c.type, c.name, id, outputs)).id).toBe(id);
    expect(plugin.logs.map((l) => l.message).join("\n")).toMatch(/was not deleted \(no API call was made\)/);
  });

  describe("in the next run (a new plugin process, as the engine starts one per command)", () => {
    let next: TestPlugin;
    beforeAll(async () => {
      next = await startTestPlugin();
      await next.configureFor(emu);
    });
    afterAll(() => next?.close());

    it.each([...CASES].reverse())("Delete removes $type, and a Read then finds it gone", async (c) => {
      const { id, outputs } = states[c.type];
      await next.delete(c.type, c.name, id, outputs);
      const read = await next.read(c.type, c.name, id, outputs);
      expect(read.id).toBe("");
      expect(read.properties).toBeUndefined();
    });
  });
});

it("Read (import) of a service the API is still creating records it as it is, and says so, and that its password is unknown, under its URN", async () => {
  const made = await emu.withTransitionMs(
    () =>
      emu.api<{ service_id: string; status: string }>("POST", `${emu.projectPath}/services`, {
        name: "arriving",
        addons: ["time-series"],
        region_code: "us-east-1",
        cpu_millis: 1000,
        memory_gbs: 4,
      }),
    1_500,
  );
  const id = made.body.service_id;
  plugin.logs.length = 0;
  const read = await plugin.read("mdb:index:Service", "arriving", id, {});
  expect(read.id).toBe(id);
  expect(read.properties?.status).toBe("QUEUED");
  expect(plugin.logs).toEqual([
    {
      urn: urnOf("mdb:index:Service", "arriving"),
      severity: 1, // info, as every progress line
      message:
        `[mdb] service ${id} is QUEUED, not settled: recorded as the API shows it now; run \`pulumi refresh\` ` +
        "once it settles to record where it ends",
    },
    {
      urn: urnOf("mdb:index:Service", "arriving"),
      severity: 1,
      message: expect.stringMatching(
        /^\[mdb\] service arriving: its initial password is unknown to this stack .* so its connection outputs are null;/,
      ),
    },
  ]);
});
