/**
 * The quickstart under the real Pulumi CLI, on either face of the package (the dynamic classes,
 * or the native plugin through its generated SDK): preview, up, a clean second preview, every
 * in-place change as an update with exactly its API calls, replace inputs as replacements, drift
 * through refresh, secrets kept out of the state, and destroy leaving nothing. Each face's test
 * file calls {@link quickstartSuite}.
 */
import { E2E_KEYS, EmulatorProcess, type Face, Workspace, operations, typeToken } from "./workspace";

/** The quickstart's tests, on `face`. */
export function quickstartSuite(face: Face): void {
  let emulator: EmulatorProcess;
  let ws: Workspace;
  const PASSWORD = "e2e-Db-Password-7731";

  beforeAll(async () => {
    emulator = await EmulatorProcess.start();
    ws = Workspace.create("quickstart", emulator.url, face);
    await ws.stack("dev");
    await ws.config("dbPassword", PASSWORD, { secret: true });
  });

  afterAll(async () => {
    await emulator?.stop();
    ws?.remove();
  });

  const RESOURCES = { network: "create", db: "create", reads: "create", peer: "create" };

  it("preview --diff before the first up lists every resource as a create", async () => {
    expect(operations(await ws.preview({ diff: true }))).toEqual(RESOURCES);
    const text = (await ws.pulumi(["preview", "--diff"])).stdout;
    for (const type of ["Vpc", "Service", "ReadReplicaSet", "VpcPeering"]) {
      expect(text).toContain(`+ ${typeToken(face, type)}`);
    }
    expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
  });

  it("up creates everything; a second preview shows no changes", async () => {
    await ws.up();
    const outputs = await ws.outputs();
    expect(outputs.endpoint).toEqual({ host: expect.any(String), port: 5432 });
    expect(outputs.poolerEndpoint).toEqual({ host: expect.any(String), port: 6432 });
    expect(outputs.vpcEndpoint).toMatchObject({ vpcId: expect.stringMatching(/^vpc-/) });
    expect(outputs.peeringStatus).toBe("active");
    expect(outputs.initialPassword).toBe("[secret]");
    const inventory = await emulator.inventory();
    expect(inventory.services).toHaveLength(1);
    expect(inventory.replicaSets).toHaveLength(1);
    expect(inventory.vpcs).toHaveLength(1);
    expect(inventory.peerings).toHaveLength(1);
    const again = operations(await ws.preview());
    expect(Object.values(again).every((op) => op === "same")).toBe(true);
  });

  describe.each([
    ["cpuMillis", "2000", "db", ["POST /services/{id}/resize"]],
    ["replicaCount", "2", "db", ["POST /services/{id}/setHA"]],
    ["connectionPooler", "false", "db", ["POST /services/{id}/disablePooler"]],
    ["environment", "PROD", "db", ["POST /services/{id}/setEnvironment"]],
    ["vpcName", "renamed-vpc", "network", ["POST /vpcs/{id}/rename"]],
    ["paused", "true", "db", ["POST /services/{id}/stop"]],
    ["paused", "false", "db", ["POST /services/{id}/start"]],
  ])("changing %s to %s", (key, value, resource, expectedCalls) => {
    it(`previews an update of ${resource}, not a replace, and up makes exactly ${expectedCalls.join(", ")}`, async () => {
      await ws.config(key, value);
      const ops = operations(await ws.preview());
      expect(ops[resource]).toBe("update");
      expect(Object.entries(ops).filter(([name, op]) => name !== resource && op !== "same")).toEqual([]);
      await emulator.clearCalls();
      await ws.up();
      expect(await emulator.calls()).toEqual(expectedCalls);
      expect(Object.values(operations(await ws.preview())).every((op) => op === "same")).toBe(true);
    });
  });

  it("with the pooler off, no preview nor up shows poolerEndpoint unknown or undefined: it is null", async () => {
    // The steps above left connectionPooler false.
    const quiet = (text: string) => {
      expect(text).not.toMatch(/poolerEndpoint\s*:\s*\[unknown\]/);
      expect(text).not.toMatch(/Undefined value \(poolerEndpoint\)/);
    };
    const unchanged = await ws.pulumi(["preview"]);
    quiet(unchanged.stdout + unchanged.stderr);
    // The preview of an update (whose outputs the engine takes from the inputs), then back.
    await ws.config("cpuMillis", "1000");
    const update = await ws.pulumi(["preview"]);
    expect(update.stdout).toContain("resizeService 2000m/4GB → 1000m/4GB");
    quiet(update.stdout + update.stderr);
    await ws.config("cpuMillis", "2000");
    const up = await ws.pulumi(["up", "--yes", "--skip-preview"]);
    quiet(up.stdout + up.stderr);
    expect((await ws.outputs()).poolerEndpoint).toBeNull();
  });

  it.each([
    ["serviceType", "VECTOR"],
    ["region", "eu-west-1"],
  ])("changing %s shows a replacement of the service in preview", async (key, value) => {
    await ws.config(key, value);
    try {
      const steps = await ws.preview();
      expect(steps.get("db")?.op).toBe("replace");
      expect(steps.get("db")?.replaceReasons).toContain(key === "region" ? "regionCode" : key);
    } finally {
      await ws.removeConfig(key);
    }
  });

  it("an out-of-band resize shows as drift in refresh, and up puts it back", async () => {
    const { serviceId } = (await ws.outputs()) as { serviceId: string };
    await emulator.api("POST", `/services/${serviceId}/resize`, { cpu_millis: 3000, memory_gbs: 12 });
    for (let i = 0; i < 100; i++) {
      const s = await emulator.api<{ status: string; resources: Array<{ spec: { cpu_millis: number } }> }>(
        "GET",
        `/services/${serviceId}`,
      );
      if (s.status === "READY" && s.resources[0].spec.cpu_millis === 3000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const refresh = await ws.pulumi(["refresh", "--yes", "--diff"]);
    expect(refresh.stdout).toContain(`~ ${typeToken(face, "Service")}`);
    expect(refresh.stdout).toMatch(/cpuMillis\s*:\s*2000 => 3000/);
    // The refresh's own diff names the calls an up of the recorded inputs makes, as not its own.
    const resize = /resizeService 3000m\/12GB → 2000m\/\d+GB \(the service restarts once\)/.source;
    const recorded = "the API differs from the inputs the stack recorded \\(this refresh calls nothing\\)";
    // With --diff the lines go to stderr (README).
    const refreshed = `${refresh.stdout}${refresh.stderr}`;
    expect(refreshed).toMatch(
      new RegExp(`\\[mdb\\] db: ${recorded}; an up with those inputs makes: ${resize}`),
    );
    expect(refreshed).not.toMatch(/\[mdb\] db: resizeService/);
    const preview = await ws.pulumi(["preview"]);
    expect(preview.stdout).toMatch(new RegExp(`\\[mdb\\] db: ${resize}`));
    expect(preview.stdout).not.toContain("this refresh calls nothing");
    // With Pulumi's legacy refresh (no diff of its own), the only diff is the update's.
    const legacy = await ws.pulumi(["preview", "--refresh"], {
      env: { PULUMI_ENABLE_LEGACY_REFRESH_DIFF: "true" },
    });
    expect(legacy.stdout).toMatch(new RegExp(`\\[mdb\\] db: ${resize}`));
    expect(legacy.stdout).not.toContain("this refresh calls nothing");
    const steps = await ws.preview();
    expect(steps.get("db")?.op).toBe("update");
    await emulator.clearCalls();
    // up --refresh: its refresh's diff may find the difference again (with @pulumi/pulumi 3.200's
    // dynamic host it does, in the refresh's words; with 3.259's it does not); the update's diff
    // after it is the program's either way, and names the calls up makes.
    const up = await ws.pulumi(["up", "--refresh", "--yes", "--skip-preview"]);
    expect(up.stdout).toMatch(new RegExp(`\\[mdb\\] db: ${resize}`));
    expect(await emulator.calls()).toEqual(["POST /services/{id}/resize"]);
  });

  it("the state holds no plaintext password, initial password or secret key", async () => {
    const secrets = (await ws.outputs(true)) as { initialPassword: string };
    expect(secrets.initialPassword).toEqual(expect.any(String));
    expect(secrets.initialPassword.length).toBeGreaterThan(8);
    const state = await ws.exportState();
    expect(state).toContain(typeToken(face, "Service"));
    expect(state).not.toContain(PASSWORD);
    expect(state).not.toContain(secrets.initialPassword);
    expect(state).not.toContain(E2E_KEYS.secretKey);
  });

  it("destroy leaves the emulator empty", async () => {
    await ws.destroy();
    expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
  });
}
