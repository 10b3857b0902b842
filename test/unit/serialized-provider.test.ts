/**
 * Pulumi stores the serialized provider with every resource of a stack, and runs the stored
 * text again for refresh and destroy. So it stays small (code is loaded at call time), names
 * one stable module and a kind, and every module id a release ever stored keeps resolving:
 * the host, and the four resource modules 0.1.0 states name (see provider/pulumi-contract/provider-text.ts).
 */
import * as fs from "fs";
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";
import { HOST_MODULE, providerText } from "../../provider/pulumi-contract/provider-text";
import type { ResourceKind } from "../../provider/resources/registry";
import { PROVIDERS, providerOf } from "../../provider/host";

const root = path.resolve(__dirname, "../..");
const KINDS = Object.keys(PROVIDERS) as ResourceKind[];
const VALID: Record<ResourceKind, Record<string, unknown>> = {
  service: { name: "db", serviceType: "POSTGRES", regionCode: "r", cpuMillis: 1000, memoryGbs: 4 },
  "read-replica-set": { serviceId: "svc1", name: "r", nodes: 1, cpuMillis: 500, memoryGbs: 2 },
  vpc: { name: "core", cidr: "10.0.0.0/16", regionCode: "r" },
  "vpc-peering": { vpcId: "vpc1", peerAccountId: "a", peerRegionCode: "r", peerVpcId: "v" },
};

const METHODS = ["check", "configure", "create", "delete", "diff", "read", "update"];

/** What Pulumi's provider host does with a stored `__provider` text (require-from-string, then `handler()`). */
function revive(text: string): pulumi.dynamic.ResourceProvider {
  const module = { exports: {} as { handler?: () => pulumi.dynamic.ResourceProvider } };
  new Function("exports", "module", "require", text)(module.exports, module, require);
  return (module.exports.handler as () => pulumi.dynamic.ResourceProvider)();
}

describe("serialized provider", () => {
  it("the dispatch map holds exactly the four kinds, named like 0.1.0's modules", () => {
    expect(KINDS).toEqual(["service", "read-replica-set", "vpc", "vpc-peering"]);
  });

  it.each(KINDS)("the %s provider text is under 3 KB and loads the host by name", (kind) => {
    const text = providerText(kind);
    const size = Buffer.byteLength(text);
    process.stdout.write(`provider text of ${kind}: ${size} bytes\n`);
    expect(size).toBeLessThan(3 * 1024);
    expect(text).toContain(`"${HOST_MODULE}"`);
    expect(text).toContain(`"${kind}"`);
    expect(text).not.toContain("provider/resources");
    expect(text).not.toMatch(/axios|zod/);
  });

  it.each(KINDS)("the %s provider, run from its text, reaches the host's implementation", async (kind) => {
    const revived = revive(providerText(kind));
    expect(Object.keys(revived).sort()).toEqual(METHODS);
    expect(await revived.check!({}, VALID[kind])).toEqual(await PROVIDERS[kind].check({}, VALID[kind]));
  });

  it.each(KINDS)("every %s resource stores the same text, made once per program", (kind) => {
    expect(providerText(kind)).toBe(providerText(kind));
  });

  // The text stored is exactly ours: Pulumi's closure serializer, which would have made another, never ran.
  it("a resource stores its kind's text, not a serialized closure", async () => {
    const registered: Array<{ type: string; inputs: Record<string, unknown> }> = [];
    const runtime = (require("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).runtime;
    await runtime.setMocks(
      {
        newResource: (args) => {
          registered.push({ type: args.type, inputs: args.inputs });
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: (args) => args.inputs,
      },
      "serialized-provider",
      "test",
    );
    const { Vpc } = require("../../provider/resources/vpc") as typeof import("../../provider/resources/vpc");
    const vpc = new Vpc("net", { cidr: "10.0.0.0/16", regionCode: "r" });
    await new Promise((resolve) => vpc.urn.apply(resolve));
    expect(registered).toEqual([
      {
        type: "pulumi-nodejs:dynamic/mdb:Vpc",
        inputs: expect.objectContaining({ __provider: providerText("vpc") }),
      },
    ]);
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
      `provider/resources/${kind}/index.ts`,
    ]),
  ])("package.json exports %s exactly, to the build of %s", (id, source) => {
    const target = exportsMap[id.replace("pulumi-managed-db/", "./")];
    expect(target).toBe(`./dist/${source.replace(/\.ts$/, ".js")}`);
    expect(fs.existsSync(path.join(root, source))).toBe(true);
    // The fallback 0.1.0 stored: the module's path without the package name resolves too.
    expect(require.resolve(path.join(root, id.replace("pulumi-managed-db/", "")))).toBe(
      path.join(root, `dist/${source.replace(/\.ts$/, ".js")}`),
    );
  });

  it.each(KINDS)(
    "the %s provider text 0.2.0 stored (Pulumi's serialization, recorded) still reaches the host",
    async (kind) => {
      const text = fs.readFileSync(
        path.join(root, "test/fixtures/provider-text-0.2.0", `${kind}.js.txt`),
        "utf8",
      );
      expect(text).toContain(`"${HOST_MODULE}"`);
      const revived = revive(text);
      expect(Object.keys(revived).sort()).toEqual(METHODS);
      const olds = { ...VALID[kind], status: "active" };
      expect(await revived.check!({}, VALID[kind])).toEqual(await PROVIDERS[kind].check({}, VALID[kind]));
      expect(await revived.diff!("x", olds, VALID[kind])).toEqual(
        await PROVIDERS[kind].diff("x", olds, VALID[kind]),
      );
    },
  );

  it.each(KINDS)(
    "provider/resources/%s still exports the `impl` 0.1.0 states call, delegating to the host",
    async (kind) => {
      const legacy = require(path.join(root, "provider/resources", kind)) as {
        impl: Record<string, (...args: unknown[]) => Promise<unknown>>;
      };
      expect(Object.keys(legacy.impl).sort()).toEqual(METHODS);
      const olds = { ...VALID[kind], status: "active" };
      expect(await legacy.impl.check({}, VALID[kind])).toEqual(await PROVIDERS[kind].check({}, VALID[kind]));
      expect(await legacy.impl.diff("x", olds, VALID[kind])).toEqual(
        await PROVIDERS[kind].diff("x", olds, VALID[kind]),
      );
    },
  );
});
