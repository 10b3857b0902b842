/**
 * The Pulumi releases the repository names agree with each other: the CI matrix of .ci/run, the
 * peer range of package.json, the Go modules of tools/releases/ that build the newest release's
 * CLI, the policy pack's own pin, and what README.md promises. `scripts/upgrade-pulumi` moves them
 * together; this fails when one is moved by hand and another is not.
 */
import * as fs from "fs";
import * as path from "path";

import { ROOT as root, pulumiPins, read } from "../helpers/pins";

/** The value of `NAME=...` in .ci/run. */
function ciVariable(name: string): string {
  const match = new RegExp(`^${name}=(\\S+)$`, "m").exec(read(".ci/run"));
  if (!match) throw new Error(`.ci/run sets no ${name}`);
  return match[1];
}

/** -1, 0 or 1 as version a is below, equal to or above version b (X.Y.Z). */
function compare(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return Math.sign(x[i] - y[i]);
  return 0;
}

const locked = JSON.parse(read("package-lock.json")).packages["node_modules/@pulumi/pulumi"]
  .version as string;
const peer = JSON.parse(read("package.json")).peerDependencies["@pulumi/pulumi"] as string;
const newest = ciVariable("PULUMI_NEWEST");
const oldest = ciVariable("PULUMI_OLDEST");

describe("the release matrix", () => {
  it("runs the oldest release the peer range admits: the range is ^<oldest>", () => {
    expect(peer).toBe(`^${oldest}`);
  });

  it("orders oldest <= pinned <= newest, all in one major", () => {
    expect([compare(oldest, locked), compare(locked, newest)]).not.toContain(1);
    expect(new Set([oldest, locked, newest].map((v) => v.split(".")[0])).size).toBe(1);
  });

  it("builds the newest release's CLI from tools/releases/<newest>, unless it is the pin", () => {
    const releases = fs.existsSync(path.join(root, "tools/releases"))
      ? fs.readdirSync(path.join(root, "tools/releases")).sort()
      : [];
    expect(releases).toEqual(newest === locked ? [] : [newest]);
  });

  it.each(
    fs.existsSync(path.join(root, "tools/releases")) ? fs.readdirSync(path.join(root, "tools/releases")) : [],
  )(
    "tools/releases/%s: CLI and language host pin one Pulumi release of its major, newer than the pin, and its README names it and says why when it is another",
    (release) => {
      const cli = pulumiPins(`tools/releases/${release}/pulumi/go.mod`);
      const host = pulumiPins(`tools/releases/${release}/pulumi-language-nodejs/go.mod`);
      const version = cli["pkg/v3"];
      expect(cli).toEqual({ "pkg/v3": version, "sdk/v3": version });
      expect(host).toEqual({ "pkg/v3": version, "sdk/v3": version });
      expect(version.split(".")[0]).toBe(release.split(".")[0]);
      expect(compare(version, locked)).toBe(1);
      const readme = read(`tools/releases/${release}/README.md`);
      expect(readme).toContain(`\`github.com/pulumi/pulumi/pkg/v3\` v${version}`);
      if (version !== release) {
        expect(readme).toContain(`does not serve \`pkg/v3\` v${release}, so both are built from v${version}`);
      }
    },
  );
});

describe("the other pins", () => {
  it("the policy pack pins the same @pulumi/pulumi", () => {
    expect(JSON.parse(read("policy/package.json")).dependencies["@pulumi/pulumi"]).toBe(locked);
  });

  it("README names the peer range and each release the matrix runs", () => {
    const readme = read("README.md");
    expect(readme).toContain(`\`${peer}\``);
    for (const version of [oldest, locked, newest]) expect(readme).toContain(version);
  });
});

describe("the policy pack's reliance on @pulumi/policy internals", () => {
  it("is policy/reliances.ts alone: no other file of the pack requires a private path of @pulumi/", () => {
    const files = ["", "policies"].flatMap((dir) =>
      fs
        .readdirSync(path.join(root, "policy", dir))
        .filter((name) => name.endsWith(".ts"))
        .map((name) => path.join("policy", dir, name)),
    );
    const private_ = /(require\(|from )"@pulumi\/[\w-]+\/[^"]+"/;
    expect(files.filter((file) => private_.test(read(file)))).toEqual(["policy/reliances.ts"]);
  });

  it("still finds @pulumi/policy's markers of unknown values, one string per type", () => {
    const { UNKNOWN_MARKERS } = require("../../policy/reliances") as {
      UNKNOWN_MARKERS: ReadonlySet<unknown>;
    };
    expect(UNKNOWN_MARKERS.size).toBeGreaterThanOrEqual(2);
    for (const marker of UNKNOWN_MARKERS) expect(typeof marker).toBe("string");
  });
});
