/**
 * Pulumi stores the serialized provider with every resource of a stack, and runs the stored
 * text again for refresh and destroy. So it stays small (code is loaded at call time), names
 * one stable module and a kind, and every module id a release ever stored keeps resolving:
 * the host, and the four resource modules 0.1.0 states name (see provider/kit/entry.ts).
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { HOST_MODULE, providerFor } from "../../provider/kit/entry";
import type { ResourceKind } from "../../provider/kit/spec";
import { PROVIDERS, providerOf } from "../../provider/host";

const root = path.resolve(__dirname, "../..");
const KINDS = Object.keys(PROVIDERS) as ResourceKind[];
const VALID: Record<ResourceKind, Record<string, unknown>> = {
  service: { name: "db", serviceType: "POSTGRES", regionCode: "r", cpuMillis: 1000, memoryGbs: 4 },
  "read-replica-set": { serviceId: "svc1", name: "r", nodes: 1, cpuMillis: 500, memoryGbs: 2 },
  vpc: { name: "core", cidr: "10.0.0.0/16", regionCode: "r" },
  "vpc-peering": { vpcId: "vpc1", peerAccountId: "a", peerRegionCode: "r", peerVpcId: "v" },
};

describe("serialized provider", () => {
  it("the dispatch map holds exactly the four kinds, named like 0.1.0's modules", () => {
    expect(KINDS).toEqual(["service", "read-replica-set", "vpc", "vpc-peering"]);
  });

  it.each(KINDS)("the %s provider serializes to under 3 KB and loads the host by name", async (kind) => {
    const provider = providerFor(kind);
    const serialized = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: false });
    const size = Buffer.byteLength(serialized.text);
    process.stdout.write(`serialized ${kind} provider: ${size} bytes\n`);
    expect(size).toBeLessThan(3 * 1024);
    expect(serialized.text).toContain(`"${HOST_MODULE}"`);
    expect(serialized.text).toContain(`"${kind}"`);
    expect(serialized.text).not.toContain("provider/resources");
    expect(serialized.text).not.toMatch(/axios|zod/);
  });

  it.each(KINDS)(
    "the %s provider, run from its serialized text, reaches the host's implementation",
    async (kind) => {
      const provider = providerFor(kind);
      const serialized = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: false });
      // What Pulumi's provider host does with the stored text (require-from-string).
      const module = { exports: {} as { handler?: () => pulumi.dynamic.ResourceProvider } };
      new Function("exports", "module", "require", serialized.text)(module.exports, module, require);
      const revived = (module.exports.handler as () => pulumi.dynamic.ResourceProvider)();
      expect(await revived.check!({}, VALID[kind])).toEqual(await PROVIDERS[kind].check({}, VALID[kind]));
    },
  );

  it.each(KINDS)("every %s resource shares one provider object, so a program serializes it once", (kind) => {
    expect(providerFor(kind)).toBe(providerFor(kind));
  });

  it("the host refuses a kind it does not know, saying why", () => {
    expect(() => providerOf("database")).toThrow(/kind "database" .*newer release/);
  });
});

describe("state contract: module ids stored by earlier releases", () => {
  const exportsMap = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).exports as Record<
    string,
    unknown
  >;

  it.each([
    ["pulumi-managed-db/dist/provider/host", "provider/host.ts"],
    ...KINDS.map((kind) => [
      `pulumi-managed-db/dist/provider/resources/${kind}`,
      `provider/resources/${kind}.ts`,
    ]),
  ])("package.json exports %s exactly, to the build of %s", (id, source) => {
    const target = exportsMap[id.replace("pulumi-managed-db/", "./")];
    expect(target).toBe(`./dist/${source.replace(/\.ts$/, ".js")}`);
    expect(fs.existsSync(path.join(root, source))).toBe(true);
  });

  it.each(KINDS)(
    "provider/resources/%s still exports the `impl` 0.1.0 states call, delegating to the host",
    async (kind) => {
      const legacy = require(path.join(root, "provider/resources", kind)) as {
        impl: Record<string, (...args: unknown[]) => Promise<unknown>>;
      };
      expect(Object.keys(legacy.impl).sort()).toEqual(
        ["check", "configure", "create", "delete", "diff", "read", "update"].sort(),
      );
      const olds = { ...VALID[kind], status: "active" };
      expect(await legacy.impl.check({}, VALID[kind])).toEqual(await PROVIDERS[kind].check({}, VALID[kind]));
      expect(await legacy.impl.diff("x", olds, VALID[kind])).toEqual(
        await PROVIDERS[kind].diff("x", olds, VALID[kind]),
      );
    },
  );
});
