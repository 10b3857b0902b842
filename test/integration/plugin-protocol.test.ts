/**
 * The native plugin's protocol RPCs over real gRPC: Handshake and what an engine without it gets,
 * CheckConfig (known keys pass, a misspelt one fails naming the closest; an explicit provider's
 * bad values fail on it, naming its arguments), DiffConfig (never a
 * replacement, the dynamic provider's settings included), Configure reaching the kit (a wrong
 * API URL fails the check; an explicit provider's refused settings named as its arguments), GetPluginInfo, GetSchema, an unknown type token, Invoke of the
 * functions (their retries said on the stack's row; an explicit provider's limit a call reaches
 * named as its argument), and Construct answered as not served yet.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import { protocol } from "../../provider/pulumi-contract/grpc-protocol";
import { UNKNOWN } from "../../provider/pulumi-contract/sentinels";
import { type TestEmulator, startTestEmulator } from "../helpers/emulator";
import { type CallFailure, type TestPlugin, secret, startTestPlugin, struct } from "../helpers/plugin";

const pb = () => protocol().provider;
let emu: TestEmulator;
let plugin: TestPlugin;
const packageVersion = JSON.parse(fs.readFileSync(`${__dirname}/../../package.json`, "utf8")).version;

beforeAll(async () => {
  emu = await startTestEmulator();
  plugin = await startTestPlugin();
});
afterAll(async () => {
  await plugin?.close();
  await emu?.close();
});

/** The failure of a call that must fail. */
async function failure(promise: Promise<unknown>): Promise<CallFailure> {
  return promise.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: CallFailure) => error,
  );
}

const PROVIDER_URN = "urn:pulumi:dev::plugin-test::pulumi:providers:mdb::default";

function checkConfig(news: Record<string, unknown>): Promise<ProviderPb.CheckResponse> {
  return plugin.call("checkConfig", new (pb().CheckRequest)().setUrn(PROVIDER_URN).setNews(struct(news)));
}

describe("an engine that never calls Handshake (older than the plugin supports)", () => {
  it.each([
    ["checkConfig", () => new (pb().CheckRequest)().setUrn(PROVIDER_URN).setNews(struct({}))],
    ["configure", () => new (pb().ConfigureRequest)().setArgs(struct({}))],
  ])("%s fails, naming the CLI release the plugin needs", async (method, request) => {
    const error = await failure(plugin.call(method, request()));
    expect(error.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(error.message).toMatch(/needs Pulumi CLI 3\.143\.0 or later.*did not call the plugin's Handshake/);
  });
});

describe("Handshake", () => {
  it("accepts secrets, and takes resources and outputs as plain values", async () => {
    const response = await plugin.call<ProviderPb.ProviderHandshakeResponse>(
      "handshake",
      new (pb().ProviderHandshakeRequest)().setEngineAddress("127.0.0.1:1"),
    );
    expect(response.toObject()).toMatchObject({
      acceptSecrets: true,
      acceptResources: false,
      acceptOutputs: false,
      supportsAutonamingConfiguration: false,
    });
  });
});

describe("CheckConfig", () => {
  it("takes every key the provider reads, and the engine's version, as given", async () => {
    const news = {
      version: packageVersion,
      apiUrl: emu.url,
      publicKey: "key",
      secretKey: secret("s3cr3t-value"),
      projectId: "proj-1",
      adoptExisting: "false",
      callDeadlineMs: "60000",
      maxRetryAfterMs: "0",
    };
    const response = await checkConfig(news);
    expect(response.getFailuresList()).toEqual([]);
    expect(response.getInputs()?.toJavaScript()).toEqual(news);
  });

  it("refuses a misspelt key, naming it and the closest key, never its value", async () => {
    const response = await checkConfig({ apiURL: "http://x", secretKy: secret("s3cr3t-value") });
    const failures = response.toObject().failuresList;
    expect(failures).toEqual([
      { property: "", reason: "mdb:apiURL is not a setting of pulumi-managed-db; did you mean mdb:apiUrl?" },
      {
        property: "",
        reason: "mdb:secretKy is not a setting of pulumi-managed-db; did you mean mdb:secretKey?",
      },
    ]);
    expect(JSON.stringify(failures)).not.toContain("s3cr3t-value");
  });
});

describe("CheckConfig of an explicit provider judges its values, naming its arguments", () => {
  const EXPLICIT_URN = "urn:pulumi:dev::plugin-test::pulumi:providers:mdb::prod";
  const check = (urn: string, news: Record<string, unknown>) =>
    plugin.call<ProviderPb.CheckResponse>(
      "checkConfig",
      new (pb().CheckRequest)().setUrn(urn).setNews(struct(news)),
    );
  const bad = () => ({
    apiUrl: emu.url,
    publicKey: "key",
    secretKey: secret("s3cr3t-value"),
    unexpectedStatusMs: -5,
    adoptExisting: "yes",
  });

  it("an explicit provider's bad values fail on the provider, never showing a value given as a secret", async () => {
    const failures = (await check(EXPLICIT_URN, bad())).toObject().failuresList;
    expect(failures).toEqual([
      {
        property: "",
        reason:
          'unexpectedStatusMs in the arguments of provider prod is "-5"; it must be a whole number from 1 to 9007199254740991 (milliseconds). Give unexpectedStatusMs in the arguments of provider prod, or set the environment variable MDB_UNEXPECTED_STATUS_MS',
      },
      {
        property: "",
        reason:
          'adoptExisting in the arguments of provider prod is "yes"; it must be true or false. Give adoptExisting in the arguments of provider prod, or set the environment variable MDB_ADOPT_EXISTING',
      },
    ]);
    expect(JSON.stringify(failures)).not.toContain("s3cr3t-value");
  });

  it("good values pass; so does a value a preview does not know yet", async () => {
    const good = { ...bad(), unexpectedStatusMs: 60000, adoptExisting: true };
    expect((await check(EXPLICIT_URN, good)).getFailuresList()).toEqual([]);
    expect((await check(EXPLICIT_URN, { ...bad(), apiUrl: UNKNOWN })).getFailuresList()).toEqual([]);
  });

  it("the default provider's values (stack config) are left to each resource's check, as the dynamic face does", async () => {
    expect((await check(PROVIDER_URN, bad())).getFailuresList()).toEqual([]);
    expect((await check(`${PROVIDER_URN}_0_1_0`, bad())).getFailuresList()).toEqual([]);
  });
});

describe("DiffConfig never replaces the provider", () => {
  const diffConfig = async (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    (
      await plugin.call<ProviderPb.DiffResponse>(
        "diffConfig",
        new (pb().DiffRequest)()
          .setUrn(PROVIDER_URN)
          .setOldInputs(struct(olds))
          .setOlds(struct(olds))
          .setNews(struct(news)),
      )
    ).toObject();

  it("the same settings: no change", async () => {
    const settings = { version: packageVersion, apiUrl: emu.url, secretKey: secret("a") };
    expect(await diffConfig(settings, settings)).toMatchObject({
      changes: 1,
      replacesList: [],
      diffsList: [],
    });
  });

  it("another API URL or key: an update, never a replacement", async () => {
    const diff = await diffConfig(
      { apiUrl: "https://a.example.com", secretKey: secret("a") },
      { apiUrl: "https://b.example.com", secretKey: secret("b"), projectId: "p" },
    );
    expect(diff).toMatchObject({ changes: 2, replacesList: [], deletebeforereplace: false });
    expect(Object.fromEntries(diff.detaileddiffMap)).toEqual({
      apiUrl: { kind: 4, inputdiff: true },
      secretKey: { kind: 4, inputdiff: true },
      projectId: { kind: 0, inputdiff: true },
    });
  });

  it("the settings of Pulumi's dynamic provider (a stack moved by alias): no replacement", async () => {
    const diff = await diffConfig({ version: "3.259.0" }, { version: packageVersion, apiUrl: emu.url });
    expect(diff.replacesList).toEqual([]);
    expect(Object.values(Object.fromEntries(diff.detaileddiffMap)).map((d) => d.kind)).not.toContain(5);
  });
});

describe("Configure", () => {
  it("hands the settings to the kit: a wrong API URL fails Check, naming mdb:apiUrl", async () => {
    await plugin.configureFor(emu, { apiUrl: `${emu.origin}/api/v2` });
    const { failures } = await plugin.check("mdb:index:Vpc", "net", {
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
    });
    expect(failures).toEqual([
      { property: "", reason: expect.stringMatching(/set by mdb:apiUrl \/ MDB_API_URL, does not answer as/) },
    ]);
  });

  it("of an explicit provider: a URL, key or project the API refuses is named as its argument", async () => {
    await plugin.configureFor(emu);
    const explicit = async (extra: Record<string, unknown>) => {
      await plugin.configureFor(emu, extra, "urn:pulumi:dev::plugin-test::pulumi:providers:mdb::prod");
      const { failures } = await plugin.check("mdb:index:Vpc", "net", {
        cidr: "10.0.0.0/16",
        regionCode: "us-east-1",
      });
      return failures.map((f) => f.reason);
    };
    expect(await explicit({ apiUrl: `${emu.origin}/api/v2` })).toEqual([
      expect.stringMatching(
        /, set by apiUrl in the arguments of provider prod, does not answer as the Managed /,
      ),
    ]);
    expect(await explicit({ publicKey: "not-the-key" })).toEqual([
      expect.stringMatching(
        /^the API refused the key \(HTTP 401 .*\); check publicKey and secretKey in the arguments of provider prod$/,
      ),
    ]);
    expect(await explicit({ projectId: "proj-not-mine" })).toEqual([
      expect.stringMatching(
        /^the API key cannot reach project proj-not-mine, set by projectId in the arguments of provider prod \(HTTP 403 /,
      ),
    ]);
    // The default provider's settings are stack config's.
    await plugin.configureFor(emu, { publicKey: "not-the-key" });
    const { failures } = await plugin.check("mdb:index:Vpc", "net", {
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
    });
    expect(failures.map((f) => f.reason)).toEqual([
      expect.stringMatching(/check mdb:publicKey \/ MDB_PUBLIC_KEY and mdb:secretKey \/ MDB_SECRET_KEY$/),
    ]);
  });

  it("with the emulator's settings, Check passes", async () => {
    await plugin.configureFor(emu);
    const { failures } = await plugin.check("mdb:index:Vpc", "net", {
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
    });
    expect(failures).toEqual([]);
  });
});

describe("what the plugin is", () => {
  it("GetPluginInfo: the package's version", async () => {
    const info = await plugin.call<{ getVersion(): string }>("getPluginInfo", new (protocol().empty.Empty)());
    expect(info.getVersion()).toBe(packageVersion);
  });

  it("GetSchema: the text of the package schema, plugin/schema.json unless told otherwise", async () => {
    expect(plugin.server.context.schemaFile).toBe(path.resolve(__dirname, "../../plugin/schema.json"));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-schema-"));
    const file = path.join(dir, "schema.json");
    const text = JSON.stringify({ name: "mdb", version: packageVersion });
    fs.writeFileSync(file, text);
    const other = await startTestPlugin({ engine: false, schemaFile: file });
    try {
      const response = await other.call<ProviderPb.GetSchemaResponse>(
        "getSchema",
        new (pb().GetSchemaRequest)(),
      );
      expect(response.getSchema()).toBe(text);
      fs.rmSync(file);
      const error = await failure(other.call("getSchema", new (pb().GetSchemaRequest)()));
      expect(error.message).toBe(
        `the package schema ${file} cannot be read (ENOENT); this installation of pulumi-managed-db is ` +
          "incomplete: install the package again",
      );
    } finally {
      await other.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a type token it does not serve fails, naming it, the closest and every type", async () => {
    const error = await failure(plugin.check("mdb:index:Servise", "x", {}));
    expect(error.message).toBe(
      'the mdb plugin has no resource type "mdb:index:Servise"; did you mean mdb:index:Service? ' +
        "(its types: mdb:index:Service, mdb:index:ReadReplicaSet, mdb:index:Vpc, mdb:index:VpcPeering)",
    );
  });

  it("Construct: a component it does not have fails, naming it and the one it has", async () => {
    const error = await failure(
      plugin.call("construct", new (pb().ConstructRequest)().setType("mdb:index:ProductionDatabse")),
    );
    expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error.message).toBe(
      'the mdb plugin has no component "mdb:index:ProductionDatabse" (its component: mdb:index:ProductionDatabase)',
    );
  });
});

describe("Invoke runs the package's functions with the plugin's settings", () => {
  const invoke = async (token: string, args: Record<string, unknown>) =>
    (
      await plugin.call<ProviderPb.InvokeResponse>(
        "invoke",
        new (pb().InvokeRequest)().setTok(token).setArgs(struct(args)),
      )
    )
      .getReturn()
      ?.toJavaScript();

  beforeAll(async () => {
    await emu.reset();
    await plugin.configureFor(emu);
    await emu.api("POST", `${emu.projectPath}/vpcs`, {
      name: "core",
      cidr: "10.0.0.0/16",
      region_code: "us-east-1",
    });
  });

  it("getVpc by name", async () => {
    expect(await invoke("mdb:index:getVpc", { name: "core" })).toMatchObject({
      name: "core",
      cidr: "10.0.0.0/16",
      projectId: emu.credentials.projectId,
    });
  });

  it("a list comes back as an object: listVpcs → { vpcs }", async () => {
    expect(await invoke("mdb:index:listVpcs", {})).toEqual({
      vpcs: [expect.objectContaining({ name: "core" })],
    });
  });

  it('a size in a result is a number, "shared" 0, as the schema says (Python checks each field\'s type)', async () => {
    const create = (name: string, size: Record<string, unknown>) =>
      emu.api("POST", `${emu.projectPath}/services`, { name, region_code: "us-east-1", ...size });
    await create("small", { cpu_millis: "shared", memory_gbs: "shared" });
    await create("sized", { cpu_millis: 1000, memory_gbs: 4 });
    expect(await invoke("mdb:index:getService", { name: "small" })).toMatchObject({
      cpuMillis: 0,
      memoryGbs: 0,
    });
    expect(await invoke("mdb:index:getService", { name: "sized" })).toMatchObject({
      cpuMillis: 1000,
      memoryGbs: 4,
    });
    const { services } = (await invoke("mdb:index:listServices", {})) as {
      services: Record<string, unknown>[];
    };
    expect(services.map(({ name, cpuMillis, memoryGbs }) => [name, cpuMillis, memoryGbs]).sort()).toEqual([
      ["sized", 1000, 4],
      ["small", 0, 0],
    ]);
  });

  it("a function's own error is the call's", async () => {
    const error = await failure(invoke("mdb:index:getVpc", { name: "nothing-of-that-name" }));
    expect(error.message).toMatch(/nothing-of-that-name/);
  });

  it("a call the API does not answer at once says its retries past the second to the engine, on the stack's row", async () => {
    await emu.setFaults({
      rules: [{ method: "GET", path: `${emu.projectPath}/vpcs$`, count: 4, status: 503 }],
    });
    plugin.logs.length = 0;
    try {
      expect(await invoke("mdb:index:listVpcs", {})).toEqual({
        vpcs: [expect.objectContaining({ name: "core" })],
      });
    } finally {
      await emu.setFaults({});
    }
    // No resource makes a function's calls: the lines carry no URN, so Pulumi shows them under the stack.
    expect(plugin.logs.map(({ urn, message }) => ({ urn, message }))).toEqual([
      {
        urn: "",
        message: expect.stringMatching(
          /^\[mdb\] listVpcs: the API answered HTTP 503; trying again in \S+ m?s \(retry 3 of 6\)$/,
        ),
      },
      {
        urn: "",
        message: expect.stringMatching(
          /^\[mdb\] listVpcs: the API answered HTTP 503; trying again in \S+ m?s \(retry 4 of 6\)$/,
        ),
      },
      { urn: "", message: "[mdb] listVpcs: the API answered at attempt 5" },
    ]);
  }, 30_000);

  it("a limit of an explicit provider that a call reaches is named as its argument, not as stack config", async () => {
    const prod = "urn:pulumi:dev::plugin-test::pulumi:providers:mdb::prod";
    await plugin.configureFor(emu, { attemptDeadlineMs: 200, callDeadlineMs: 700 }, prod);
    await emu.setFaults({ latencyMs: 2_000 });
    try {
      const error = await failure(invoke("mdb:index:listVpcs", {}));
      expect(error.message).toMatch(
        /within 700 ms, the deadline of a call with its retries \(callDeadlineMs in the arguments of provider prod \/ MDB_CALL_DEADLINE_MS\), after \d+ attempt\(s\)/,
      );
      expect(error.message).not.toMatch(/mdb:callDeadlineMs/);
    } finally {
      await emu.setFaults({});
      await plugin.configureFor(emu);
    }
  }, 30_000);

  it("a function it does not serve fails, naming the closest", async () => {
    const error = await failure(invoke("mdb:index:getVcp", {}));
    expect(error.message).toMatch(
      /^the mdb plugin has no function "mdb:index:getVcp"; did you mean mdb:index:getVpc\?/,
    );
  });
});
