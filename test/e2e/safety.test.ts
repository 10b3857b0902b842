/**
 * Issue 26's two scenarios under the real Pulumi CLI, against an emulator that keeps its records
 * in a state file (docs/recovery.md, "Invariants"):
 *
 * 1. the API accepts a service create, then goes away (the emulator process stops): `up` fails;
 *    with the API back at the same URL, the next `up` (adoption on) finishes the service in
 *    place: the same id, one service, nothing deleted;
 * 2. a change that replaces a service with `deletionProtection: true` fails at preview, creating
 *    nothing; the way out the error gives, followed step by step, replaces it.
 *
 * And a `destroy` of a protected service: refused, said once, and the way out it gives (an `up` of
 * that resource alone, then `destroy`) deletes it; a protected service on shared sizes resized
 * outside Pulumi: `refresh` records it (a refresh's diff never fails), `up` refuses the
 * replacement the recorded "shared" would make, and a program that asks for the new sizes makes
 * no call. Each through the dynamic classes and through the native plugin `mdb` (the program on
 * its generated SDK).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { EmulatorProcess, type Face, Workspace, operations } from "./workspace";

jest.setTimeout(240_000);

/** The part of a service record these tests read. */
interface ServiceRecord {
  service_id: string;
  status: string;
  region_code: string;
  connection_pooler?: unknown;
}

/** Each test's seconds, printed at the end (CI's budget is counted in them). */
const seconds: Record<string, number> = {};
afterAll(() => process.stdout.write(`safety e2e seconds: ${JSON.stringify(seconds)}\n`));

describe.each<Face>(["dynamic", "native"])("through the %s face", (face) => {
  let emulator: EmulatorProcess;
  let ws: Workspace;
  let stateFile: string;

  beforeAll(async () => {
    stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mdb-safety-")), "emulator.json");
    // Slow transitions: the create is accepted, and the wait still runs, when the API goes away.
    emulator = await EmulatorProcess.start(1500, { stateFile });
    ws = Workspace.create(path.join(__dirname, "programs", "safety"), emulator.url, face);
    await ws.stack("dev");
    await ws.config("pooler", "true");
  });

  afterAll(async () => {
    await emulator?.stop();
    ws?.remove();
    fs.rmSync(path.dirname(stateFile), { recursive: true, force: true });
  });

  /** Times `test` as `name` in {@link seconds}. */
  function timed(name: string, test: () => Promise<void>): [string, () => Promise<void>] {
    return [
      name,
      async () => {
        const start = Date.now();
        try {
          await test();
        } finally {
          seconds[`${face}: ${name}`] = Math.round((Date.now() - start) / 100) / 10;
        }
      },
    ];
  }

  const services = () => emulator.api<ServiceRecord[]>("GET", "/services");

  it(
    ...timed("scenario 1: an API outage after an accepted create; the next up finishes it", async () => {
      const url = new URL(emulator.url);
      const up = ws.pulumi(["up", "--yes", "--skip-preview"], { allowFailure: true });
      for (let i = 0; i < 400 && (await emulator.calls()).length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await emulator.calls()).toEqual(["POST /services"]);
      const [{ service_id: id }] = await services();
      await emulator.stop();

      const failed = await up;
      expect(failed.code).not.toBe(0);
      expect(failed.stdout + failed.stderr).toMatch(/getService .*NETWORK_ERROR|ECONNREFUSED/);

      emulator = await EmulatorProcess.start(40, { stateFile, port: Number(url.port) });
      expect(emulator.url).toBe(url.href.replace(/\/$/, ""));
      // Recorded with its inputs: the next preview updates it in place, never replaces it.
      expect(operations(await ws.preview())).toEqual({ db: "update" });
      await emulator.clearCalls();
      await ws.pulumi(["up", "--yes", "--skip-preview"], { env: { MDB_ADOPT_EXISTING: "true" } });
      expect(await emulator.calls()).toEqual(["POST /services/{id}/enablePooler"]);
      expect(await services()).toEqual([expect.objectContaining({ service_id: id, status: "READY" })]);
      expect((await ws.outputs()).serviceId).toBe(id);
    }),
  );

  it(
    ...timed(
      "scenario 2: replacing a protected service fails at preview; the advice, followed, replaces it",
      async () => {
        await ws.config("protect", "true");
        await ws.up();
        const [{ service_id: old }] = await services();
        await emulator.clearCalls();

        await ws.config("regionCode", "eu-west-1");
        const preview = await ws.pulumi(["preview"], { allowFailure: true });
        expect(preview.code).not.toBe(0);
        const said = preview.stdout + preview.stderr;
        expect(said).toContain("regionCode us-east-1 → eu-west-1");
        expect(said).toContain(
          "To replace it: set regionCode back as it was, set deletionProtection: false, run `pulumi up`",
        );
        const upped = await ws.pulumi(["up", "--yes", "--skip-preview"], { allowFailure: true });
        expect(upped.code).not.toBe(0);
        expect(await emulator.calls()).toEqual([]);

        // The advice: set regionCode back, lift the protection, up; then change regionCode, up.
        await ws.removeConfig("regionCode");
        await ws.config("protect", "false");
        await ws.up();
        expect(await emulator.calls()).toEqual([]);
        await ws.config("regionCode", "eu-west-1");
        await ws.up();
        const now = await services();
        expect(now).toEqual([expect.objectContaining({ region_code: "eu-west-1", status: "READY" })]);
        expect(now[0].service_id).not.toBe(old);

        await ws.destroy();
        expect(await services()).toEqual([]);
      },
    ),
  );

  it(
    ...timed(
      "a destroy refused by deletionProtection says so once, with the way that re-creates nothing",
      async () => {
        await ws.removeConfig("regionCode").catch(() => undefined);
        await ws.config("protect", "true");
        await ws.up();
        const [{ service_id: id }] = await services();
        await emulator.clearCalls();
        const refused = await ws.pulumi(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
        expect(refused.code).not.toBe(0);
        const said = refused.stdout + refused.stderr;
        // Once in the diagnostics, under the resource (the provider host's echo of it is gone).
        const diagnostics = said.slice(said.indexOf("Diagnostics:"));
        expect(diagnostics.split("has deletionProtection: true, so it was not deleted")).toHaveLength(2);
        expect(said).toContain("give every resource of the stack Pulumi's option `protect: true`");
        expect(said).toContain("run `pulumi up --target '**::db'` (it records that setting alone");
        expect(await emulator.calls()).toEqual([]);

        // The way out it gives: lift the setting for this resource alone, then destroy.
        await ws.config("protect", "false");
        await ws.pulumi(["up", "--yes", "--skip-preview", "--target", "**::db"]);
        expect(await emulator.calls()).toEqual([]);
        expect((await services()).map((s) => s.service_id)).toEqual([id]);
        await ws.destroy();
        expect(await services()).toEqual([]);
      },
    ),
  );

  it(
    ...timed(
      "a protected shared service resized outside Pulumi: refresh records it; up refuses the replacement",
      async () => {
        await ws.config("protect", "true");
        await ws.config("size", "shared");
        await ws.up();
        const [{ service_id: id }] = await services();
        await emulator.api("POST", `/services/${id}/resize`, { cpu_millis: 1000, memory_gbs: 4 });
        for (let i = 0; i < 200; i++) {
          const s = await emulator.api<{
            status: string;
            resources: Array<{ spec: { cpu_millis: number } }>;
          }>("GET", `/services/${id}`);
          if (s.status === "READY" && s.resources[0].spec.cpu_millis === 1000) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await emulator.clearCalls();

        // The refresh diffs the record against the recorded "shared" (a replacement): it says so, and records it.
        const refresh = await ws.pulumi(["refresh", "--yes", "--skip-preview"]);
        expect(refresh.stdout).toMatch(
          /\[mdb\] db: the API differs from the inputs the stack recorded \(this refresh calls nothing\); an up with those inputs makes: replace \(cpuMillis 1000 → shared/,
        );
        expect(refresh.stdout).toContain(
          "; up fails before creating anything: the state has deletionProtection: true",
        );
        const preview = await ws.pulumi(["preview"], { allowFailure: true });
        expect(preview.code).not.toBe(0);
        expect(preview.stdout + preview.stderr).toContain("but its state has deletionProtection: true");

        // A program that asks for the sizes the service has now: no call, and the next preview is clean.
        await ws.removeConfig("size");
        await ws.up();
        expect(await emulator.calls()).toEqual([]);
        expect(operations(await ws.preview())).toEqual({});
        await ws.config("protect", "false");
        await ws.up();
        await ws.destroy();
        expect(await services()).toEqual([]);
      },
    ),
  );
});
