/**
 * The data-safety invariants of docs/recovery.md against the emulator, through the providers'
 * functions as the engine calls them: a resource the API accepted is recorded with its inputs
 * even when the API goes away (I1), and a run never deletes a record another of its resources
 * holds (I2). Each "run" is a runtime of its own, configured as the provider host configures it.
 */
import { RESOURCE_NAME_INPUT } from "../../provider/adapters/dynamic/hidden";
import { ACCEPTED_OUTPUT } from "../../provider/kit/hidden";
import type { ResourceKind } from "../../provider/resources/registry";
import type { TestEmulator } from "../helpers/emulator";
import {
  drive,
  errorOf,
  progressLines,
  recordCalls,
  stateFromError,
  type Props,
  useProviderEmulator,
} from "../helpers/provider";
import { MdbApi } from "../../provider/client/api";
import { ConfigRuntime } from "../../provider/runtime";
import { providerWith } from "../helpers/runtime";

let emu: TestEmulator;
useProviderEmulator({}, (started) => (emu = started));
beforeEach(async () => {
  await emu.reset();
  progressLines.length = 0;
});
afterEach(() => {
  delete process.env.MDB_ADOPT_EXISTING;
});

const lines: string[] = [];

/**
 * A run's runtime whose client retries a failed request once (the default six take 16 s of
 * backoff against an API that is away; the e2e test waits them out).
 */
class QuickRuntime extends ConfigRuntime {
  override session() {
    const session = super.session();
    if (!(session.api as { quick?: boolean }).quick) {
      const { apiUrl, publicKey, secretKey } = session.config;
      const api = Object.assign(new MdbApi({ baseUrl: apiUrl, publicKey, secretKey, maxRetries: 1 }), {
        quick: true,
      });
      Object.defineProperty(session, "api", { value: api });
    }
    return session;
  }
}

/** The providers of one run, as the provider host configures them (holds on). */
async function run(kind: ResourceKind = "service") {
  const provider = providerWith(kind, new QuickRuntime((line) => lines.push(line)));
  await provider.configure?.({ config: undefined } as never);
  return drive(provider);
}

/** The program's service `name` (its Pulumi name `resource`). */
const program = (resource: string, extra: Props = {}): Props => ({
  name: "bad-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  [RESOURCE_NAME_INPUT]: resource,
  ...extra,
});

/** Resolves once `check` holds, polling every 20 ms (up to 10 s). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("timed out");
}

async function serviceIds(): Promise<string[]> {
  const response = await emu.api<Array<{ service_id: string }>>("GET", `${emu.projectPath}/services`);
  return response.body.map((s) => s.service_id);
}

/** The API away for every read of a service (connections dropped), as in issue 26's scenario 1. */
const API_AWAY = { rules: [{ method: "GET", path: "/services/[^/]+$", drop: true, count: 100_000 }] };

describe("I1: accepted, then the API went away", () => {
  it.each([
    ["", undefined],
    [" (with mdb:adoptExisting on)", "true"],
  ])(
    "the next up finishes the service: no replacement, same id, one service%s",
    async (_with, adopt) => {
      const news = program("db", { connectionPooler: true, __timeouts: { create: 1500 } });
      const first = await run();
      await emu.setFaults(API_AWAY);
      const error = await errorOf(first.create(news));
      expect(error.id).toEqual(expect.any(String));
      const recorded = stateFromError(error, await first.check(news));
      // The create's answer and the program's inputs, not an empty state.
      expect(recorded.outs).toMatchObject({
        serviceId: error.id,
        name: "bad-db",
        serviceType: "POSTGRES",
        regionCode: "us-east-1",
        connectionPooler: false,
      });

      await emu.setFaults({});
      if (adopt) process.env.MDB_ADOPT_EXISTING = adopt;
      const second = await run();
      const { diff } = await second.diff(recorded, news);
      expect(diff.replaces).toEqual([]);
      const { result, calls } = await recordCalls(emu, () =>
        second.update(recorded, news, { initErrors: true }),
      );
      expect(calls).toEqual(["POST /projects/{project}/services/{service}/enablePooler"]);
      expect(result.state.id).toBe(error.id);
      expect(result.state.outs).toMatchObject({ status: "READY", connectionPooler: true });
      expect(await serviceIds()).toEqual([error.id]);
    },
    30_000,
  );

  it("an update cut off by the outage after its resize was accepted: the next up sends nothing twice", async () => {
    const first = await run();
    const state = await first.create(program("db"));
    const news = program("db", { cpuMillis: 2000, memoryGbs: 8, deletionProtection: true });
    const second = await run();
    await emu.setTransitionMs(1500);
    try {
      const updating = errorOf(second.update(state, news));
      await until(async () =>
        (await emu.requests()).some((r) => r.method === "POST" && r.path.endsWith("/resize")),
      );
      await emu.setFaults(API_AWAY);
      const error = await updating;
      expect(error.id).toBe(state.id);
      // What the outage leaves, and what to do next, after the client's own error.
      expect(error.message).toMatch(
        new RegExp(
          `NETWORK_ERROR.*\\. service ${state.id} exists and stays in the stack with your inputs; nothing was deleted\\. ` +
            "Run `pulumi up` again once the API answers to finish the job\\.$",
        ),
      );
      const recorded = stateFromError(error, await second.check(news, state.inputs));
      // Nothing observed the resize done: the old sizes stay to be planned again; the setting
      // needs no call and is recorded; the values that replace are the program's.
      expect(recorded.outs).toMatchObject({
        name: "bad-db",
        serviceType: "POSTGRES",
        regionCode: "us-east-1",
        cpuMillis: 1000,
        deletionProtection: true,
      });
      // ... and the state names the resize the API accepted, so the next preview can say so.
      expect(recorded.outs[ACCEPTED_OUTPUT]).toEqual(["resizeService 1000m/4GB → 2000m/8GB"]);

      await emu.setFaults({});
      const third = await run();
      lines.length = 0;
      const { diff } = await third.diff(recorded, news);
      expect(diff.replaces).toEqual([]);
      // The preview still lists the resize (sent again if the API had not applied it) and says
      // that up waits for the accepted one.
      expect(lines).toEqual([
        "db: resizeService 1000m/4GB → 2000m/8GB (the service restarts once); resizeService was accepted by the " +
          "API in an earlier run that ended before it settled: up waits for it and sends it again only if the API " +
          "has not applied it",
      ]);
      const { result, calls } = await recordCalls(emu, () =>
        third.update(recorded, news, { initErrors: true }),
      );
      // The update plans from the live record, where the resize is done or under way: not sent again.
      expect(calls).toEqual([]);
      expect(result.state.outs).toMatchObject({ cpuMillis: 2000, memoryGbs: 8, status: "READY" });
      expect(result.state.outs[ACCEPTED_OUTPUT]).toBeUndefined();
      expect(await serviceIds()).toEqual([state.id]);
    } finally {
      await emu.setTransitionMs(30);
    }
  }, 30_000);
});

describe("I1 for the other kinds that wait after the API accepted them", () => {
  /** A READY service and a VPC to hang them on. */
  async function parents(): Promise<{ serviceId: string; vpcId: string }> {
    const made = await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, {
      name: "primary",
    });
    const vpc = await emu.api<{ id: string }>("POST", `${emu.projectPath}/vpcs`, {
      name: "core",
      cidr: "10.0.0.0/16",
      region_code: "us-east-1",
    });
    await emu.waitFor(
      async () =>
        (await emu.api<{ status: string }>("GET", `${emu.projectPath}/services/${made.body.service_id}`))
          .body,
      (s) => s.status === "READY",
      { what: "service READY" },
    );
    return { serviceId: made.body.service_id, vpcId: vpc.body.id };
  }

  const kinds: Array<[ResourceKind, (p: { serviceId: string; vpcId: string }) => Props, string]> = [
    [
      "read-replica-set",
      ({ serviceId }) => ({ serviceId, name: "readers", nodes: 1, cpuMillis: 500, memoryGbs: 2 }),
      "/replicaSets",
    ],
    [
      "vpc-peering",
      ({ vpcId }) => ({
        vpcId,
        peerAccountId: "123456789012",
        peerRegionCode: "us-west-2",
        peerVpcId: "vpc-peer1",
      }),
      "/peerings",
    ],
  ];
  it.each(kinds)(
    "%s: the API away once the create was accepted; the next up finishes it in place",
    async (kind, inputsOf, collection) => {
      const news = { ...inputsOf(await parents()), [RESOURCE_NAME_INPUT]: "r" };
      const first = await run(kind);
      await emu.setTransitionMs(1500);
      try {
        const creating = errorOf(first.create(news));
        await until(async () =>
          (await emu.requests()).some((r) => r.method === "POST" && r.path.endsWith(collection)),
        );
        await emu.setFaults({ rules: [{ method: "GET", path: ".", drop: true, count: 100_000 }] });
        const error = await creating;
        expect(error.id).toEqual(expect.any(String));
        const recorded = stateFromError(error, await first.check(news));
        const { [RESOURCE_NAME_INPUT]: _name, ...inputs } = news;
        expect(recorded.outs).toMatchObject(inputs);

        await emu.setFaults({});
        const second = await run(kind);
        const { diff } = await second.diff(recorded, news);
        expect(diff.replaces).toEqual([]);
        const { result, calls } = await recordCalls(emu, () =>
          second.update(recorded, news, { initErrors: true }),
        );
        expect(calls).toEqual([]);
        expect(result.state.id).toBe(error.id);
        expect(result.state.outs.status).toBe("active");
      } finally {
        await emu.setTransitionMs(30);
      }
    },
    30_000,
  );
});

describe("I2: a run never deletes what another of its resources holds", () => {
  it("the old half of a replacement whose new half adopted the same service deletes nothing", async () => {
    const first = await run();
    const old = await first.create(program("db"));
    process.env.MDB_ADOPT_EXISTING = "true";
    const second = await run();
    const adopted = await second.create(program("db"));
    expect(adopted.id).toBe(old.id);
    // The program gives no password: the adopted record's initial one is not known, and it says so.
    expect(lines).toContain(
      "service bad-db: its initial password is unknown to this stack (the API gives it only to the create " +
        "that made it), so its connection outputs are null; give the service a `password` to set one (updatePassword)",
    );
    lines.length = 0;
    const { calls } = await recordCalls(emu, () => second.delete(old));
    expect(calls).toEqual([]);
    expect(lines).toEqual([
      `service "bad-db" (${old.id}) was not deleted (no API call was made): resource db of this run adopted it ` +
        "in its replacement, so the new resource is this same record; it stays in the stack under that resource",
    ]);
    expect(await serviceIds()).toEqual([old.id]);
  }, 30_000);

  it("a record another resource adopted (a resource renamed in the program) stays", async () => {
    const old = await (await run()).create(program("db"));
    process.env.MDB_ADOPT_EXISTING = "true";
    const second = await run();
    await second.create(program("db-renamed"));
    const { calls } = await recordCalls(emu, () => second.delete(old));
    expect(calls).toEqual([]);
    expect(lines.at(-1)).toContain("resource db-renamed of this run adopted it");
    expect(await serviceIds()).toEqual([old.id]);
  }, 30_000);

  it("a service imported twice: dropping one entry from the program deletes nothing while the other is in it", async () => {
    const state = await (await run()).create(program("s"));
    // `pulumi import` of the same id under a second name, later dropped from the program.
    const twice = { ...state, outs: { ...state.outs, [RESOURCE_NAME_INPUT]: "s2" } };
    const next = await run();
    // Pulumi diffs every resource of the program before it deletes those the program dropped.
    await next.diff(state, program("s"));
    lines.length = 0;
    const { calls } = await recordCalls(emu, () => next.delete(twice));
    expect(calls).toEqual([]);
    expect(lines).toEqual([
      `service "bad-db" (${state.id}) was not deleted (no API call was made): resource s of this run manages it ` +
        "(it is in the program); it stays in the stack under that resource",
    ]);
    expect(await serviceIds()).toEqual([state.id]);
    // Its own replacement's old half, diffed under the same name, still deletes.
    const { calls: own } = await recordCalls(emu, () => next.delete(state));
    expect(own).toEqual(["DELETE /projects/{project}/services/{service}"]);
  }, 30_000);

  it("a refresh then destroy in one run deletes; a stale second entry of the same record does not", async () => {
    const state = await (await run()).create(program("db"));
    const stale = { ...state, outs: { ...state.outs, [RESOURCE_NAME_INPUT]: "db-stale" } };
    const destroy = await run();
    await destroy.read(state.id, state.outs);
    await destroy.read(stale.id, stale.outs);
    const { calls: kept } = await recordCalls(emu, () => destroy.delete(stale));
    expect(kept).toEqual([]);
    const { calls } = await recordCalls(emu, () => destroy.delete(state));
    expect(calls).toEqual(["DELETE /projects/{project}/services/{service}"]);
    expect(await serviceIds()).toEqual([]);
  }, 30_000);
});
