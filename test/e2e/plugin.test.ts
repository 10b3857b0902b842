/**
 * The native plugin `mdb` under the real Pulumi CLI, from the installed package's plugin folder
 * (`packages: { mdb: ./node_modules/pulumi-managed-db/plugin }`), with a program registering
 * `mdb:index:*` resources as any language's SDK does: preview of the creates, up, a clean
 * second preview, an in-place change shown as `[diff: ~cpuMillis]` with its `[mdb]` line under
 * the resource and made with exactly its call, a clean refresh, `pulumi import` then a clean
 * preview, bad input at preview (a wrong mdb:apiUrl, a misspelt mdb: key, a type the plugin does
 * not serve) before any API call, every limit README lists taken as a setting (and a bad value
 * refused naming it), and destroy leaving nothing. The state holds none of the
 * dynamic classes' hidden inputs, and no secret in clear.
 */
import * as path from "path";
import { E2E_KEYS, EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(600_000);

const PASSWORD = "native-Db-Password-5150";
let emulator: EmulatorProcess;
let ws: Workspace;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  ws = Workspace.create(path.join(__dirname, "programs/native"), emulator.url);
  await ws.stack("dev");
  await ws.config("dbPassword", PASSWORD, { secret: true });
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

const RESOURCES = { network: "create", db: "create", reads: "create", peer: "create" };

/** The steps of a preview that are not `same` (none: a clean preview), each with its diff. */
async function changes(): Promise<Record<string, unknown>> {
  const steps = await ws.preview();
  return Object.fromEntries(
    Object.entries(operations(steps)).map(([name, op]) => [
      name,
      { op, diff: steps.get(name)?.detailedDiff },
    ]),
  );
}

it("preview lists every resource as a create of its mdb:index type, and calls nothing", async () => {
  expect(operations(await ws.preview())).toEqual(RESOURCES);
  const text = (await ws.pulumi(["preview", "--diff"])).stdout;
  for (const type of ["Vpc", "Service", "ReadReplicaSet", "VpcPeering"])
    expect(text).toContain(`+ mdb:index:${type}`);
  expect(await emulator.calls()).toEqual([]);
});

it("up creates everything, with progress under each resource; a second preview is clean", async () => {
  const { stdout } = await ws.up();
  expect(stdout).toMatch(/mdb:index:Service \(db\):\n\s+\[mdb\] service db-\w{7} accepted as/);
  // Pulumi prints a resource's last line beside its "created": it says the resource settled,
  // not that it is still waiting.
  expect(stdout).toMatch(/mdb:index:Service db created \([\d.]+s\) \[mdb\] service \w{10} is READY\n/);
  expect(stdout).toMatch(
    /mdb:index:ReadReplicaSet reads created \([\d.]+s\) \[mdb\] read replica set rrs-\w+ is active\n/,
  );
  expect(stdout).toMatch(
    /mdb:index:VpcPeering peer created \([\d.]+s\) \[mdb\] VPC peering pcx-\w+ is active\n/,
  );
  expect(stdout).not.toMatch(/created \([\d.]+s\) .*waiting/);
  const outputs = await ws.outputs();
  expect(outputs.serviceName).toMatch(/^db-[0-9a-f]{7}$/);
  expect(outputs.endpoint).toEqual({ host: expect.any(String), port: 5432 });
  expect(outputs.initialPassword).toBe("[secret]");
  const inventory = await emulator.inventory();
  expect([inventory.services.length, inventory.replicaSets.length, inventory.vpcs.length]).toEqual([1, 1, 1]);
  expect(inventory.peerings).toHaveLength(1);
  expect(await changes()).toEqual({});
});

it("the state holds no hidden input of the dynamic classes, and no secret in clear", async () => {
  const state = await ws.exportState();
  expect(state).toContain('"type": "mdb:index:Service"');
  for (const hidden of ["__provider", "__resourceName", "__timeouts", "__importId"])
    expect(state).not.toContain(hidden);
  expect(state).not.toContain(PASSWORD);
  expect(state).not.toContain(E2E_KEYS.secretKey);
});

it("an in-place change previews as [diff: ~cpuMillis] with its [mdb] line, and up makes exactly its call", async () => {
  await ws.config("cpuMillis", "2000");
  const steps = await ws.preview();
  expect(operations(steps)).toEqual({ db: "update" });
  expect(Object.keys(steps.get("db")?.detailedDiff ?? {})).toEqual(["cpuMillis"]);
  const text = (await ws.pulumi(["preview"])).stdout;
  expect(text).toMatch(/~ +mdb:index:Service db update \[diff: ~cpuMillis\]/);
  expect(text).toContain("[mdb] db: resizeService 1000m/4GB → 2000m/4GB");
  await emulator.clearCalls();
  await ws.up();
  expect(await emulator.calls()).toEqual(["POST /services/{id}/resize"]);
  expect(await changes()).toEqual({});
});

it("refresh finds nothing changed, and the next preview is clean", async () => {
  const { stdout } = await ws.refresh();
  expect(stdout).toMatch(/Resources:\n\s+5 unchanged\n/);
  expect(await changes()).toEqual({});
});

it("pulumi import mdb:index:Service takes an existing service; with it in the program, the preview is clean", async () => {
  const made = await emulator.api<{ service_id: string }>("POST", "/services", {
    name: "legacy-db",
    region_code: "us-east-1",
    cpu_millis: "1000",
    memory_gbs: "4",
  });
  await emulator.clearCalls();
  // --generate-code=false: the Node.js host the tests build does not generate programs
  // (plugin-import.test.ts checks the code generated for each type, in Pulumi YAML).
  const imported = await ws.pulumi([
    "import",
    "mdb:index:Service",
    "legacy",
    made.service_id,
    "--yes",
    "--generate-code=false",
  ]);
  expect(imported.stdout).toMatch(/= 1 imported/);
  await ws.config("legacyName", "legacy-db");
  expect(await changes()).toEqual({});
  expect(await emulator.calls()).toEqual([]);
});

describe("bad input fails at preview, naming it, before any API call", () => {
  beforeEach(() => emulator.clearCalls());
  afterEach(async () => expect(await emulator.calls()).toEqual([]));

  it("a wrong mdb:apiUrl", async () => {
    await ws.config("mdb:apiUrl", `${new URL(emulator.url).origin}/api/v2`);
    try {
      const run = await ws.pulumi(["preview"], { allowFailure: true });
      expect(run.code).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(
        /set by mdb:apiUrl \/ MDB_API_URL, does not answer as the Managed Database API/,
      );
    } finally {
      await ws.removeConfig("mdb:apiUrl");
    }
  });

  it("a misspelt mdb: key", async () => {
    await ws.config("mdb:apiURL", emulator.url);
    try {
      const run = await ws.pulumi(["preview"], { allowFailure: true });
      expect(run.code).not.toBe(0);
      expect(run.stdout + run.stderr).toContain(
        "mdb:apiURL is not a setting of pulumi-managed-db; did you mean mdb:apiUrl?",
      );
    } finally {
      await ws.removeConfig("mdb:apiURL");
    }
  });

  it("a type the plugin does not serve", async () => {
    await ws.config("typo", "true");
    try {
      const run = await ws.pulumi(["preview"], { allowFailure: true });
      expect(run.code).not.toBe(0);
      expect(run.stdout + run.stderr).toContain(
        'the mdb plugin has no resource type "mdb:index:Servce"; did you mean mdb:index:Service?',
      );
    } finally {
      await ws.removeConfig("typo");
    }
  });
});

it("every limit README's table lists is a setting of the plugin: set, the preview is clean; a bad value fails naming it", async () => {
  // Each transport and wait limit at a value it takes (mdb:unexpectedStatusMs was refused once).
  const limits = {
    "mdb:callDeadlineMs": "120000",
    "mdb:attemptDeadlineMs": "60000",
    "mdb:timeoutMs": "30000",
    "mdb:maxResponseBytes": "8388608",
    "mdb:maxHeaderBytes": "16384",
    "mdb:maxRetryAfterMs": "60000",
    "mdb:unexpectedStatusMs": "60000",
  };
  for (const [key, value] of Object.entries(limits)) await ws.config(key, value);
  try {
    const steps = await ws.preview();
    // The preview passes (the plugin's CheckConfig refused none of them), and no resource changes
    // (the provider's settings may: never a replacement).
    expect(Object.entries(operations(steps)).filter(([name]) => name !== "default")).toEqual([]);
    await ws.config("mdb:unexpectedStatusMs", "soon");
    const run = await ws.pulumi(["preview"], { allowFailure: true });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(
      'stack config mdb:unexpectedStatusMs is "soon"; it must be a whole number from 1 to',
    );
  } finally {
    for (const key of Object.keys(limits)) await ws.removeConfig(key);
  }
});

it("destroy leaves nothing", async () => {
  await ws.pulumi(["state", "unprotect", "urn:pulumi:dev::mdb-native::mdb:index:Service::legacy", "--yes"]);
  await ws.destroy();
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
});
