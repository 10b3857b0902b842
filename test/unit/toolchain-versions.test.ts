/**
 * The versions the toolchain is pinned at agree: the Pulumi CLI, Node.js, Python and Go language hosts
 * and sdkgen that scripts/ensure-pulumi builds from tools/ are the locked @pulumi/pulumi release (the YAML
 * language host is pulumi-yaml's, on the Pulumi release pulumi-yaml requires; sdkgen-csharp is the last
 * release that carried Pulumi's C# generator), and the Node.js
 * releases package.json's engines names are the ones CI runs the tests on.
 */

import { pulumiPins, read } from "../helpers/pins";
const checkNode = require("../../scripts/check-node.js") as {
  satisfies(version: string, range: string): boolean;
  warning(version: string, range: string): string;
};

const locked = JSON.parse(read("package-lock.json")).packages["node_modules/@pulumi/pulumi"]
  .version as string;
const engines = JSON.parse(read("package.json")).engines.node as string;

describe("the Pulumi version pinned in tools/", () => {
  it("is the locked @pulumi/pulumi for the CLI (pkg/v3 and sdk/v3)", () => {
    expect(pulumiPins("tools/pulumi/go.mod")).toEqual({ "pkg/v3": locked, "sdk/v3": locked });
  });

  it.each(["pulumi-language-nodejs", "sdkgen"])(
    "is the locked @pulumi/pulumi for tools/%s (pkg/v3 and sdk/v3: the SDK generators)",
    (module) => {
      expect(pulumiPins(`tools/${module}/go.mod`)).toEqual({ "pkg/v3": locked, "sdk/v3": locked });
    },
  );

  it("is the locked @pulumi/pulumi for tools/langhosts (sdk/v3: the Python and Go hosts and the Python program runner)", () => {
    expect(pulumiPins("tools/langhosts/go.mod")).toEqual({ "sdk/v3": locked });
  });

  it("is v3.228.0 for tools/sdkgen-csharp: the last pkg/v3 with Pulumi's C# generator, older than the locked one", () => {
    expect(pulumiPins("tools/sdkgen-csharp/go.mod")).toEqual({ "pkg/v3": "3.228.0", "sdk/v3": "3.228.0" });
    const [csharp, cli] = ["3.228.0", locked].map((v) => v.split(".").map(Number));
    expect(csharp[1] * 1e6 + csharp[2]).toBeLessThanOrEqual(cli[1] * 1e6 + cli[2]);
  });

  it("is pulumi-yaml's own for the YAML language host: one release, not newer than the locked one", () => {
    const goMod = read("tools/pulumi-language-yaml/go.mod");
    expect(goMod).toMatch(/^tool github\.com\/pulumi\/pulumi-yaml\/cmd\/pulumi-language-yaml$/m);
    expect(goMod).toMatch(/^require github\.com\/pulumi\/pulumi-yaml v\d+\.\d+\.\d+ \/\/ indirect$/m);
    const pins = pulumiPins("tools/pulumi-language-yaml/go.mod");
    expect(pins["sdk/v3"]).toBe(pins["pkg/v3"]);
    const [yaml, cli] = [pins["sdk/v3"], locked].map((v) => v.split(".").map(Number));
    expect(yaml[0]).toBe(cli[0]);
    expect(yaml[1] * 1e6 + yaml[2]).toBeLessThanOrEqual(cli[1] * 1e6 + cli[2]);
  });
});

describe("the supported Node.js versions", () => {
  it("are the majors .ci/run tests on, each named by engines", () => {
    const legs = /^NODE_MAJORS=\(([\d ]+)\)/m.exec(read(".ci/run"));
    expect(legs).not.toBeNull();
    const majors = legs![1].trim().split(/\s+/).sort();
    const named = engines.split("||").map((range) => range.trim().replace(/^\^/, "").split(".")[0]);
    expect(named.sort()).toEqual(majors);
  });

  it("accept the LTS lines from engines' minimum and refuse the others, with one line saying so", () => {
    const range = "^22.13.0 || ^24.0.0";
    for (const version of ["v22.13.0", "v22.23.3", "v24.0.0", "v24.21.0"]) {
      expect([version, checkNode.satisfies(version, range), checkNode.warning(version, range)]).toEqual([
        version,
        true,
        "",
      ]);
    }
    for (const version of ["v20.20.2", "v22.12.9", "v23.11.0", "v26.1.0"]) {
      expect([version, checkNode.satisfies(version, range)]).toEqual([version, false]);
    }
    const text = checkNode.warning("v20.20.2", range);
    expect(text).toBe(
      "pulumi-managed-db: Node.js v20.20.2 is not supported; use Node.js 22 or 24 (LTS, tested in CI; engines: ^22.13.0 || ^24.0.0)",
    );
  });
});
