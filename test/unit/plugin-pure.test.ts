/**
 * The pure parts of the native plugin face, and the kit's rules it relies on: generated names
 * (from the URN, or kept from the last inputs; a refresh keeps them marked), the outputs a
 * preview reports, check failures that never print an input given as a secret, the `mdb:` keys
 * the provider reads, the engine's address among the plugin's arguments, URNs, and properties
 * between Structs and the kit (secrets unwrapped and named, wrapped again on the way out).
 */
import * as fs from "fs";
import * as path from "path";
import { explicitProvider } from "../../provider/adapters/plugin/config-rpcs";
import { engineAddressOf } from "../../provider/adapters/plugin/main";
import { parseUrn } from "../../provider/adapters/plugin/urn";
import { received, redact, secretTexts, toStruct } from "../../provider/adapters/plugin/values";
import { CONFIG_KEY_NAMES, unknownConfigKeys } from "../../provider/config";
import { withoutPrintedValues } from "../../provider/kit/fields/check";
import { autoName, withAutoNamedKept, withGeneratedName } from "../../provider/kit/fields/naming";
import { DYNAMIC_FACE_INPUTS, withoutDynamicFaceInputs } from "../../provider/kit/hidden";
import { previewOutputs } from "../../provider/kit/preview/outputs";
import { specOf } from "../../provider/kit/spec";
import { UNKNOWN } from "../../provider/pulumi-contract/sentinels";
import { DYNAMIC_INPUTS } from "../../provider/adapters/dynamic/hidden";
import { SERVICE } from "../../provider/resources/service/fields";
import { VPC_PEERING } from "../../provider/resources/vpc-peering/fields";
import { secret } from "../helpers/plugin";

const SEED = { project: "shop", stack: "prod", resourceName: "db" };

describe("withGeneratedName", () => {
  it.each([
    ["no name: autoName of the URN's project, stack and name", {}, {}, autoName("shop", "prod", "db")],
    [
      "the name an earlier run generated is kept",
      {},
      { name: "db-1234567", __autoNamed: true },
      "db-1234567",
    ],
    ["a name the program once gave is not kept", {}, { name: "mine" }, autoName("shop", "prod", "db")],
  ])("%s", (_what, news, olds, name) => {
    expect(withGeneratedName("generated", news, olds, SEED)).toEqual({ name, __autoNamed: true });
  });

  it("a name the program gives, or a resource without names, is left alone", () => {
    expect(withGeneratedName("generated", { name: "given" }, {}, SEED)).toEqual({ name: "given" });
    expect(withGeneratedName("generated", { name: UNKNOWN }, {}, SEED)).toEqual({ name: UNKNOWN });
    expect(withGeneratedName("none", { vpcId: "v" }, {}, SEED)).toEqual({ vpcId: "v" });
  });

  it("withAutoNamedKept marks a read's inputs again when the name is the generated one", () => {
    const olds = { name: "db-1234567", __autoNamed: true };
    expect(withAutoNamedKept({ name: "db-1234567" }, olds)).toEqual(olds);
    expect(withAutoNamedKept({ name: "renamed" }, olds)).toEqual({ name: "renamed" });
    expect(withAutoNamedKept({ name: "db-1234567" }, { name: "db-1234567" })).toEqual({ name: "db-1234567" });
  });
});

describe("previewOutputs", () => {
  const spec = specOf(SERVICE);

  it("a create: the inputs, and unknown for every output the API makes", () => {
    const outs = previewOutputs(spec, { name: "db", cpuMillis: 1000, __autoNamed: true });
    expect(outs).toMatchObject({
      name: "db",
      cpuMillis: 1000,
      serviceId: UNKNOWN,
      endpoint: UNKNOWN,
      created: UNKNOWN,
    });
    expect(outs).not.toHaveProperty("__autoNamed");
  });

  it("an update: the new inputs, the stables and the inputs the program leaves out as the state has them", () => {
    const olds = {
      name: "db",
      cpuMillis: 1000,
      projectId: "p1",
      serviceId: "s1",
      created: "t",
      endpoint: { host: "h" },
    };
    expect(previewOutputs(spec, { name: "db", cpuMillis: 2000 }, olds)).toMatchObject({
      cpuMillis: 2000,
      projectId: "p1",
      serviceId: "s1",
      created: "t",
      endpoint: UNKNOWN,
    });
  });

  it("an output the checked inputs say the service has none of (pooler off) is null, create and update alike", () => {
    const news = { name: "db", connectionPooler: false, vpcId: "vpc-1" };
    for (const olds of [undefined, { name: "db", serviceId: "s1", poolerEndpoint: null }]) {
      const outs = previewOutputs(spec, news, olds);
      expect(outs.poolerEndpoint).toBeNull();
      expect(outs.poolerConnectionUri).toBeNull();
      expect(outs.endpoint).toBe(UNKNOWN);
      expect(outs.vpcEndpoint).toBe(UNKNOWN);
    }
  });

  it("an input that is also a stable output (a peering's vpcId) is the input's", () => {
    expect(
      previewOutputs(specOf(VPC_PEERING), { vpcId: "v2" }, { vpcId: "v1", peeringId: "p" }),
    ).toMatchObject({
      vpcId: "v2",
      peeringId: "p",
    });
  });
});

describe("withoutPrintedValues with the inputs given as secrets", () => {
  it("a failure about one is the resource's, naming it as a secret; others keep their property", () => {
    const failures = [
      { property: "name", reason: "must be at most 128 characters" },
      { property: "cpuMillis", reason: "must be a multiple of 250" },
    ];
    expect(withoutPrintedValues(failures, { typeName: "Service", secretInputs: ["name"] })).toEqual([
      { property: "", reason: "property name (secret) must be at most 128 characters" },
      failures[1],
    ]);
  });
});

describe("the dynamic classes' hidden inputs", () => {
  it("are named once, in the kit, and the dynamic face uses those names", () => {
    expect([...DYNAMIC_INPUTS].sort()).toEqual(Object.values(DYNAMIC_FACE_INPUTS).sort());
  });

  it("withoutDynamicFaceInputs drops them and nothing else", () => {
    const props = {
      name: "n",
      __autoNamed: true,
      __provider: "x",
      __resourceName: "r",
      __timeouts: {},
      __importId: "",
    };
    expect(withoutDynamicFaceInputs(props)).toEqual({ name: "n", __autoNamed: true });
  });
});

describe("config keys", () => {
  it("the provider reads its settings, the adoption switch and the transport limits", () => {
    expect(CONFIG_KEY_NAMES).toEqual(
      expect.arrayContaining([
        "mdb:apiUrl",
        "mdb:publicKey",
        "mdb:secretKey",
        "mdb:projectId",
        "mdb:adoptExisting",
      ]),
    );
    expect(CONFIG_KEY_NAMES).toEqual(expect.arrayContaining(["mdb:callDeadlineMs", "mdb:maxRetryAfterMs"]));
  });

  it("every mdb: setting README and docs/ name is one the plugin takes, and README names each", () => {
    const root = path.join(__dirname, "..", "..");
    const texts = [
      fs.readFileSync(path.join(root, "README.md"), "utf8"),
      ...fs
        .readdirSync(path.join(root, "docs"))
        .filter((file) => file.endsWith(".md"))
        .map((file) => fs.readFileSync(path.join(root, "docs", file), "utf8")),
    ];
    const named = new Set(texts.flatMap((text) => [...text.matchAll(/`(mdb:[A-Za-z]+)`/g)].map((m) => m[1])));
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((key) => !CONFIG_KEY_NAMES.includes(key))).toEqual([]);
    expect(unknownConfigKeys([...named])).toEqual([]);
    const readme = texts[0];
    expect(CONFIG_KEY_NAMES.filter((key) => !readme.includes(`\`${key}\``))).toEqual([]);
  });

  it.each([
    ["mdb:apiURL", "mdb:apiUrl"],
    ["mdb:public_key", "mdb:publicKey"],
    ["mdb:project", "mdb:projectId"],
    ["mdb:callDeadline", "mdb:callDeadlineMs"],
    ["mdb:adopt", "mdb:adoptExisting"],
  ])("%s is refused, suggesting %s", (key, closest) => {
    expect(unknownConfigKeys([key, "mdb:apiUrl"])).toEqual([
      `${key} is not a setting of pulumi-managed-db; did you mean ${closest}?`,
    ]);
  });
});

describe("the plugin's arguments and URNs", () => {
  it.each([
    [["127.0.0.1:4000"], "127.0.0.1:4000"],
    [["--logtostderr", "-v=9", "--tracing", "http://t:1", "127.0.0.1:4000"], "127.0.0.1:4000"],
    [[], undefined],
  ])("the engine's address among %j", (args, address) => {
    expect(engineAddressOf(args)).toBe(address);
  });

  it("parseUrn: stack, project, type (of a parent chain too) and a name that may hold ::", () => {
    expect(parseUrn("urn:pulumi:prod::shop::mdb:index:Service::db")).toEqual({
      stack: "prod",
      project: "shop",
      type: "mdb:index:Service",
      name: "db",
    });
    expect(parseUrn("urn:pulumi:s::p::my:index:Comp$mdb:index:Vpc::a::b").type).toBe("mdb:index:Vpc");
    expect(parseUrn("urn:pulumi:s::p::my:index:Comp$mdb:index:Vpc::a::b").name).toBe("a::b");
    expect(() => parseUrn("db")).toThrow('"db" is not a Pulumi URN');
  });

  it("explicitProvider: the program's provider by its whole name; the engine's default, none", () => {
    const provider = (name: string) =>
      explicitProvider(`urn:pulumi:dev::shop::pulumi:providers:mdb::${name}`);
    expect(provider("prod")).toBe("prod");
    // A provider's name may hold `::` (Pulumi's --provider flag takes name=URN; a URN with
    // `::<id>` after it names a provider of that whole name): messages name all of it.
    expect(provider("local::c5bd1cfb")).toBe("local::c5bd1cfb");
    expect(provider("default")).toBeUndefined();
    expect(provider("default_0_1_0")).toBeUndefined();
    expect(explicitProvider("")).toBeUndefined();
    expect(explicitProvider("prod")).toBeUndefined();
  });
});

describe("properties between Structs and the kit", () => {
  it("secrets are unwrapped, at any depth, and the properties holding them named", () => {
    const got = received(toStruct({ a: secret("x"), b: { c: [1, secret(2)] }, d: "plain", e: UNKNOWN }));
    expect(got.props).toEqual({ a: "x", b: { c: [1, 2] }, d: "plain", e: UNKNOWN });
    expect([...got.secrets].sort()).toEqual(["a", "b"]);
    expect(received(undefined)).toEqual({ props: {}, secrets: new Set() });
  });

  it("toStruct wraps the named properties once, and drops undefined members", () => {
    const struct = toStruct({ a: "x", b: secret("y"), c: undefined, d: { e: undefined, f: 1 } }, [
      "a",
      "b",
      "missing",
    ]);
    expect(struct.toJavaScript()).toEqual({ a: secret("x"), b: secret("y"), d: { f: 1 } });
  });
});

describe("secret texts in messages", () => {
  it("are the strings and numbers of the secret properties, at any depth, longest first, none too short to hide", () => {
    const props = { name: "orders-db", other: "visible", deep: { a: ["orders", 123456], b: "x" } };
    expect(secretTexts(props, ["name", "deep"])).toEqual(["orders-db", "orders", "123456"]);
  });

  it("redact hides each, whole", () => {
    expect(redact('service "orders-db" (orders) of 123456', ["orders-db", "123456", "orders"])).toBe(
      'service "[secret]" ([secret]) of [secret]',
    );
  });
});
