/**
 * Waits that say why, and end on a cancel, through the providers' functions as the engine calls
 * them against the emulator. A service the API shows UNSTABLE (with, or without, the reason it
 * gives as `error_message`) is named with that reason and fails the create after
 * `mdb:unexpectedStatusMs` in it, kept in the stack with its inputs (I1); a cancelled run
 * (`runtime.cancel()`, what each face calls on the engine's Cancel) ends a create's wait, an
 * update between its calls and a delete's wait at once, sends nothing new, keeps what the API
 * accepted, and the next run converges without sending anything twice.
 */
import { RESOURCE_NAME_INPUT } from "../../provider/adapters/dynamic/hidden";
import { ACCEPTED_OUTPUT } from "../../provider/kit/hidden";
import { MdbApi } from "../../provider/client/api";
import type { Service } from "../../provider/client/schemas";
import { ConfigRuntime } from "../../provider/runtime";
import type { TestEmulator } from "../helpers/emulator";
import {
  drive,
  errorOf,
  recordCalls,
  stateFromError,
  type Props,
  useProviderEmulator,
} from "../helpers/provider";
import { providerWith } from "../helpers/runtime";

let emu: TestEmulator;
useProviderEmulator({}, (started) => (emu = started));

/** Ids the API is made to show UNSTABLE, with the `error_message` to show (null: none). */
const unstable = new Map<string, string | null>();

/**
 * A run's runtime whose client shows the services of {@link unstable} UNSTABLE, as the emulator
 * answers a service whose server failed (the reason in `error_message` while it is UNSTABLE).
 */
class RunRuntime extends ConfigRuntime {
  override session() {
    const session = super.session();
    const api = session.api as MdbApi & { shown?: boolean };
    if (!api.shown) {
      const get = api.getService.bind(api);
      Object.assign(api, {
        shown: true,
        getService: async (projectId: string, serviceId: string) => {
          const record = await get(projectId, serviceId);
          if (!unstable.has(serviceId)) return record;
          const reason = unstable.get(serviceId);
          return {
            ...record,
            status: "UNSTABLE",
            ...(reason === null ? {} : { error_message: reason }),
          } as Service;
        },
      });
    }
    return session;
  }
}

const lines: string[] = [];

/** `text` as a regular expression that matches it literally. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The providers of one run, as the provider host configures them; its runtime, to cancel. */
async function run() {
  const runtime = new RunRuntime((line) => lines.push(line));
  const provider = providerWith("service", runtime);
  await provider.configure?.({ config: undefined } as never);
  return { ...drive(provider), runtime };
}

const program = (extra: Props = {}): Props => ({
  name: "orders-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  [RESOURCE_NAME_INPUT]: "db",
  ...extra,
});

async function serviceIds(): Promise<string[]> {
  return (await emu.api<Array<{ service_id: string }>>("GET", `${emu.projectPath}/services`)).body.map(
    (s) => s.service_id,
  );
}

/** Resolves once the emulator has logged a request `match` accepts (polling every 10 ms). */
async function requested(match: (r: { method: string; path: string }) => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if ((await emu.requests()).some(match)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the request never came");
}

beforeEach(async () => {
  await emu.reset();
  lines.length = 0;
  unstable.clear();
  process.env.MDB_UNEXPECTED_STATUS_MS = "1500";
});
afterEach(async () => {
  delete process.env.MDB_UNEXPECTED_STATUS_MS;
  await emu.setTransitionMs(30);
});

describe("the last line of a create", () => {
  it("says the resource settled, once: the wait's own end, else the status it settled in", async () => {
    await emu.setTransitionMs(800);
    const slow = await (await run()).create(program());
    // The wait showed progress, so its end is the last line (Pulumi prints it beside "created").
    expect(lines.filter((l) => /^waiting for service /.test(l)).length).toBeGreaterThan(0);
    expect(lines[lines.length - 1]).toMatch(
      new RegExp(`^done waiting for service ${slow.id} to be READY \\(\\d+(\\.\\d)? s\\)$`),
    );
    expect(lines.filter((l) => l === `service ${slow.id} is READY`)).toEqual([]);

    lines.length = 0;
    await emu.setTransitionMs(0);
    const quick = await (await run()).create(program({ name: "quick-db" }));
    // Settled before the first look: no progress, so the create says where it ended.
    expect(lines).toEqual([
      `service quick-db accepted as ${quick.id}; waiting until it settles`,
      `service ${quick.id} is READY`,
    ]);
  });
});

describe("a status the wait does not expect", () => {
  it.each([
    [
      "with the API's reason",
      "could not access the server configuration file: Permission denied",
      'the API says: "could not access the server configuration file: Permission denied"',
    ],
    ["when the API gives none", null, "the API gives no reason"],
  ])(
    "UNSTABLE is named %s, and the create fails after the limit, kept with its inputs",
    async (_, reason, said) => {
      await emu.setTransitionMs(2_000);
      const first = await run();
      const news = program();
      const creating = errorOf(first.create(news));
      await requested((r) => r.method === "POST" && r.path.endsWith("/services"));
      const [id] = await serviceIds();
      unstable.set(id, reason);
      const started = Date.now();
      const error = await creating;
      const took = Date.now() - started;

      const shown = new RegExp(
        `^waiting for service ${id} to be READY: UNSTABLE after \\d+(\\.\\d)? (ms|s), a status this wait does not ` +
          `expect \\(${escape(said)}\\); it gives up if that lasts 1.5 s$`,
      );
      expect(lines.filter((line) => shown.test(line))).toHaveLength(1);
      // In tenths below 10 s, cut: it has lasted 1.5 s at least, 2.2 s at most (the next look).
      const [, lasted] = /it has been UNSTABLE for (\S+) s,/.exec(error.message) ?? [];
      expect(Number(lasted)).toBeGreaterThanOrEqual(1.5);
      expect(Number(lasted)).toBeLessThan(3);
      expect(error.message).toBe(
        `gave up waiting for service ${id} to be READY: it has been UNSTABLE for ${lasted} s, a status this ` +
          `wait does not expect (${said}); the limit is 1.5 s (mdb:unexpectedStatusMs / MDB_UNEXPECTED_STATUS_MS). ` +
          `service ${id} exists and stays in the stack with your inputs; nothing was deleted. Run \`pulumi up\` ` +
          "again to wait for it once more: the job is finished once it recovers. If it does not, remove it " +
          "from the program (or run `pulumi destroy`) to delete it.",
      );
      // Not the 30 minutes of a create's limit: the 1.5 s of mdb:unexpectedStatusMs, plus a look.
      expect(took).toBeLessThan(3_000);
      const recorded = stateFromError(error, await first.check(news));
      expect(recorded.outs).toMatchObject({ serviceId: id, name: "orders-db", cpuMillis: 1000 });

      // Recovered: the next up waits again and finishes, with no second create.
      unstable.clear();
      await emu.setTransitionMs(30);
      const second = await run();
      const { result, calls } = await recordCalls(emu, () =>
        second.update(recorded, news, { initErrors: true }),
      );
      expect(calls).toEqual([]);
      expect(result.state.outs).toMatchObject({ serviceId: id, status: "READY" });
      expect(await serviceIds()).toEqual([id]);
    },
    30_000,
  );

  it("an expected status between two UNSTABLE looks starts the count again", async () => {
    await emu.setTransitionMs(2_000);
    const first = await run();
    const creating = first.create(program());
    await requested((r) => r.method === "POST" && r.path.endsWith("/services"));
    const [id] = await serviceIds();
    unstable.set(id, "node restarting");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    unstable.delete(id);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    unstable.set(id, "node restarting");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    unstable.delete(id);
    await emu.setTransitionMs(30);
    await expect(creating).resolves.toMatchObject({ id });
  }, 30_000);
});

describe("a cancelled run (Ctrl-C)", () => {
  it("ends a create's wait at once, keeps the service with its inputs; the next up converges", async () => {
    await emu.setTransitionMs(3_000);
    const first = await run();
    const news = program();
    const creating = errorOf(first.create(news));
    await requested((r) => r.method === "POST" && r.path.endsWith("/services"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelledAt = Date.now();
    first.runtime.cancel();
    const error = await creating;
    expect(Date.now() - cancelledAt).toBeLessThan(200);
    const [id] = await serviceIds();
    expect(error.message).toMatch(
      new RegExp(
        `^cancelled \\(Ctrl-C\\) while waiting for service ${id} to be READY \\(after \\d+(\\.\\d)? (ms|s), last status ` +
          `(QUEUED|CONFIGURING)\\)\\. service ${id} exists and stays in the stack with your inputs; nothing was ` +
          "deleted\\. Run `pulumi up` again to finish the job\\.$",
      ),
    );
    const recorded = stateFromError(error, await first.check(news));
    expect(recorded.outs).toMatchObject({ serviceId: id, name: "orders-db", regionCode: "us-east-1" });
    // The state names the create whose wait was cut off ...
    expect(recorded.outs[ACCEPTED_OUTPUT]).toEqual(["createService orders-db 1000m/4GB"]);

    await emu.setTransitionMs(30);
    const second = await run();
    lines.length = 0;
    const { diff } = await second.diff(recorded, news);
    expect(diff.replaces).toEqual([]);
    // ... so the next preview says why the engine updates a resource whose inputs did not change.
    expect(diff.changes).toBe(false);
    expect(lines).toEqual([
      "db: no API call; createService was accepted by the API in an earlier run that ended before it " +
        "settled: up waits for it",
    ]);
    lines.length = 0;
    const { result, calls } = await recordCalls(emu, () =>
      second.update(recorded, news, { initErrors: true }),
    );
    expect(calls).toEqual([]);
    // The update says what became of the accepted create: not the person's guess.
    expect(lines.at(-1)).toBe(
      `service ${id}: createService orders-db 1000m/4GB, accepted in an earlier run, has settled; not sent again`,
    );
    expect(result.state.outs).toMatchObject({ serviceId: id, status: "READY" });
    expect(result.state.outs[ACCEPTED_OUTPUT]).toBeUndefined();
    expect(await serviceIds()).toEqual([id]);
  }, 30_000);

  it("during a create's attach to its VPC: the state names the accepted attach, the next preview says so, up sends it no second time", async () => {
    const vpc = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
      name: "net",
      cidr: "10.7.0.0/16",
      region_code: "us-east-1",
    });
    await emu.setTransitionMs(800);
    const first = await run();
    const news = program({ vpcId: vpc.body.id });
    const creating = errorOf(first.create(news));
    await requested((r) => r.method === "POST" && r.path.endsWith("/attachToVPC"));
    first.runtime.cancel();
    const error = await creating;
    const recorded = stateFromError(error, await first.check(news));
    expect(recorded.outs.vpcId).toBeNull();
    expect(recorded.outs[ACCEPTED_OUTPUT]).toEqual([`attachToVpc ${vpc.body.id}`]);

    await emu.setTransitionMs(30);
    const second = await run();
    lines.length = 0;
    await second.diff(recorded, news);
    expect(lines).toEqual([
      `db: attachToVpc ${vpc.body.id} (the service restarts once); attachToVpc was accepted by the API in an ` +
        "earlier run that ended before it settled: up waits for it and sends it again only if the API has not " +
        "applied it",
    ]);
    lines.length = 0;
    const { result, calls } = await recordCalls(emu, () =>
      second.update(recorded, news, { initErrors: true }),
    );
    expect(calls).toEqual([]);
    expect(lines).toContain(
      `service ${result.state.outs.serviceId}: attachToVpc ${vpc.body.id}, accepted in an earlier run, has ` +
        "settled; not sent again",
    );
    expect(result.state.outs).toMatchObject({ vpcId: vpc.body.id, status: "READY" });
    expect(result.state.outs[ACCEPTED_OUTPUT]).toBeUndefined();
  }, 30_000);

  it("sends nothing once cancelled: no create", async () => {
    const first = await run();
    first.runtime.cancel();
    const { result, calls } = await recordCalls(emu, () => errorOf(first.create(program())));
    expect(result.message).toBe("cancelled (Ctrl-C) before creating service orders-db: nothing was sent");
    expect(result.id).toBeUndefined();
    expect(calls).toEqual([]);
    // Not even a look: the check of a cancelled run asks the API nothing (GET /auth/info before).
    expect(
      (await emu.requests()).map((r: { method: string; path: string }) => `${r.method} ${r.path}`),
    ).toEqual([]);
  });

  it("ends an update between its calls: the next call is not sent; the next up sends only what is left", async () => {
    const setup = await run();
    const state = await setup.create(program());
    const news = program({ cpuMillis: 2000, memoryGbs: 8, connectionPooler: true });
    await emu.setTransitionMs(3_000);
    const second = await run();
    const { result: error, calls } = await recordCalls(emu, async () => {
      const updating = errorOf(second.update(state, news));
      await requested((r) => r.method === "POST" && r.path.endsWith("/resize"));
      second.runtime.cancel();
      return updating;
    });
    expect(calls).toEqual(["POST /projects/{project}/services/{service}/resize"]);
    expect(error.message).toMatch(/^cancelled \(Ctrl-C\) while waiting for service \S+ to be READY/);
    expect(error.id).toBe(state.id);

    await emu.setTransitionMs(30);
    const recorded = stateFromError(error, await second.check(news));
    const third = await run();
    const done = await recordCalls(emu, () => third.update(recorded, news, { initErrors: true }));
    expect(done.calls).toEqual(["POST /projects/{project}/services/{service}/enablePooler"]);
    expect(done.result.state.outs).toMatchObject({
      cpuMillis: 2000,
      connectionPooler: true,
      status: "READY",
    });
  }, 30_000);

  it("ends a delete's wait; the service stays in the stack and the next delete finishes", async () => {
    const setup = await run();
    const state = await setup.create(program());
    await emu.setTransitionMs(3_000);
    const second = await run();
    const deleting = errorOf(second.delete(state));
    await requested((r) => r.method === "DELETE");
    second.runtime.cancel();
    const error = await deleting;
    expect(error.message).toMatch(
      new RegExp(
        `^cancelled \\(Ctrl-C\\) while waiting for service ${state.id} to be deleted \\(.*\\)\\. The API accepted ` +
          `the delete of service ${state.id}; it stays in the stack until it is gone\\. ` +
          `Run the command again to finish the delete\\.$`,
      ),
    );
    await emu.setTransitionMs(30);
    const third = await run();
    await third.delete(state);
    expect(await serviceIds()).toEqual([]);
  }, 30_000);
});

describe("a call the API does not answer at once", () => {
  /** The providers of one run on a plain runtime (no stand-in client: the calls go as a user's do). */
  async function plainRun() {
    const runtime = new ConfigRuntime((line) => lines.push(line));
    const provider = providerWith("service", runtime);
    await provider.configure?.({ config: undefined } as never);
    return { ...drive(provider), runtime };
  }
  /** A fault rule for the GETs of one service: the first `count` answered HTTP `status`. */
  const failingGets = (serviceId: string, count: number, status = 503) => ({
    rules: [
      {
        method: "GET",
        path: `^${escape(`${new URL(emu.url).pathname}${emu.projectPath}/services/${serviceId}`)}$`,
        count,
        status,
      },
    ],
  });

  it("a blip the client mends at its first retries is not said", async () => {
    const state = await (await plainRun()).create(program());
    await emu.setFaults(failingGets(state.id, 2));
    lines.length = 0;
    await (await plainRun()).update(state, program({ cpuMillis: 2000, memoryGbs: 8 }));
    expect((await emu.requests()).filter((r: { status: number }) => r.status === 503)).toHaveLength(2);
    expect(lines.filter((l) => /^getService /.test(l))).toEqual([]);
  }, 30_000);

  it("a call still failing at its third retry says each retry and then the answer that ends them", async () => {
    const state = await (await plainRun()).create(program());
    await emu.setTransitionMs(600);
    await emu.setFaults(failingGets(state.id, 4));
    lines.length = 0;
    await (await plainRun()).update(state, program({ cpuMillis: 2000, memoryGbs: 8 }));
    const call = `getService (${state.id})`;
    expect(lines.filter((l) => l.startsWith(call))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${escape(call)}: the API answered HTTP 503; trying again in \\d+ ms \\(retry 3 of 6\\)$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${escape(call)}: the API answered HTTP 503; trying again in \\S+ m?s \\(retry 4 of 6\\)$`,
        ),
      ),
      `${call}: the API answered at attempt 5`,
    ]);
    // The change then goes on, and its last line is the wait's end.
    expect(lines[lines.length - 1]).toMatch(new RegExp(`^done waiting for service ${state.id} to be READY`));
  }, 30_000);

  /** Cancels `runtime`'s run once a call said its third retry; resolves with when it did. */
  async function cancelAtThirdRetry(runtime: ConfigRuntime): Promise<number> {
    for (let i = 0; i < 800 && !lines.some((l) => /\(retry 3 of 6\)$/.test(l)); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    runtime.cancel();
    return Date.now();
  }

  /** A fault rule for the check's first look at the API (`GET /auth/info`): the first `count` answered 503. */
  const failingAuthInfo = (count: number) => ({
    rules: [
      { method: "GET", path: `^${escape(`${new URL(emu.url).pathname}/auth/info`)}$`, count, status: 503 },
    ],
  });

  it("a check's first look at the API (GET /auth/info) says its retries under the resource, then the answer", async () => {
    await emu.setFaults(failingAuthInfo(4));
    lines.length = 0;
    const inputs = await (await plainRun()).check(program());
    expect(inputs.name).toBe(program().name);
    // Before, a preview against an API that did not answer sat silent until the check failed (11 s).
    expect(lines).toEqual([
      expect.stringMatching(
        /^getAuthInfo: the API answered HTTP 503; trying again in \S+ m?s \(retry 3 of 6\)$/,
      ),
      expect.stringMatching(
        /^getAuthInfo: the API answered HTTP 503; trying again in \S+ m?s \(retry 4 of 6\)$/,
      ),
      "getAuthInfo: the API answered at attempt 5",
    ]);
  }, 30_000);

  it("a check whose first look the API does not answer ends on Ctrl-C, saying it was cancelled", async () => {
    await emu.setFaults(failingAuthInfo(20));
    lines.length = 0;
    const run = await plainRun();
    const checking = errorOf(run.check(program()));
    const cancelledAt = await cancelAtThirdRetry(run.runtime);
    const error = await checking;
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    // The run's cancellation, not an API that cannot be reached (which would name mdb:apiUrl).
    expect(error.message).toMatch(/getAuthInfo failed: CANCELLED: .*cancelled \(Ctrl-C\)/);
    expect(error.message).not.toMatch(/cannot reach the API/);
  }, 30_000);

  it("a refresh's read the API keeps failing ends on Ctrl-C, between two of its retries", async () => {
    const state = await (await plainRun()).create(program());
    await emu.setFaults(failingGets(state.id, 20));
    lines.length = 0;
    const second = await plainRun();
    const reading = errorOf(second.read(state.id, state.outs));
    const cancelledAt = await cancelAtThirdRetry(second.runtime);
    const error = await reading;
    // Before, a read was not held to the run's cancellation: it made every retry (about 16 s).
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    expect(error.message).toMatch(/cancel/i);
    expect(lines.filter((l) => l.startsWith(`getService (${state.id}): the API answered HTTP 503`))).toEqual([
      expect.stringMatching(/\(retry 3 of 6\)$/),
    ]);
  }, 30_000);
});
