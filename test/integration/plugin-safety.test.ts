/**
 * What the native plugin must never get wrong, over real gRPC against an emulator: secrets stay
 * secret both ways (the table's secret rows and whatever the program gave as a secret, a check
 * failure included), unknowns during preview (Check, Diff, previewed Create and Update), a
 * partial create answered with ErrorResourceInitFailed (the resource is kept), Read with only an
 * id (import) giving inputs whose next diff is clean, a state written by the dynamic classes
 * (moved by alias) read without its hidden inputs, Cancel reaching the runtime, and a refusal
 * advising the `import` option in the words of every language the plugin serves.
 */
import * as grpc from "@grpc/grpc-js";
import { autoName } from "../../provider/kit/fields/naming";
import { protocol } from "../../provider/pulumi-contract/grpc-protocol";
import { UNKNOWN } from "../../provider/pulumi-contract/sentinels";
import { type TestEmulator, startTestEmulator } from "../helpers/emulator";
import {
  type CallFailure,
  PROJECT,
  type Props,
  type TestPlugin,
  isSecret,
  reveal,
  secret,
  startTestPlugin,
} from "../helpers/plugin";

const SERVICE = "mdb:index:Service";
const VPC = "mdb:index:Vpc";
const DB = { serviceType: "POSTGRES", regionCode: "us-east-1", cpuMillis: 1000, memoryGbs: 4 };
const PASSWORD = "plugin-Pass-9841";

let emu: TestEmulator;
let plugin: TestPlugin;

beforeAll(async () => {
  emu = await startTestEmulator();
  plugin = await startTestPlugin();
  await plugin.configureFor(emu);
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

describe("secrets", () => {
  let outputs: Props;

  it("a secret input comes back secret from Check, with the table's secret rows", async () => {
    const { inputs, failures } = await plugin.check(SERVICE, "db", {
      ...DB,
      name: secret("hidden-db"),
      password: PASSWORD,
    });
    expect(failures).toEqual([]);
    expect(inputs.name).toEqual(secret("hidden-db"));
    expect(inputs.password).toEqual(secret(PASSWORD)); // a secret row, though given plain
    expect(inputs.cpuMillis).toBe(1000);
  });

  it("Create: the secret input and every secret output are secret in the outputs", async () => {
    const { inputs } = await plugin.check(SERVICE, "db", {
      ...DB,
      name: secret("hidden-db"),
      password: secret(PASSWORD),
    });
    const made = await plugin.create(SERVICE, "db", inputs);
    outputs = made.properties;
    for (const key of ["name", "password", "connectionUri", "pgEnv"])
      expect(isSecret(outputs[key])).toBe(true);
    expect(reveal(outputs.name)).toBe("hidden-db");
    expect(isSecret(outputs.cpuMillis)).toBe(false);
    expect(JSON.stringify(plugin.logs)).not.toContain(PASSWORD);
  });

  it("no progress line shows an input given as a secret", async () => {
    const lines = plugin.logs.map((l) => l.message);
    expect(lines).toContainEqual(expect.stringMatching(/^\[mdb\] service \[secret\] accepted as /));
    expect(JSON.stringify(lines)).not.toContain("hidden-db");
  });

  it("no error shows one either", async () => {
    await emu.api("POST", `${emu.projectPath}/vpcs`, {
      name: "taken-net",
      cidr: "10.7.0.0/16",
      region_code: "us-east-1",
    });
    const vpc = { name: secret("taken-net"), cidr: "10.7.0.0/16", regionCode: "us-east-1" };
    const { inputs } = await plugin.check(VPC, "taken", vpc);
    const error = await failure(plugin.create(VPC, "taken", inputs));
    expect(error.message).toMatch(/^a VPC named "\[secret\]" \(10\.7\.0\.0\/16, us-east-1\) already exists/);
    expect(error.message).not.toContain("taken-net");
  });

  it("Read keeps them secret", async () => {
    const read = await plugin.read(SERVICE, "db", outputs.serviceId as string, outputs);
    expect(isSecret(read.properties?.name)).toBe(true);
    expect(isSecret(read.properties?.password)).toBe(true);
  });

  it("a check failure about an input given as a secret never names the property, so the engine prints no value", async () => {
    const long = "n".repeat(200);
    const { failures } = await plugin.check(SERVICE, "db", { ...DB, name: secret(long) });
    expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^property name \(secret\) /) }]);
    expect(JSON.stringify(failures)).not.toContain(long);
    const plain = await plugin.check(SERVICE, "db", { ...DB, name: long });
    expect(plain.failures).toEqual([{ property: "name", reason: expect.any(String) }]);
  });
});

describe("advice", () => {
  it("a name the API already has: check and create advise the import option in every language's words", async () => {
    const made = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
      name: "owned-net",
      cidr: "10.8.0.0/16",
      region_code: "us-east-1",
    });
    const vpc = { name: "owned-net", cidr: "10.8.0.0/16", regionCode: "us-east-1" };
    const advice =
      `Adopt it with the resource option import set to "${made.body.id}" (import in TypeScript and YAML, ` +
      "import_ in Python, pulumi.Import in Go, ImportId in C#), or choose another name.";
    // A run of its own: a run lists a collection once, and this file's other runs listed VPCs before.
    const run = await startTestPlugin();
    await run.configureFor(emu);
    const { inputs, failures } = await run.check(VPC, "owned", vpc).finally(() => run.close());
    expect(failures).toEqual([{ property: "name", reason: expect.stringContaining(advice) }]);
    const error = await failure(plugin.create(VPC, "owned", inputs));
    expect(error.message).toContain(advice);
    expect(error.message).not.toContain("{ import:");
  });
});

describe("unknowns during preview", () => {
  it("Check lets an unknown value through unjudged", async () => {
    const { inputs, failures } = await plugin.check(SERVICE, "db", { ...DB, cpuMillis: UNKNOWN });
    expect(failures).toEqual([]);
    expect(inputs.cpuMillis).toBe(UNKNOWN);
  });

  it("Diff counts an unknown as a change, and an unknown input that replaces as a replacement", async () => {
    const { inputs } = await plugin.check(SERVICE, "db", { ...DB, name: "db-x" });
    const olds = { ...inputs, serviceId: "svc1", projectId: emu.credentials.projectId };
    const diff = await plugin.diff(SERVICE, "db", "svc1", olds, {
      ...inputs,
      cpuMillis: UNKNOWN,
      regionCode: UNKNOWN,
    });
    expect(diff.changes).toBe(2);
    expect(diff.replacesList).toEqual(["regionCode"]);
    expect(Object.fromEntries(diff.detaileddiffMap)).toEqual({
      cpuMillis: { kind: 4, inputdiff: true },
      regionCode: { kind: 5, inputdiff: true },
    });
  });

  it("a previewed Create returns the inputs, and unknown for what only the API tells", async () => {
    const { inputs } = await plugin.check(SERVICE, "db", { ...DB, password: PASSWORD });
    await emu.clearRequests();
    const { id, properties } = await plugin.create(SERVICE, "db", inputs, { preview: true });
    expect(id).toBe("");
    expect(properties).toMatchObject({ cpuMillis: 1000, serviceId: UNKNOWN, endpoint: UNKNOWN });
    expect(properties.password).toEqual(secret(PASSWORD));
    expect(properties.__autoNamed).toBeUndefined();
    expect((await emu.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a previewed Update keeps the ids and the initial password known (dependents see no change) and the new inputs", async () => {
    const olds = {
      ...DB,
      name: "db-x",
      serviceId: "svc1",
      endpoint: { host: "h", port: 5432 },
      initialPassword: secret(PASSWORD),
    };
    const outs = await plugin.update(
      SERVICE,
      "db",
      "svc1",
      olds,
      { ...DB, name: "db-x", cpuMillis: 2000 },
      { preview: true },
    );
    expect(outs).toMatchObject({ serviceId: "svc1", cpuMillis: 2000, endpoint: UNKNOWN });
    // A replica set whose password follows the service's initial one (none set) stays unchanged.
    expect(outs.initialPassword).toEqual(secret(PASSWORD));
  });
});

describe("a create the API accepted but whose wait failed", () => {
  it("answers ErrorResourceInitFailed with the id, the state (secrets wrapped) and why: the engine keeps it", async () => {
    const { inputs } = await plugin.check(SERVICE, "slow", { ...DB, password: PASSWORD });
    const error = await emu.withTransitionMs(
      () => failure(plugin.create(SERVICE, "slow", inputs, { timeout: 0.3 })),
      3000,
    );
    expect(error.code).toBe(grpc.status.UNKNOWN);
    expect(error.initFailed).toEqual({
      id: expect.stringMatching(/\S/),
      properties: expect.objectContaining({ name: inputs.name, cpuMillis: 1000, status: "QUEUED" }),
      reasons: [expect.stringMatching(/./)],
    });
    // The password is set by a call after the wait (the next up makes it); what the API made is secret.
    expect(error.initFailed?.properties.password).toBeNull();
    expect(isSecret(error.initFailed?.properties.initialPassword)).toBe(true);
    expect(isSecret(error.initFailed?.properties.connectionUri)).toBe(true);
    const services = (await emu.api<Array<{ service_id: string }>>("GET", `${emu.projectPath}/services`))
      .body;
    expect(services.map((s) => s.service_id)).toContain(error.initFailed?.id);
  });
});

describe("Read with an id only (pulumi import, the import option)", () => {
  it("finds the record in the configured project and gives inputs whose diff is clean", async () => {
    const made = await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, {
      name: "legacy",
      region_code: "us-east-1",
      cpu_millis: "1000",
      memory_gbs: "4",
    });
    const id = made.body.service_id;
    const read = await plugin.read(SERVICE, "legacy", id);
    expect(read.id).toBe(id);
    expect(read.inputs).toMatchObject({
      name: "legacy",
      regionCode: "us-east-1",
      cpuMillis: 1000,
      memoryGbs: 4,
    });
    expect(read.inputs?.projectId).toBeUndefined();
    expect(read.inputs?.__autoNamed).toBeUndefined();
    const { inputs, failures } = await plugin.check(SERVICE, "legacy", read.inputs ?? {}, read.inputs);
    expect(failures).toEqual([]);
    const diff = await plugin.diff(SERVICE, "legacy", id, read.properties ?? {}, inputs);
    expect(diff.diffsList).toEqual([]);
  });
});

describe("a state the dynamic classes wrote (moved to the plugin by an alias)", () => {
  const hidden = {
    __provider: "exports.handler = function () {}",
    __resourceName: "network",
    __timeouts: { create: 60000 },
  };

  it("Check keeps the name the dynamic class generated, whatever the URN says now", async () => {
    const olds = {
      name: "network-1234567",
      __autoNamed: true,
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
      ...hidden,
    };
    const { inputs } = await plugin.check(
      VPC,
      "network",
      { cidr: "10.0.0.0/16", regionCode: "us-east-1" },
      olds,
    );
    expect(inputs).toMatchObject({ name: "network-1234567", __autoNamed: true });
    expect(inputs.__provider).toBeUndefined();
    const fresh = await plugin.check(VPC, "network", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
    expect(fresh.inputs.name).toBe(autoName(PROJECT, "dev", "network"));
  });

  it("Diff ignores its hidden inputs, and Read returns none of them", async () => {
    const { inputs } = await plugin.check(VPC, "network", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
    const made = await plugin.create(VPC, "network", inputs);
    const olds = { ...made.properties, ...hidden };
    const diff = await plugin.diff(VPC, "network", made.id, olds, inputs);
    expect(diff.changes).toBe(1);
    const read = await plugin.read(VPC, "network", made.id, olds, { ...inputs, ...hidden, __importId: "" });
    for (const key of [...Object.keys(hidden), "__importId"]) {
      expect(read.properties).not.toHaveProperty(key);
      expect(read.inputs).not.toHaveProperty(key);
    }
  });
});

/** Sends Cancel to `plugin` once it logged a line `said` matches; resolves with when it did. */
async function cancelOnceSaid(plugin: TestPlugin, said: RegExp): Promise<number> {
  for (let i = 0; i < 800 && !plugin.logs.some((l) => said.test(l.message)); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const at = Date.now();
  await plugin.call("cancel", new (await import("google-protobuf/google/protobuf/empty_pb")).Empty());
  return at;
}

/**
 * Runs `test` on a plugin of its own, configured for the emulator (Cancel ends that plugin's run
 * for good), then clears the emulator's faults and stops the plugin.
 */
async function withOwnPlugin(test: (other: TestPlugin) => Promise<void>): Promise<void> {
  const other = await startTestPlugin();
  try {
    await other.configureFor(emu);
    await test(other);
  } finally {
    await emu.setFaults({});
    await other.close();
  }
}

describe("Cancel", () => {
  it("cancels the runtime: the kit's waits see it aborted", () =>
    withOwnPlugin(async (other) => {
      expect(other.server.context.runtime.cancellation.aborted).toBe(false);
      await other.call("cancel", new (await import("google-protobuf/google/protobuf/empty_pb")).Empty());
      expect(other.server.context.runtime.cancellation.aborted).toBe(true);
    }));

  it(
    "ends a function's call the API keeps failing, between two of its retries",
    () =>
      withOwnPlugin(async (other) => {
        await emu.setFaults({
          rules: [{ method: "GET", path: `${emu.projectPath}/vpcs$`, count: 20, status: 503 }],
        });
        const invoking = failure(
          other.call("invoke", new (protocol().provider.InvokeRequest)().setTok("mdb:index:listVpcs")),
        );
        const cancelledAt = await cancelOnceSaid(other, /\(retry 3 of 6\)$/);
        const error = await invoking;
        // Before, a function's calls were not held to the run's cancellation: every retry was made (about 16 s).
        expect(Date.now() - cancelledAt).toBeLessThan(1_000);
        expect(error.message).toMatch(/listVpcs failed: CANCELLED: .*cancelled \(Ctrl-C\)/);
      }),
    30_000,
  );

  it(
    "ends a check whose first look at the API (GET /auth/info) the API does not answer",
    () =>
      withOwnPlugin(async (other) => {
        const authInfo = `${new URL(emu.url).pathname}/auth/info$`;
        await emu.setFaults({ rules: [{ method: "GET", path: authInfo, count: 20, status: 503 }] });
        const checking = failure(other.check(SERVICE, "probing", DB));
        const retried = /getAuthInfo: .*\(retry 3 of 6\)$/;
        const cancelledAt = await cancelOnceSaid(other, retried);
        const error = await checking;
        // Said under the resource whose check asked.
        expect(other.logs.find((l) => retried.test(l.message))?.urn).toMatch(/::probing$/);
        expect(Date.now() - cancelledAt).toBeLessThan(1_000);
        expect(error.message).toMatch(/getAuthInfo failed: CANCELLED/);
      }),
    30_000,
  );

  it("ends a wait under way within a second and a half", () =>
    withOwnPlugin(async (other) => {
      const { inputs } = await other.check(SERVICE, "waiting", DB);
      const started = Date.now();
      const create = emu.withTransitionMs(
        () => failure(other.create(SERVICE, "waiting", inputs, { timeout: 4 })),
        10_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.call("cancel", new (await import("google-protobuf/google/protobuf/empty_pb")).Empty());
      await create;
      expect(Date.now() - started).toBeLessThan(1800);
    }));
});
