/**
 * What `check` says, for every resource (no server): a property the resource does not know
 * fails, suggesting the closest known one; a missing required one `is required`; every reason
 * is in the kit's wording, never the validation library's default sentences; sizes follow the
 * service's limits from the contract (api/limits.ts). Then the pieces: the suggestion, the
 * configuration problems, and the configuration check once the provider host has configured
 * the provider. Access (401/403) and the VPC lookup need a server: test/integration/preflight.test.ts.
 */
import { CPU_MILLIS, MEMORY_GBS, REPLICA_SET_NODES } from "../../api/limits";
import { configProblems } from "../../provider/config";
import { PROVIDERS } from "../../provider/host";
import { inputNames } from "../../provider/kit/fields/check";
import { type ResourceSpec, specOf } from "../../provider/kit/spec";
import { closest } from "../../provider/kit/messages/suggest";
import { REGISTRY, type ResourceKind } from "../../provider/resources/registry";

type Props = Record<string, unknown>;

const VALID: Record<ResourceKind, Props> = {
  service: { name: "db", serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4 },
  "read-replica-set": { serviceId: "svc1", name: "r", nodes: 1, cpuMillis: 500, memoryGbs: 2 },
  vpc: { name: "core", cidr: "10.0.0.0/16", regionCode: "us-east-1" },
  "vpc-peering": { vpcId: "vpc1", peerAccountId: "a", peerRegionCode: "us-east-1", peerVpcId: "v" },
};
const KINDS = Object.keys(VALID) as ResourceKind[];
const SPECS = Object.fromEntries(KINDS.map((kind) => [kind, specOf(REGISTRY[kind].definition)])) as Record<
  ResourceKind,
  ResourceSpec
>;

async function failuresOf(kind: ResourceKind, news: Props): Promise<string[]> {
  const result = await PROVIDERS[kind].check({}, news);
  return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

describe("a property the resource does not know", () => {
  it.each([
    ["service", "diskGbs", "is not an input of Service; did you mean memoryGbs?"],
    ["service", "cpu", "is not an input of Service; did you mean cpuMillis?"],
    ["service", "enviroment", "is not an input of Service; did you mean environment?"],
    ["service", "pooler", "is not an input of Service; did you mean connectionPooler?"],
    ["service", "status", "is an output of Service, not an input"],
    ["read-replica-set", "nodeCount", "is not an input of ReadReplicaSet; did you mean nodes?"],
    ["read-replica-set", "endpoint", "is an output of ReadReplicaSet, not an input"],
    ["vpc", "region", "is not an input of Vpc; did you mean regionCode?"],
    ["vpc", "cidrBlock", "is not an input of Vpc; did you mean cidr?"],
    ["vpc-peering", "peerRegion", "is not an input of VpcPeering; did you mean peerRegionCode?"],
    ["vpc-peering", "accountId", "is not an input of VpcPeering; did you mean peerAccountId?"],
  ] as const)("%s %s: %s", async (kind, property, reason) => {
    // Reported as the resource's failure, naming the property, so Pulumi prints no value beside it.
    expect(await failuresOf(kind, { ...VALID[kind], [property]: 1 })).toEqual([
      `: property ${property} ${reason}`,
    ]);
  });

  it("is reported beside the other bad properties", async () => {
    const failures = await failuresOf("service", { ...VALID.service, diskGbs: 100, cpuMillis: 1 });
    expect(failures.sort()).toEqual([
      ": property diskGbs is not an input of Service; did you mean memoryGbs?",
      "cpuMillis: must be a multiple of 250 from 250 to 64000",
    ]);
  });

  it("inside forkFrom, names it and suggests the closest field, as the resource's failures", async () => {
    const forkFrom = { serviceId: "svc0", strategie: "NOW" };
    // The engine prints a property's value beside its failure: an object would print as a Go map.
    expect(await failuresOf("service", { ...VALID.service, forkFrom })).toEqual([
      ": property forkFrom.strategy is required",
      ": property forkFrom has no property strategie; did you mean strategy?",
    ]);
  });

  it.each(KINDS)("%s: the hidden inputs the kit adds are known", async (kind) => {
    const hidden = { __provider: "p", __timeouts: { create: 1 }, __autoNamed: true, __importId: "x" };
    expect(await failuresOf(kind, { ...VALID[kind], ...hidden })).toEqual([]);
  });
});

describe("wording", () => {
  const REQUIRED: Record<ResourceKind, string[]> = {
    service: ["serviceType", "regionCode", "cpuMillis", "memoryGbs"],
    "read-replica-set": ["serviceId", "nodes", "cpuMillis", "memoryGbs"],
    vpc: ["cidr", "regionCode"],
    "vpc-peering": ["vpcId", "peerAccountId", "peerRegionCode", "peerVpcId"],
  };
  it.each(KINDS.flatMap((kind) => REQUIRED[kind].map((p) => [kind, p] as const)))(
    "%s without %s: `is required`",
    async (kind, property) => {
      expect(await failuresOf(kind, { ...VALID[kind], [property]: undefined })).toEqual([
        `${property}: is required`,
      ]);
    },
  );

  // Every input of every resource, given values of every wrong kind: no library sentence leaks.
  const BAD_VALUES: unknown[] = [null, "", " ", "text", -1, 0, 1.5, 1e9, true, [], {}, ["x"], { a: 1 }];
  it.each(KINDS)("%s: every reason for a bad value is ours", async (kind) => {
    const names = inputNames(SPECS[kind].inputs);
    const reasons: string[] = [];
    for (const property of names)
      for (const value of BAD_VALUES)
        reasons.push(...(await failuresOf(kind, { ...VALID[kind], [property]: value })));
    expect(reasons.length).toBeGreaterThan(names.length);
    const library =
      /Invalid input|Invalid option|Too small|Too big|expected \w+, received|Unrecognized key|Invalid string/;
    expect(reasons.filter((r) => library.test(r))).toEqual([]);
  });

  it.each([
    [
      "forkFrom",
      { serviceId: "s", strategy: "LATEST" },
      ": property forkFrom.strategy must be one of LAST_SNAPSHOT, NOW, PITR",
    ],
    [
      "forkFrom",
      { serviceId: "s", strategy: "PITR", targetTime: "yesterday" },
      ": property forkFrom.targetTime must be an ISO 8601 date-time with a zone, e.g. 2026-11-01T10:00:00Z",
    ],
    [
      "forkFrom",
      { serviceId: "s", strategy: "PITR", targetTime: "2026-11-01T10:00:00" },
      ": property forkFrom.targetTime has no time zone: add one, e.g. 2026-11-01T10:00:00Z (UTC) or 2026-11-01T10:00:00+02:00",
    ],
    [
      "forkFrom",
      { serviceId: "s", strategy: "PITR", targetTime: "2026-11-01T10:00" },
      ": property forkFrom.targetTime has no time zone: add one, e.g. 2026-11-01T10:00:00Z (UTC) or 2026-11-01T10:00:00+02:00",
    ],
    ["forkFrom", "svc-1", "forkFrom: must be an object"],
    [
      "finalFork",
      { cpuMillis: 100 },
      ": property finalFork.cpuMillis must be a multiple of 250 from 250 to 64000",
    ],
    ["environment", "QA", "environment: must be PROD or DEV"],
    ["paused", "no", "paused: must be true or false"],
    ["cpuMillis", "1000", 'cpuMillis: must be a number, not text: write it without quotes (or "shared")'],
    ["cpuMillis", "1100", 'cpuMillis: must be a number, not text: write it without quotes (or "shared")'],
    ["cpuMillis", "lots", 'cpuMillis: must be a multiple of 250 from 250 to 64000, or "shared"'],
    ["memoryGbs", " 8 ", 'memoryGbs: must be a number, not text: write it without quotes (or "shared")'],
    ["replicaCount", "1", "replicaCount: must be a number, not text: write it without quotes"],
    ["cpuMillis", true, "cpuMillis: must be a number"],
    ["name", 7, "name: must be a string"],
  ])("service %s = %p: %s", async (property, value, expected) => {
    expect(await failuresOf("service", { ...VALID.service, [property]: value })).toEqual([expected]);
  });
});

describe("secret inputs: a failure names the property, and Pulumi has no value to print", () => {
  // Pulumi prints `property X value V has a problem` for a failure that names property X, with the
  // program's value V, secret or not: a secret's failure is the resource's, naming X in its reason.
  const SECRET_INPUTS = KINDS.flatMap((kind) =>
    SPECS[kind].inputNames
      .filter((name) => SPECS[kind].secretOutputs.includes(name))
      .map((n) => [kind, n] as const),
  );
  it("covers every secret input of the four kinds", () => {
    expect(SECRET_INPUTS).toEqual([
      ["service", "password"],
      ["read-replica-set", "password"],
    ]);
  });
  const VALUES: unknown[] = ["short7!", "", 918273645, true, ["a-secret-list"], { a: "secret-object" }];
  it.each(SECRET_INPUTS)("%s %s", async (kind, property) => {
    let failed = 0;
    for (const value of VALUES) {
      const { failures = [] } = await PROVIDERS[kind].check({}, { ...VALID[kind], [property]: value });
      for (const failure of failures) {
        failed++;
        expect(failure.property).toBe("");
        expect(failure.reason).toMatch(new RegExp(`^property ${property} \\(secret\\) (must|is)`));
        for (const shown of [String(value), JSON.stringify(value)].filter((t) => t.length > 3))
          expect(failure.reason).not.toContain(shown);
      }
    }
    expect(failed).toBeGreaterThanOrEqual(VALUES.length - 1);
  });
});

describe("a number written as text", () => {
  const NUMERIC = KINDS.flatMap((kind) =>
    Object.entries(VALID[kind])
      .filter(([, value]) => typeof value === "number")
      .map(([property, value]) => [kind, property, value as number] as const),
  );
  it.each(NUMERIC)('%s %s = "%p": must be a number, not text', async (kind, property, value) => {
    const [failure] = await failuresOf(kind, { ...VALID[kind], [property]: String(value) });
    expect(failure).toMatch(new RegExp(`^${property}: must be a number, not text: write it without quotes`));
  });
});

describe("limits from the contract", () => {
  const rows: Array<[ResourceKind, string, number, string]> = [
    ["service", "cpuMillis", CPU_MILLIS.max as number, "must be a multiple of 250 from 250 to 64000"],
    ["service", "memoryGbs", MEMORY_GBS.max as number, "must be a whole number from 1 to 1024"],
    [
      "read-replica-set",
      "cpuMillis",
      CPU_MILLIS.max as number,
      "must be a multiple of 250 from 250 to 64000",
    ],
    ["read-replica-set", "memoryGbs", MEMORY_GBS.max as number, "must be a whole number from 1 to 1024"],
    ["read-replica-set", "nodes", REPLICA_SET_NODES.max as number, "must be a whole number from 1 to 10"],
  ];
  it.each(rows)(
    "%s %s: the largest the API takes, %p, passes; one step more fails",
    async (kind, p, max, rule) => {
      expect(await failuresOf(kind, { ...VALID[kind], [p]: max })).toEqual([]);
      const step = p === "cpuMillis" ? (CPU_MILLIS.step as number) : 1;
      expect(await failuresOf(kind, { ...VALID[kind], [p]: max + step })).toEqual([`${p}: ${rule}`]);
    },
  );

  it.each([
    ["service", "cpuMillis", CPU_MILLIS.min],
    ["service", "memoryGbs", MEMORY_GBS.min],
    ["read-replica-set", "nodes", REPLICA_SET_NODES.min],
  ] as const)("%s %s: the smallest the API takes, %p, passes", async (kind, p, min) => {
    expect(await failuresOf(kind, { ...VALID[kind], [p]: min })).toEqual([]);
  });
});

describe("closest", () => {
  it.each([
    ["diskGbs", "memoryGbs"],
    ["cpuMilis", "cpuMillis"],
    ["type", "serviceType"],
    ["replicas", "replicaCount"],
    ["vpcID", "vpcId"],
  ])("suggests for %s: %s", (name, expected) => {
    expect(
      closest(name, Object.keys({ ...VALID.service, replicaCount: 0, vpcId: "", environment: "" })),
    ).toBe(expected);
  });

  it("has nothing to suggest among no candidates", () => {
    expect(closest("x", [])).toBeUndefined();
  });
});

describe("configuration problems", () => {
  const keys = { MDB_PUBLIC_KEY: "pub", MDB_SECRET_KEY: "sec" };
  const config = (values: Record<string, string>) => ({ get: (k: string) => values[k] });

  it.each(["https://api.example.com", "http://127.0.0.1:8080", "http://localhost/public/api/v1"])(
    "accepts %s",
    (url) => {
      expect(configProblems(undefined, { ...keys, MDB_API_URL: url })).toEqual([]);
    },
  );

  it.each([
    ["not a url", /^mdb:apiUrl \/ MDB_API_URL: API URL "not a url" is not a valid URL$/],
    [
      "http://api.example.com",
      /^mdb:apiUrl \/ MDB_API_URL: .*plain http:\/\/ to a non-loopback host.*https:\/\//,
    ],
    ["ftp://api.example.com", /^mdb:apiUrl \/ MDB_API_URL: .*must use https:\/\//],
    ["https://user:pw@api.example.com", /^mdb:apiUrl \/ MDB_API_URL: API URL must not carry credentials/],
  ])("refuses the API URL %p, naming the config key and the variable", (url, expected) => {
    const problems = configProblems(config({ "mdb:apiUrl": url }), keys);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
    expect(problems[0]).not.toContain("pw@");
  });

  it("names each missing setting with its config key, the command and the variable", () => {
    expect(configProblems(undefined, { MDB_API_URL: "https://a" })).toEqual([
      "mdb:publicKey is required: set it with `pulumi config set mdb:publicKey <value>` or the environment variable MDB_PUBLIC_KEY",
      "mdb:secretKey is required: set it with `pulumi config set mdb:secretKey --secret <value>` or the environment variable MDB_SECRET_KEY",
    ]);
  });
});

describe("check in the provider host", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("reports the configuration as a problem of the resource, beside bad inputs, without an API call", async () => {
    process.env = { ...saved, MDB_API_URL: "http://api.example.com", MDB_PUBLIC_KEY: "pub" };
    delete process.env.MDB_SECRET_KEY;
    const provider = PROVIDERS.vpc;
    await provider.configure?.({ config: { get: () => undefined } } as never);
    const result = await provider.check({}, { ...VALID.vpc, cidr: "10.0.0.1/16" });
    expect((result.failures ?? []).map((f) => `${f.property}: ${f.reason}`)).toEqual([
      "cidr: has host bits set: write the block's network address, 10.0.0.0/16",
      expect.stringMatching(/^: mdb:secretKey is required: .*MDB_SECRET_KEY$/),
      expect.stringMatching(/^: mdb:apiUrl \/ MDB_API_URL: .*plain http:\/\/ to a non-loopback host/),
    ]);
  });
});
