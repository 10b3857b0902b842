/**
 * What the package relies on that Pulumi does not document, checked on the installed
 * `@pulumi/pulumi`: each test names the reliance (a file of provider/pulumi-contract/) it
 * guards, so a Pulumi release that breaks one fails here with its name, before any user's stack
 * meets it. The behaviour each reliance serves is tested end to end elsewhere (the e2e suites:
 * recorded states, recovery, previews).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { dynamicHost as watchedHost, onEngineCancel } from "../../provider/pulumi-contract/dynamic-host";
import { echoOnce, quietErrorEcho } from "../../provider/pulumi-contract/error-echo";
import { PROVIDER_INPUT, providerText } from "../../provider/pulumi-contract/provider-text";
import * as sentinels from "../../provider/pulumi-contract/sentinels";
import { sdkPieces } from "../../provider/pulumi-contract/construct-runtime";
import { INIT_FAILED_TYPE, protocol } from "../../provider/pulumi-contract/grpc-protocol";
import { LEGACY_REFRESH_DIFF_ENV, refreshCallsDiff } from "../../provider/pulumi-contract/refresh-diff";

const pulumiModule = require("@pulumi/pulumi") as typeof pulumi;

beforeAll(() =>
  pulumiModule.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
    "contract",
    "test",
  ),
);

const pulumiRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const dynamicHost = fs.readFileSync(path.join(pulumiRoot, "cmd", "dynamic-provider", "index.js"), "utf8");

describe("provider-text.ts: Pulumi's dynamic provider host runs the text stored under __provider", () => {
  it("finds the provider under the input our classes set", () => {
    expect(dynamicHost).toContain(`providerKey = "${PROVIDER_INPUT}"`);
  });

  it("loads it with require-from-string and calls its handler()", () => {
    expect(dynamicHost).toMatch(/requireFromString\(providerString\)\.handler\(\)/);
    // The same loader, on our text: every provider function is there.
    const requireFromString = require(require.resolve("require-from-string", { paths: [pulumiRoot] })) as (
      code: string,
    ) => { handler(): Record<string, unknown> };
    const provider = requireFromString(providerText("vpc")).handler();
    for (const fn of ["configure", "check", "diff", "create", "read", "update", "delete"])
      expect(typeof provider[fn]).toBe("function");
  });
});

describe("partial-failure.ts: an error with an id is a partial create or update", () => {
  it("the host answers ErrorResourceInitFailed with the error's id, properties and reasons", () => {
    expect(dynamicHost).toMatch(/if \(e\.id\)/);
    expect(dynamicHost).toMatch(/ErrorResourceInitFailed/);
    expect(dynamicHost).toMatch(/setProperties\([^)]*e\.properties/);
    expect(dynamicHost).toMatch(/setReasonsList\(e\.reasons/);
  });
});

describe("debug-stacks.ts: the constructor runs transformations, assigns __name, then makes the property promises", () => {
  it("in that order", () => {
    const events: string[] = [];
    class Watched extends pulumiModule.CustomResource {}
    Object.defineProperty(Watched.prototype, "__name", {
      configurable: true,
      set(this: object, value: unknown) {
        events.push("__name");
        Object.defineProperty(this, "__name", { value, writable: true, configurable: true });
      },
    });
    const previous = Error.prepareStackTrace;
    Error.prepareStackTrace = (error, frames) => {
      if (frames[0]?.getFunctionName() === "debuggablePromise") events.push("promise");
      return previous ? previous(error, frames) : `${error}`;
    };
    try {
      new Watched(
        "test:index:Thing",
        "w",
        { a: 1 },
        { transformations: [() => void events.push("transformation")] },
      );
    } finally {
      Error.prepareStackTrace = previous;
    }
    expect(events[0]).toBe("transformation");
    expect(events.indexOf("__name")).toBe(events.lastIndexOf("transformation") + 1);
    expect(events.indexOf("promise")).toBeGreaterThan(events.indexOf("__name"));
  });
});

describe("debug-stacks.ts: Pulumi formats a stack for each property promise, in debuggablePromise", () => {
  it("the stacks come from runtime/debuggable.js's debuggablePromise", () => {
    const seen: Array<[string | null, string | null]> = [];
    const previous = Error.prepareStackTrace;
    Error.prepareStackTrace = (error, frames) => {
      seen.push([frames[0]?.getFunctionName() ?? null, frames[0]?.getFileName() ?? null]);
      return previous ? previous(error, frames) : `${error}`;
    };
    try {
      new (class Thing extends pulumiModule.CustomResource {})("test:index:Thing", "t", { a: 1 });
    } finally {
      Error.prepareStackTrace = previous;
    }
    const debug = seen.filter(([fn]) => fn === "debuggablePromise");
    expect(debug.length).toBeGreaterThan(3);
    for (const [, file] of debug) expect(file).toMatch(/runtime[\\/]debuggable\.js$/);
  });
});

describe("debug-stacks.ts: the registration goes on in continuations that carry the constructor's async context", () => {
  it("the property promises Pulumi makes after the constructor returns are made under a store entered at __name", async () => {
    const { AsyncLocalStorage } = require("node:async_hooks") as typeof import("node:async_hooks");
    const mark = new AsyncLocalStorage<boolean>();
    class Marked extends pulumiModule.CustomResource {}
    Object.defineProperty(Marked.prototype, "__name", {
      configurable: true,
      set(this: object, value: unknown) {
        mark.enterWith(true);
        Object.defineProperty(this, "__name", { value, writable: true, configurable: true });
      },
    });
    let returned = false;
    const later: Array<boolean | undefined> = [];
    const previous = Error.prepareStackTrace;
    Error.prepareStackTrace = (error, frames) => {
      if (returned && frames[0]?.getFunctionName() === "debuggablePromise") later.push(mark.getStore());
      return previous ? previous(error, frames) : `${error}`;
    };
    try {
      const marked = new Marked("test:index:Thing", "marked", { a: 1, b: "two" });
      mark.enterWith(undefined as unknown as boolean);
      returned = true;
      await new Promise((resolve) => marked.urn.apply(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      Error.prepareStackTrace = previous;
    }
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((store) => store === true)).toBe(true);
  });
});

describe("sentinels.ts: the wire's words for unknowns, secrets, resources and outputs", () => {
  it("are the installed SDK's constants", () => {
    const rpc = require("@pulumi/pulumi/runtime/rpc") as Record<string, string>;
    expect(sentinels.UNKNOWN).toBe(pulumiModule.runtime.unknownValue);
    expect(sentinels.SIG_KEY).toBe(rpc.specialSigKey);
    expect(sentinels.SECRET_SIG).toBe(rpc.specialSecretSig);
    expect(sentinels.RESOURCE_SIG).toBe(rpc.specialResourceSig);
    expect(sentinels.OUTPUT_SIG).toBe(rpc.specialOutputValueSig);
  });
});

describe("grpc-protocol.ts: the protocol modules @pulumi/pulumi ships", () => {
  const pb = protocol();
  /** Every setter and getter the plugin and its tests call, per message. */
  const FIELDS: Record<string, { message: new () => object; methods: string[] }> = {
    ProviderHandshakeRequest: {
      message: pb.provider.ProviderHandshakeRequest,
      methods: ["getEngineAddress", "setEngineAddress"],
    },
    ProviderHandshakeResponse: {
      message: pb.provider.ProviderHandshakeResponse,
      methods: [
        "setAcceptSecrets",
        "setAcceptResources",
        "setAcceptOutputs",
        "setSupportsAutonamingConfiguration",
      ],
    },
    CheckRequest: { message: pb.provider.CheckRequest, methods: ["getUrn", "getType", "getOlds", "getNews"] },
    CheckResponse: { message: pb.provider.CheckResponse, methods: ["setInputs", "setFailuresList"] },
    CheckFailure: { message: pb.provider.CheckFailure, methods: ["setProperty", "setReason"] },
    DiffRequest: {
      message: pb.provider.DiffRequest,
      methods: ["getUrn", "getType", "getId", "getOlds", "getNews", "getOldInputs"],
    },
    DiffResponse: {
      message: pb.provider.DiffResponse,
      methods: [
        "setChanges",
        "setReplacesList",
        "setStablesList",
        "setDeletebeforereplace",
        "setDiffsList",
        "setHasdetaileddiff",
        "getDetaileddiffMap",
      ],
    },
    PropertyDiff: { message: pb.provider.PropertyDiff, methods: ["setKind", "setInputdiff"] },
    ConfigureRequest: { message: pb.provider.ConfigureRequest, methods: ["getArgs", "getVariablesMap"] },
    ConfigureResponse: {
      message: pb.provider.ConfigureResponse,
      methods: [
        "setAcceptsecrets",
        "setSupportspreview",
        "setAcceptresources",
        "setAcceptoutputs",
        "setSupportsAutonamingConfiguration",
      ],
    },
    CreateRequest: {
      message: pb.provider.CreateRequest,
      methods: ["getUrn", "getType", "getProperties", "getTimeout", "getPreview"],
    },
    CreateResponse: { message: pb.provider.CreateResponse, methods: ["setId", "setProperties"] },
    ReadRequest: {
      message: pb.provider.ReadRequest,
      methods: ["getUrn", "getType", "getId", "getProperties", "getInputs"],
    },
    ReadResponse: { message: pb.provider.ReadResponse, methods: ["setId", "setProperties", "setInputs"] },
    UpdateRequest: {
      message: pb.provider.UpdateRequest,
      methods: ["getUrn", "getType", "getId", "getOlds", "getNews", "getTimeout", "getPreview"],
    },
    UpdateResponse: { message: pb.provider.UpdateResponse, methods: ["setProperties"] },
    DeleteRequest: {
      message: pb.provider.DeleteRequest,
      methods: ["getUrn", "getType", "getId", "getProperties", "getTimeout"],
    },
    InvokeRequest: { message: pb.provider.InvokeRequest, methods: ["getTok", "getArgs"] },
    InvokeResponse: { message: pb.provider.InvokeResponse, methods: ["setReturn"] },
    GetSchemaResponse: { message: pb.provider.GetSchemaResponse, methods: ["setSchema"] },
    GetMappingResponse: { message: pb.provider.GetMappingResponse, methods: ["setProvider"] },
    ConstructRequest: { message: pb.provider.ConstructRequest, methods: ["getType"] },
    ErrorResourceInitFailed: {
      message: pb.provider.ErrorResourceInitFailed,
      methods: ["setId", "setProperties", "setReasonsList"],
    },
    PluginInfo: { message: pb.plugin.PluginInfo, methods: ["setVersion"] },
    PluginAttach: { message: pb.plugin.PluginAttach, methods: ["getAddress"] },
    LogRequest: { message: pb.engine.LogRequest, methods: ["setSeverity", "setMessage", "setUrn"] },
    Status: { message: pb.status.Status, methods: ["setCode", "setMessage", "addDetails"] },
  };

  it("the ResourceProvider service has every RPC the plugin serves, at the engine's paths", () => {
    const served = [
      "handshake",
      "getSchema",
      "checkConfig",
      "diffConfig",
      "configure",
      "invoke",
      "check",
      "diff",
    ];
    served.push("create", "read", "update", "delete", "construct", "cancel", "getPluginInfo", "attach");
    served.push("getMapping", "getMappings", "call", "parameterize");
    for (const name of served) {
      const method = pb.providerService[name];
      expect(method?.path).toBe(`/pulumirpc.ResourceProvider/${name[0].toUpperCase()}${name.slice(1)}`);
      expect(method.requestStream || method.responseStream).toBe(false);
    }
  });

  it("the Engine service has Log, at severity INFO = 1", () => {
    expect(pb.engineService.log.path).toBe("/pulumirpc.Engine/Log");
    expect(pb.engine.LogSeverity.INFO).toBe(1);
  });

  it.each(Object.entries(FIELDS))("%s has the fields the plugin uses", (_name, { message, methods }) => {
    const instance = new message() as Record<string, unknown>;
    for (const method of methods) expect(typeof instance[method]).toBe("function");
  });

  it("the kinds of a property diff and of a diff's changes are the kit's words", () => {
    expect(pb.provider.PropertyDiff.Kind).toMatchObject({
      ADD: 0,
      ADD_REPLACE: 1,
      DELETE: 2,
      DELETE_REPLACE: 3,
      UPDATE: 4,
      UPDATE_REPLACE: 5,
    });
    expect(pb.provider.DiffResponse.DiffChanges).toMatchObject({
      DIFF_UNKNOWN: 0,
      DIFF_NONE: 1,
      DIFF_SOME: 2,
    });
  });

  it("a Struct carries unknowns and secrets as plain strings and objects, there and back", () => {
    const value = {
      a: sentinels.UNKNOWN,
      b: { [sentinels.SIG_KEY]: sentinels.SECRET_SIG, value: { c: [1, "x"] } },
    };
    const bytes = pb.struct.Struct.fromJavaScript(value).serializeBinary();
    expect(pb.struct.Struct.deserializeBinary(bytes).toJavaScript()).toEqual(value);
  });

  it("an ErrorResourceInitFailed packed in a Status comes out whole, under the type name the engine looks for", () => {
    const detail = new pb.provider.ErrorResourceInitFailed().setId("id-1").setReasonsList(["why"]);
    const any = new pb.any.Any();
    any.pack(detail.serializeBinary(), INIT_FAILED_TYPE);
    const sent = new pb.status.Status();
    sent.addDetails(any);
    const status = pb.status.Status.deserializeBinary(sent.serializeBinary());
    const packed = status.getDetailsList()[0];
    expect(packed.getTypeUrl()).toBe("type.googleapis.com/pulumirpc.ErrorResourceInitFailed");
    expect(pb.provider.ErrorResourceInitFailed.deserializeBinary(packed.getValue_asU8()).getId()).toBe(
      "id-1",
    );
  });
});

describe("construct-runtime.ts: the SDK pieces a provider builds a component in its own process with", () => {
  it("are the installed SDK's functions", () => {
    const pieces = sdkPieces() as unknown as Record<string, unknown>;
    for (const name of [
      "withLocalStorage",
      "resetOptions",
      "awaitFeatureSupport",
      "waitForRPCs",
      "setAllConfig",
      "deserializeInputs",
      "serializeResourceProperties",
    ])
      expect(typeof pieces[name]).toBe("function");
  });

  it("a construct's store is the SDK's own: what getLocalStore() reads inside it is a fresh LocalStore", async () => {
    const state = require("@pulumi/pulumi/runtime/state") as {
      getLocalStore(): unknown;
      LocalStore: new () => object;
    };
    const outside = state.getLocalStore();
    const inside = await sdkPieces().withLocalStorage(async () => state.getLocalStore());
    expect(inside).toBeInstanceOf(state.LocalStore);
    expect(inside).not.toBe(outside);
  });

  it("the stock provider server's construct uses the same pieces, in the same order", () => {
    const server = fs.readFileSync(path.join(pulumiRoot, "provider", "server.js"), "utf8");
    const construct = server.slice(server.indexOf("async construct("), server.indexOf("async call("));
    // Before 3.202.0 the server made the store itself, as our fallback does.
    const store = construct.includes("withLocalStorage") ? "withLocalStorage" : "asyncLocalStorage.run(store";
    if (store !== "withLocalStorage") expect(construct).toContain("new localState.LocalStore()");
    const order = [
      store,
      "configureRuntime",
      "deserializeInputs",
      "serializeResourceProperties",
      "waitForRPCs",
    ];
    const at = order.map((name) => construct.indexOf(name));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const configure = server.slice(
      server.indexOf("async function configureRuntime"),
      server.indexOf("async function deserializeInputs"),
    );
    for (const name of ["resetOptions", "awaitFeatureSupport", "setAllConfig"])
      expect(configure).toContain(name);
  });
});

describe("dynamic-host.ts: the engine's Cancel reaches the host's gRPC server, whose handler does nothing", () => {
  const hostMain = path.join(pulumiRoot, "cmd", "dynamic-provider", "index.js");

  it("the host takes the engine's address first, and serves with the @grpc/grpc-js its module resolves", () => {
    expect(dynamicHost).toMatch(/main\(process\.argv\.slice\(2\)\)/);
    expect(dynamicHost).toMatch(/require\("@grpc\/grpc-js"\)/);
    expect(dynamicHost).toMatch(/new grpc\.Server\(/);
    // Its Cancel answers at once and changes nothing: the operations in flight are let run.
    expect(dynamicHost).toMatch(
      /cancel\(call, callback\) \{\s*callback\(undefined, new emptyproto\.Empty\(\)\);\s*\}/,
    );
  });

  it("that grpc-js's Server looks up each call's handler through _retrieveHandler(path)", () => {
    const grpc = require(require.resolve("@grpc/grpc-js", { paths: [path.dirname(hostMain)] })) as {
      Server: { prototype: Record<string, unknown> };
    };
    expect(typeof grpc.Server.prototype._retrieveHandler).toBe("function");
    const serverJs = fs.readFileSync(
      require.resolve("@grpc/grpc-js/build/src/server.js", { paths: [path.dirname(hostMain)] }),
      "utf8",
    );
    expect(serverJs).toMatch(/const handler = this\._retrieveHandler\(path\);/);
  });

  it("in the running host, a Cancel from the engine calls the watcher, and the host knows the engine's address", async () => {
    const built = path.resolve(__dirname, "../../dist/provider/pulumi-contract/dynamic-host.js");
    if (!fs.existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
    const preload = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mdb-contract-")), "watch.js");
    fs.writeFileSync(
      preload,
      `const { dynamicHost, onEngineCancel } = require(${JSON.stringify(built)});\n` +
        "setImmediate(() => {\n" +
        "  process.stderr.write(`ENGINE ${dynamicHost() && dynamicHost().engine}\\n`);\n" +
        '  process.stderr.write(`WATCHING ${onEngineCancel(() => process.stderr.write("CANCEL SEEN\\n"))}\\n`);\n' +
        "});\n",
    );
    const child = spawn(process.execPath, ["-r", preload, hostMain, "127.0.0.1:1"], { stdio: "pipe" });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const port = await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
        child.once("exit", (code) => reject(new Error(`the host exited (${code}): ${stderr}`)));
      });
      const grpc = require(require.resolve("@grpc/grpc-js", { paths: [path.dirname(hostMain)] }));
      const { ResourceProviderClient } = require(path.join(pulumiRoot, "proto", "provider_grpc_pb.js"));
      const { Empty } = require(
        require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [pulumiRoot] }),
      );
      const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      await new Promise<void>((resolve, reject) =>
        client.cancel(new Empty(), (error: Error | null) => (error ? reject(error) : resolve())),
      );
      client.close();
      for (let i = 0; i < 100 && !stderr.includes("CANCEL SEEN"); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(stderr).toContain("ENGINE 127.0.0.1:1");
      expect(stderr).toContain("WATCHING true");
      expect(stderr).toContain("CANCEL SEEN");
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("outside the host (this test, a program), nothing is watched", () => {
    expect(watchedHost()).toBeUndefined();
    expect(onEngineCancel(() => undefined)).toBe(false);
  });
});

describe("error-echo.ts: the host prints each error of check, diff, read and delete before answering with it", () => {
  it("as `${e}: ${e.stack}` in each of the four", () => {
    const echoes = dynamicHost.match(
      /catch \(e\) \{\s*console\.error\(`\$\{e\}: \$\{e\.stack\}`\);\s*callback\(e, undefined\);/g,
    );
    expect(echoes).toHaveLength(4);
    for (const method of ["check", "diff", "read", "delete"])
      expect(dynamicHost).toMatch(
        new RegExp(
          `async ${method}\\(call, callback\\) \\{[\\s\\S]*?console\\.error\\(\`\\$\\{e\\}: \\$\\{e\\.stack\\}\`\\)`,
        ),
      );
  });

  it("so the echo of an error the dynamic face marked is left out, once; others and bugs are kept", () => {
    const lines: unknown[][] = [];
    const fake = { error: (...args: unknown[]) => void lines.push(args) };
    quietErrorEcho(fake);
    const refusal = echoOnce(new Error("service x has deletionProtection: true"));
    const bug = echoOnce(new TypeError("cannot read properties of undefined"));
    // What the host writes, as it formats it.
    fake.error(`${refusal}: ${refusal.stack}`);
    fake.error(`${bug}: ${bug.stack}`);
    fake.error("another line");
    fake.error(`${refusal}: ${refusal.stack}`);
    expect(lines).toEqual([[`${bug}: ${bug.stack}`], ["another line"], [`${refusal}: ${refusal.stack}`]]);
  });
});

describe("refresh-diff.ts: the CLI's legacy switch turns off a refresh's diff (its behaviour: quickstart e2e)", () => {
  it("reads the switch as the CLI reads a boolean: 1 or true in any case", () => {
    expect(LEGACY_REFRESH_DIFF_ENV).toBe("PULUMI_ENABLE_LEGACY_REFRESH_DIFF");
    for (const on of ["1", "true", "TRUE", "True"])
      expect(refreshCallsDiff({ [LEGACY_REFRESH_DIFF_ENV]: on })).toBe(false);
    for (const off of [undefined, "", "0", "false", "yes"])
      expect(refreshCallsDiff({ [LEGACY_REFRESH_DIFF_ENV]: off })).toBe(true);
  });
});
