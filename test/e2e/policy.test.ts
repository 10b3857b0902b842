/**
 * The policy pack under the real Pulumi CLI: `pulumi preview --policy-pack <repo>/policy` on a
 * program that breaks every mandatory policy fails and prints each violation; on the compliant
 * quickstart it passes; a `--policy-pack-config` file changes limits and levels, and the result
 * follows. Previews only: nothing is deployed, and the API is never called.
 */
import * as fs from "fs";
import * as path from "path";
import { policies } from "../../policy/policies";
import { CommandResult, EmulatorProcess, Workspace } from "./workspace";

jest.setTimeout(240_000);

const POLICY_PACK = path.resolve(__dirname, "../../policy");

/** A policy violation as the CLI prints it under "Policies:". */
interface Violation {
  level: string;
  policy: string;
  resource: string;
  message: string;
}

/**
 * The violations a preview printed. Each is a line `- [level] [severity: s]  policy  (type: name)`,
 * then the policy's description, then the message, up to the next violation or a blank line.
 */
function violationsOf(result: CommandResult): Violation[] {
  const lines = `${result.stdout}\n${result.stderr}`.split("\n");
  const found: Violation[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s+- \[(\w+)\] \[severity: \w+\]\s+(\S+)\s+\((.+): (.+)\)\s*$/.exec(lines[i]);
    if (!head) continue;
    const message: string[] = [];
    for (let j = i + 2; j < lines.length && lines[j].trim() !== "" && !/^\s+- \[/.test(lines[j]); j++) {
      message.push(lines[j].trim());
    }
    found.push({ level: head[1], policy: head[2], resource: head[4], message: message.join(" ") });
  }
  return found;
}

/** The violations the example is written to cause: policy, resource, parts of the message. */
const EXPECTED: Array<[policy: string, resource: RegExp, message: RegExp]> = [
  ["mdb-prod-service-ha", /^orders-db$/, /^Service "orders-db" is PROD but replicaCount is 0;/],
  ["mdb-prod-service-vpc", /^orders-db$/, /^Service "orders-db" is PROD but vpcId is not set;/],
  [
    "mdb-prod-service-protected",
    /^orders-db$/,
    /^Service "orders-db" is PROD but protect is false and deletionProtection is off;/,
  ],
  [
    "mdb-prod-replica-set-environment",
    /^orders-reads$/,
    /^ReadReplicaSet "orders-reads" replicates PROD Service "orders-db" but its environment is DEV;/,
  ],
  [
    "mdb-allowed-regions",
    /^faraway-db$/,
    /^Service "faraway-db" has regionCode "mars-north-1", which is not allowed;/,
  ],
  [
    "mdb-vpc-cidr",
    /^public-vpc$/,
    /^Vpc "public-vpc" has cidr "8\.8\.0\.0\/16", which is not a private \(RFC 1918\) range;/,
  ],
  [
    "mdb-vpc-cidr",
    /^huge-vpc$/,
    /^Vpc "huge-vpc" has cidr "172\.16\.0\.0\/12", a \/12 block, which is too large;/,
  ],
  // Reported on whichever of the two VPCs the engine lists second.
  [
    "mdb-vpc-cidr-no-overlap",
    /^(apps|batch)-vpc$/,
    /^Vpc "(apps|batch)-vpc" has cidr "10\.1\.(0\.0\/16|128\.0\/17)", which overlaps cidr "10\.1\.(0\.0\/16|128\.0\/17)" of Vpc "(apps|batch)-vpc";/,
  ],
];

/** Asserts that `found` holds exactly the expected violations (all mandatory) but those of `left`. */
function expectViolations(found: Violation[], left: Array<(typeof EXPECTED)[number]> = EXPECTED): void {
  for (const [policy, resource, message] of left) {
    const matching = found.filter(
      (v) => v.policy === policy && resource.test(v.resource) && message.test(v.message),
    );
    expect({ policy, resource: String(resource), message: String(message), matching }).toEqual({
      policy,
      resource: String(resource),
      message: String(message),
      matching: [expect.objectContaining({ level: "mandatory" })],
    });
  }
  expect(found).toHaveLength(left.length);
}

let emulator: EmulatorProcess;
let violating: Workspace;
let quickstart: Workspace;

/** `pulumi preview --policy-pack <repo>/policy`, with the config `config` if given. */
async function previewWithPack(ws: Workspace, config?: object): Promise<CommandResult> {
  const args = ["preview", "--policy-pack", POLICY_PACK];
  if (config) {
    const file = path.join(ws.dir, "policy-config.json");
    fs.writeFileSync(file, JSON.stringify(config));
    args.push("--policy-pack-config", file);
  }
  return ws.pulumi(args, { allowFailure: true });
}

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  violating = Workspace.create("policy-violations", emulator.url);
  await violating.stack("dev");
  quickstart = Workspace.create("quickstart", emulator.url);
  await quickstart.stack("dev");
});

afterAll(async () => {
  await emulator?.stop();
  violating?.remove();
  quickstart?.remove();
});

it("the violations example breaks every mandatory policy of the pack", () => {
  const mandatory = policies.filter((p) => p.enforcementLevel === "mandatory").map((p) => p.name);
  expect(new Set(EXPECTED.map(([policy]) => policy))).toEqual(new Set(mandatory));
});

it("on the violations example, preview exits non-zero and prints each violation with its value", async () => {
  const result = await previewWithPack(violating);
  expect(result.code).not.toBe(0);
  expectViolations(violationsOf(result));
});

it("on the compliant quickstart, preview with the pack passes", async () => {
  const result = await previewWithPack(quickstart);
  expect(result.code).toBe(0);
  // The pack did run: the CLI lists it, with no violation under it.
  expect(result.stdout).toMatch(/pulumi-managed-db@v\S+ \(local: /);
  expect(result.stdout).toContain(`(local: ${POLICY_PACK})`);
  expect(violationsOf(result)).toEqual([]);
});

it("a config lowering maxCpuMillis below the quickstart's 1000 at mandatory level fails its preview", async () => {
  const result = await previewWithPack(quickstart, {
    "mdb-service-size-limits": { enforcementLevel: "mandatory", maxCpuMillis: 500 },
  });
  expect(result.code).not.toBe(0);
  expect(violationsOf(result)).toEqual([
    {
      level: "mandatory",
      policy: "mdb-service-size-limits",
      resource: "db",
      message: expect.stringMatching(/^Service "db" has cpuMillis 1000m, above the limit of 500m;/),
    },
  ]);
});

it("the same limit at the policy's default level only warns, and the preview passes", async () => {
  const result = await previewWithPack(quickstart, { "mdb-service-size-limits": { maxCpuMillis: 500 } });
  expect(result.code).toBe(0);
  expect(violationsOf(result)).toEqual([
    expect.objectContaining({ level: "advisory", policy: "mdb-service-size-limits", resource: "db" }),
  ]);
});

it("a config disabling mdb-vpc-cidr and allowing the region removes exactly those violations", async () => {
  const result = await previewWithPack(violating, {
    "mdb-vpc-cidr": "disabled",
    "mdb-allowed-regions": { allowedRegions: ["us-east-1", "mars-north-1"] },
  });
  expect(result.code).not.toBe(0);
  expectViolations(
    violationsOf(result),
    EXPECTED.filter(([policy]) => policy !== "mdb-vpc-cidr" && policy !== "mdb-allowed-regions"),
  );
});

it("none of these previews changed anything through the API", async () => {
  expect(await emulator.calls()).toEqual([]);
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
});
