/**
 * What every resource does alike, as one table over the four specs (no server): check names
 * each bad property once and fills in defaults; the diff table says which input replaces and
 * which changes in place (and with which planned call, by operation id); drift and values unknown during
 * preview show as changes; hidden inputs never do; a failed terminal state forces a
 * replacement; ids parse in every documented form. What is particular to one resource lives
 * in its own `resources-<name>.test.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { UNKNOWN } from "../../provider/kit/fields/check";
import { parseResourceId } from "../../provider/kit/fields/ids";
import type { ProviderImpl } from "../../provider/adapters/dynamic/provider";
import { type ResourceSpec, specOf } from "../../provider/kit/spec";
import { PROVIDERS } from "../../provider/host";
import { READ_REPLICA_SET } from "../../provider/resources/read-replica-set/fields";
import { planReplicaSet } from "../../provider/resources/read-replica-set/plan";
import type { ResourceKind } from "../../provider/resources/registry";
import { SERVICE } from "../../provider/resources/service/fields";
import { planService } from "../../provider/resources/service/plan";
import { VPC } from "../../provider/resources/vpc/fields";
import { planVpc } from "../../provider/resources/vpc/plan";
import { VPC_PEERING } from "../../provider/resources/vpc-peering/fields";

type Props = Record<string, unknown>;

/** A diff as the resources return it. */
type Diff = Required<pulumi.dynamic.DiffResult> & {
  detailedDiff: Record<string, { kind: string; inputDiff: boolean }>;
};

/** One resource's rows. */
interface SpecCase {
  spec: ResourceSpec;
  /** Minimal valid inputs. */
  valid: Props;
  /** `valid` after check: defaults filled in. */
  checked: Props;
  /** Observed outputs of a resource that matches `valid`. */
  observed: Props;
  /** The resource's id. */
  id: string;
  /** The update plan: the operations its steps call. */
  plan?: (have: never, want: never) => Array<{ op: string }>;
  /** Check rows: property, value, the one failure expected. */
  failures: Array<[string, unknown, RegExp]>;
  /** Several bad properties at once, and the failures (sorted). */
  several: [Props, string[]];
  /** Required inputs, reported by name when missing. */
  required: string[];
  /** Inputs whose unknown value (preview) is never reported. */
  unknowns: string[];
  /** Diff rows that replace: property, value, the diff kind. */
  replaces: Array<[string, unknown, string]>;
  /** Diff rows that change in place: property, value, the diff kind, the planned actions. */
  inPlace: Array<[string, unknown, string, string[]]>;
  /** Drift: observed outputs that differ from the program, and the property that shows it. */
  drift: Array<[Props, string]>;
  /** An input unknown during preview: property, `update` or `replace`, the diff kind. */
  unknownChanges: Array<[string, "update" | "replace", string]>;
  /** Ids that parse: text, what the state knows, the parts. */
  ids: Array<[string, Props, Props]>;
  /** Ids refused, and what the message says. */
  badIds: Array<[string, RegExp]>;
}

const service = {
  name: "orders-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
};
const vpc = { name: "core", cidr: "10.0.0.0/16", regionCode: "us-east-1" };
const replicaSet = { serviceId: "svc1", name: "reports", nodes: 2, cpuMillis: 1000, memoryGbs: 4 };
const peering = {
  vpcId: "vpc1",
  peerAccountId: "acct-9",
  peerRegionCode: "us-west-2",
  peerVpcId: "vpc-peer",
};
const serviceDefaults = {
  replicaCount: 0,
  syncReplicaCount: 0,
  environment: "DEV",
  connectionPooler: false,
  paused: false,
  deletionProtection: false,
  username: "tsdbadmin",
  databaseName: "tsdb",
  finalFork: false,
};

const CASES: SpecCase[] = [
  {
    spec: specOf(SERVICE),
    valid: service,
    // With the outputs the inputs show absent (no pooler, no VPC): `null`, known at a preview.
    checked: {
      ...service,
      ...serviceDefaults,
      poolerEndpoint: null,
      poolerConnectionUri: null,
      vpcEndpoint: null,
      vpcConnectionUri: null,
    },
    observed: {
      serviceId: "svc1",
      projectId: "proj",
      ...service,
      ...serviceDefaults,
      status: "READY",
      resources: [],
      readReplicaSets: [],
    },
    id: "svc1",
    plan: planService as SpecCase["plan"],
    failures: [
      ["cpuMillis", -1000, /^cpuMillis: must be a multiple of 250 from 250 to 64000$/],
      ["cpuMillis", 1000.5, /^cpuMillis: must be a multiple of 250 from 250 to 64000$/],
      ["cpuMillis", 1_000_000, /^cpuMillis: must be a multiple of 250 from 250 to 64000$/],
      ["cpuMillis", 64_250, /^cpuMillis: must be a multiple of 250 from 250 to 64000$/],
      ["cpuMillis", 1100, /cpuMillis: must be a multiple of 250/],
      ["memoryGbs", 0, /^memoryGbs: must be a whole number from 1 to 1024$/],
      ["memoryGbs", 1_000_000, /^memoryGbs: must be a whole number from 1 to 1024$/],
      ["memoryGbs", "4", /^memoryGbs: must be a number, not text: write it without quotes \(or "shared"\)$/],
      ["serviceType", "MYSQL", /serviceType: must be one of TIMESERIESDB, POSTGRES, VECTOR/],
      ["environment", "STAGING", /environment: must be PROD or DEV/],
      ["name", "", /name: must not be empty/],
      ["name", "   ", /name: must not be empty/],
      ["regionCode", "", /regionCode: must not be empty/],
      ["replicaCount", 3, /^replicaCount: must be a whole number from 0 to 2$/],
      ["password", "short", /^: property password \(secret\) must be at least 8 characters$/],
      ["connectionPooler", "yes", /^connectionPooler: must be true or false$/],
      ["deletionProtection", "yes", /^deletionProtection: must be true or false$/],
      ["username", " ", /^username: must not be empty$/],
      ["databaseName", "", /^databaseName: must not be empty$/],
      ["finalFork", "yes", /^finalFork: must be true, false or \{ name\?, cpuMillis\?, memoryGbs\? \}$/],
    ],
    several: [
      { cpuMillis: -1, memoryGbs: 1.5, environment: "QA" },
      [
        "cpuMillis: must be a multiple of 250 from 250 to 64000",
        "environment: must be PROD or DEV",
        "memoryGbs: must be a whole number from 1 to 1024",
      ],
    ],
    required: ["serviceType", "regionCode", "cpuMillis", "memoryGbs"],
    unknowns: ["cpuMillis", "vpcId"],
    replaces: [
      ["serviceType", "VECTOR", "UPDATE_REPLACE"],
      ["regionCode", "eu-west-1", "UPDATE_REPLACE"],
      ["forkFrom", { serviceId: "other", strategy: "NOW" }, "ADD_REPLACE"],
      ["projectId", "other", "UPDATE_REPLACE"],
    ],
    inPlace: [
      ["name", "orders-db-2", "UPDATE", ["renameService"]],
      ["cpuMillis", 2000, "UPDATE", ["resizeService"]],
      ["memoryGbs", 8, "UPDATE", ["resizeService"]],
      ["replicaCount", 1, "UPDATE", ["setHA"]],
      ["environment", "PROD", "UPDATE", ["setServiceEnvironment"]],
      ["password", "a-new-password", "ADD", ["updatePassword"]],
      ["connectionPooler", true, "UPDATE", ["enablePooler"]],
      ["vpcId", "vpc-1", "ADD", ["attachToVpc"]],
      ["paused", true, "UPDATE", ["stopService"]],
      ["deletionProtection", true, "UPDATE", []],
      ["username", "app_owner", "UPDATE", []],
      ["databaseName", "orders", "UPDATE", []],
      ["finalFork", true, "UPDATE", []],
      ["finalFork", { name: "orders-archive" }, "UPDATE", []],
    ],
    drift: [[{ cpuMillis: 3000 }, "cpuMillis"]],
    unknownChanges: [["vpcId", "update", "ADD"]],
    ids: [
      ["svc1", {}, { serviceId: "svc1" }],
      ["p/svc1", {}, { projectId: "p", serviceId: "svc1" }],
    ],
    badIds: [
      ["a/b/c", /"<serviceId>" or "<projectId>\/<serviceId>"/],
      ["p/", /not a service id/],
    ],
  },
  {
    spec: specOf(VPC),
    valid: vpc,
    checked: { ...vpc, deletionProtection: false },
    observed: { vpcId: "vpc1", projectId: "proj", ...vpc },
    id: "vpc1",
    plan: planVpc as SpecCase["plan"],
    failures: [
      ["name", "", /^name: must not be empty$/],
      ["name", "  ", /^name: must not be empty$/],
      ["regionCode", "", /^regionCode: must not be empty$/],
      ["projectId", "", /^projectId: must not be empty$/],
      ["cidr", 10, /^cidr: must be a string$/],
    ],
    several: [
      { name: "", cidr: "10.0.0.1/16" },
      ["cidr: has host bits set: write the block's network address, 10.0.0.0/16", "name: must not be empty"],
    ],
    required: ["cidr", "regionCode"],
    unknowns: ["cidr", "name"],
    replaces: [
      ["cidr", "10.1.0.0/16", "UPDATE_REPLACE"],
      ["regionCode", "eu-west-1", "UPDATE_REPLACE"],
      ["projectId", "other", "UPDATE_REPLACE"],
    ],
    inPlace: [
      ["name", "core-2", "UPDATE", ["renameVpc"]],
      ["deletionProtection", true, "UPDATE", []],
    ],
    drift: [[{ name: "renamed-by-hand" }, "name"]],
    unknownChanges: [["cidr", "replace", "UPDATE_REPLACE"]],
    ids: [
      ["vpc1", {}, { vpcId: "vpc1" }],
      ["p/vpc1", {}, { projectId: "p", vpcId: "vpc1" }],
    ],
    badIds: [
      ["a/b/c", /<projectId>\/<vpcId>/],
      ["p/", /not a VPC id/],
    ],
  },
  {
    spec: specOf(READ_REPLICA_SET),
    valid: replicaSet,
    checked: {
      ...replicaSet,
      environment: "DEV",
      connectionPooler: false,
      username: "tsdbadmin",
      databaseName: "tsdb",
      poolerEndpoint: null,
    },
    observed: {
      replicaSetId: "rrs1",
      projectId: "proj",
      ...replicaSet,
      status: "active",
      environment: "DEV",
      connectionPooler: false,
    },
    id: "svc1/rrs1",
    plan: planReplicaSet as SpecCase["plan"],
    failures: [
      ["nodes", -1, /^nodes: must be a whole number from 1 to 10$/],
      ["nodes", 0, /^nodes: must be a whole number from 1 to 10$/],
      ["nodes", 1.5, /^nodes: must be a whole number from 1 to 10$/],
      ["nodes", 11, /^nodes: must be a whole number from 1 to 10$/],
      ["nodes", 100, /^nodes: must be a whole number from 1 to 10$/],
      ["nodes", "2", /^nodes: must be a number/],
      ["cpuMillis", -250, /^cpuMillis: must be a multiple of 250 from 250 to 64000$/],
      ["cpuMillis", 300, /^cpuMillis: must be a multiple of 250 from 250 to 64000$/],
      ["cpuMillis", 500.5, /^cpuMillis: must be a multiple of 250 from 250 to 64000$/],
      ["memoryGbs", 0, /^memoryGbs: must be a whole number from 1 to 1024$/],
      ["memoryGbs", 2.5, /^memoryGbs: must be a whole number from 1 to 1024$/],
      ["memoryGbs", 1025, /^memoryGbs: must be a whole number from 1 to 1024$/],
      ["environment", "STAGING", /^environment: must be PROD or DEV$/],
      ["connectionPooler", "yes", /^connectionPooler: must be true or false$/],
      ["name", "", /^name: must not be empty$/],
      ["name", "   ", /^name: must not be empty$/],
      ["name", "x".repeat(129), /^name: must be at most 128 characters$/],
      ["serviceId", "", /^serviceId: must not be empty$/],
      ["projectId", "", /^projectId: must not be empty$/],
    ],
    several: [
      { nodes: -1, cpuMillis: 100, environment: "QA" },
      [
        "cpuMillis: must be a multiple of 250 from 250 to 64000",
        "environment: must be PROD or DEV",
        "nodes: must be a whole number from 1 to 10",
      ],
    ],
    required: ["serviceId", "nodes", "cpuMillis", "memoryGbs"],
    unknowns: ["serviceId", "nodes", "cpuMillis"],
    replaces: [
      ["serviceId", "svc2", "UPDATE_REPLACE"],
      ["name", "reports-2", "UPDATE_REPLACE"],
      ["projectId", "other-project", "UPDATE_REPLACE"],
    ],
    inPlace: [
      ["nodes", 3, "UPDATE", ["resizeReplicaSet"]],
      ["cpuMillis", 2000, "UPDATE", ["resizeReplicaSet"]],
      ["memoryGbs", 8, "UPDATE", ["resizeReplicaSet"]],
      ["environment", "PROD", "UPDATE", ["setReplicaSetEnvironment"]],
      ["connectionPooler", true, "UPDATE", ["enableReplicaSetPooler"]],
      ["password", "the-service-password", "ADD", []],
      ["username", "reader", "UPDATE", []],
      ["databaseName", "orders", "UPDATE", []],
    ],
    drift: [[{ nodes: 5 }, "nodes"]],
    unknownChanges: [
      ["nodes", "update", "UPDATE"],
      ["serviceId", "replace", "UPDATE_REPLACE"],
    ],
    ids: [
      ["svc1/rrs1", {}, { serviceId: "svc1", replicaSetId: "rrs1" }],
      ["p/svc1/rrs1", {}, { projectId: "p", serviceId: "svc1", replicaSetId: "rrs1" }],
      ["rrs1", { serviceId: "svc1" }, { serviceId: "svc1", replicaSetId: "rrs1" }],
    ],
    badIds: ["rrs1", "svc1/", "a/b/c/d", "/rrs1"].map((id) => [id, /<serviceId>\/<replicaSetId>/]),
  },
  {
    spec: specOf(VPC_PEERING),
    valid: peering,
    checked: peering,
    observed: { peeringId: "pcx1", projectId: "proj", ...peering, provisionedId: "prov1", status: "active" },
    id: "vpc1/pcx1",
    failures: ["vpcId", "peerAccountId", "peerRegionCode", "peerVpcId", "projectId"].map((p) => [
      p,
      " ",
      new RegExp(`^${p}: must not be empty$`),
    ]),
    several: [
      { peerVpcId: "", peerAccountId: 7 },
      ["peerAccountId: must be a string", "peerVpcId: must not be empty"],
    ],
    required: ["vpcId", "peerAccountId", "peerRegionCode", "peerVpcId"],
    unknowns: ["vpcId"],
    replaces: [
      ["vpcId", "vpc2", "UPDATE_REPLACE"],
      ["peerAccountId", "acct-1", "UPDATE_REPLACE"],
      ["peerRegionCode", "eu-west-1", "UPDATE_REPLACE"],
      ["peerVpcId", "vpc-other", "UPDATE_REPLACE"],
      ["projectId", "other", "UPDATE_REPLACE"],
    ],
    inPlace: [],
    drift: [[{ peerVpcId: "vpc-changed" }, "peerVpcId"]],
    unknownChanges: [["vpcId", "replace", "UPDATE_REPLACE"]],
    ids: [
      ["vpc1/pcx1", {}, { vpcId: "vpc1", peeringId: "pcx1" }],
      ["p/vpc1/pcx1", {}, { projectId: "p", vpcId: "vpc1", peeringId: "pcx1" }],
      ["pcx1", { vpcId: "vpc1" }, { vpcId: "vpc1", peeringId: "pcx1" }],
    ],
    badIds: [["pcx1", /<vpcId>\/<peeringId>/]],
  },
];

describe.each(CASES.map((c) => [c.spec.typeName, c] as const))("%s", (_name, c) => {
  const provider: ProviderImpl = PROVIDERS[c.spec.kind as ResourceKind];
  const failuresOf = async (news: Props) =>
    ((await provider.check({}, news)).failures ?? []).map((f) => `${f.property}: ${f.reason}`);
  const checked = async (news: Props) => (await provider.check({}, news)).inputs as Props;
  const diffOf = async (olds: Props, news: Props) =>
    (await provider.diff(c.id, olds, await checked(news))) as Diff;

  describe("check", () => {
    it("accepts the minimal inputs and fills in the defaults", async () => {
      const result = await provider.check({}, c.valid);
      expect(result.failures).toEqual([]);
      expect(result.inputs).toEqual(c.checked);
    });

    it.each(c.failures)("reports %s = %p, once", async (property, value, expected) => {
      const failures = await failuresOf({ ...c.valid, [property]: value });
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(expected);
    });

    it("reports one failure per bad property", async () => {
      expect((await failuresOf({ ...c.valid, ...c.several[0] })).sort()).toEqual(c.several[1]);
    });

    it.each(c.required)("reports a missing %s by name", async (property) => {
      const failures = await failuresOf({ ...c.valid, [property]: undefined });
      expect(failures.map((f) => f.split(":")[0])).toEqual([property]);
    });

    it("does not report values unknown during preview", async () => {
      const unknowns = Object.fromEntries(c.unknowns.map((p) => [p, UNKNOWN]));
      expect(await failuresOf({ ...c.valid, ...unknowns })).toEqual([]);
    });

    it("keeps the hidden inputs", async () => {
      const hidden = { __provider: "p", __timeouts: { create: 1 }, __autoNamed: true, __importId: "x" };
      expect(await checked({ ...c.valid, ...hidden })).toMatchObject(hidden);
    });
  });

  describe("diff", () => {
    it("shows no change when the observed resource matches the program (defaults included)", async () => {
      const result = await diffOf(c.observed, c.valid);
      expect(result.changes).toBe(false);
      expect(result.replaces).toEqual([]);
      expect(result.detailedDiff).toEqual({});
    });

    it("ignores the hidden inputs", async () => {
      const news = {
        ...c.valid,
        __timeouts: { create: 1000, delete: 1 },
        __autoNamed: true,
        __importId: "x",
      };
      expect((await diffOf(c.observed, news)).changes).toBe(false);
    });

    it.each(c.replaces)("replaces on %s", async (property, value, kind) => {
      const result = await diffOf(c.observed, { ...c.valid, [property]: value });
      expect(result.changes).toBe(true);
      expect(result.replaces).toEqual([property]);
      expect(result.detailedDiff).toEqual({ [property]: { kind, inputDiff: true } });
      expect(result.deleteBeforeReplace).toBe(c.spec.deleteBeforeReplace === true);
    });

    if (c.inPlace.length > 0) {
      it.each(c.inPlace)("updates %s in place (%p, %s) with %j", async (property, value, kind, actions) => {
        const news = { ...c.valid, [property]: value };
        const result = await diffOf(c.observed, news);
        expect(result.changes).toBe(true);
        expect(result.replaces).toEqual([]);
        expect(result.detailedDiff).toEqual({ [property]: { kind, inputDiff: true } });
        const steps = c.plan!(c.observed as never, (await checked(news)) as never);
        expect(steps.map((s) => s.op)).toEqual(actions);
      });

      it("plans nothing when the observed resource matches (re-run safety)", async () => {
        expect(c.plan!(c.observed as never, (await checked(c.valid)) as never)).toEqual([]);
      });
    }

    it.each(c.drift)("shows drift %j as a change of %s back to the program", async (observed, property) => {
      const result = await diffOf({ ...c.observed, ...observed }, c.valid);
      expect(Object.keys(result.detailedDiff)).toEqual([property]);
      expect(result.detailedDiff[property].kind).toMatch(/^UPDATE/);
    });

    it.each(c.unknownChanges)(
      "treats %s unknown during preview as a change (%s)",
      async (property, change, kind) => {
        const result = await diffOf(c.observed, { ...c.valid, [property]: UNKNOWN });
        expect(result.changes).toBe(true);
        expect(result.detailedDiff[property].kind).toBe(kind);
        expect(result.replaces).toEqual(change === "replace" ? [property] : []);
      },
    );

    if (c.spec.failedStatus) {
      it(`replaces a resource observed in the failed state \`${c.spec.failedStatus}\`, deleting it first`, async () => {
        const result = await diffOf({ ...c.observed, status: c.spec.failedStatus }, c.valid);
        expect(result.changes).toBe(true);
        expect(result.replaces).toEqual(["status"]);
        expect(result.detailedDiff).toEqual({ status: { kind: "UPDATE_REPLACE", inputDiff: false } });
        expect(result.deleteBeforeReplace).toBe(true);
      });
    }
  });

  describe("ids", () => {
    it.each(c.ids)("reads %p", (text, known, parts) => {
      expect(parseResourceId(c.spec.id, text, known)).toEqual(parts);
    });

    it.each(c.badIds)("refuses %p with the expected forms", (text, expected) => {
      expect(() => parseResourceId(c.spec.id, text)).toThrow(expected);
    });
  });
});
