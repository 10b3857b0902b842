/**
 * The `ReadReplicaSet` provider functions when things go wrong, against an emulator over real
 * HTTP on a READY service: waits that time out or meet `error` keep the id, injected faults
 * converge without duplicates, and no error quotes a secret.
 */
import { TEST_TRANSITION_MS, randomFaults, type TestEmulator } from "../helpers/emulator";
import { PROVIDER, errorOf, errorText, recordCalls, stateFromError } from "../helpers/provider";
import {
  ONE,
  SECRET_KEY,
  SETS,
  SLOW_MS,
  appeared,
  fixture,
  listSets,
  only,
  readers,
  sets,
  useReplicaSetFixture,
} from "./read-replica-set-fixture";

useReplicaSetFixture();
let emu: TestEmulator;
let serviceId: string;
beforeEach(() => ({ emu, serviceId } = fixture()));

describe("waits that fail keep the id", () => {
  it("create past its timeout: error with id, properties (with __provider) and reasons; next up finishes", async () => {
    await emu.setTransitionMs(SLOW_MS);
    const inputs = readers({ __timeouts: { create: 50 } });
    const error = await errorOf(sets.create(inputs));
    const record = await only();
    expect(error.id).toBe(`${serviceId}/${record.id}`);
    expect(error.message).toMatch(
      /timed out after .* waiting for read replica set .* to be active \(last state: creating\)/,
    );
    expect(error.reasons).toEqual([error.message]);
    expect(error.properties).toMatchObject({
      replicaSetId: record.id,
      status: "creating",
      __provider: PROVIDER,
      __timeouts: { create: 50 },
    });

    // The engine keeps the set; the next `pulumi up` updates it (init errors) and only waits.
    await emu.setTransitionMs(TEST_TRANSITION_MS);
    const state = stateFromError(error, await sets.check(inputs));
    const { result, calls } = await recordCalls(emu, () => sets.update(state, inputs, { initErrors: true }));
    expect(calls).toEqual([]);
    expect(result.state.outs).toMatchObject({ status: "active", replicaSetId: record.id });
    expect(await listSets()).toHaveLength(1);
  });

  it("a set that goes to `error` while created: error with the id and the API's message", async () => {
    await emu.setTransitionMs(1000);
    const creating = errorOf(sets.create(readers()));
    const record = (await appeared("readers"))!;
    await emu.admin("POST", `/replicaSets/${record.id}/fail`, { message: "no capacity in us-east-1a" });
    const error = await creating;
    expect(error.id).toBe(`${serviceId}/${record.id}`);
    expect(error.message).toContain("no capacity in us-east-1a");
    expect(error.message).toContain("`error`");
    expect(error.properties).toMatchObject({ status: "error", __provider: PROVIDER });

    // The next `pulumi up` replaces it, deleting it first: the new set takes the same name.
    const state = stateFromError(error, await sets.check(readers()));
    const { diff } = await sets.diff(state, readers());
    expect(diff).toMatchObject({ replaces: ["status"], deleteBeforeReplace: true });
    await emu.setTransitionMs(TEST_TRANSITION_MS);
    const { result: replacement, calls } = await recordCalls(emu, async () => {
      await sets.delete(state);
      return sets.create(readers());
    });
    expect(calls).toEqual([`DELETE ${ONE}`, `POST ${SETS}`]);
    expect(replacement.id).not.toBe(state.id);
    expect(await only()).toMatchObject({
      id: replacement.outs.replicaSetId,
      name: "readers",
      status: "active",
    });
  });

  it("a resize past the update timeout: error with the id; the next up finishes without resizing again", async () => {
    const set = await sets.create(readers());
    await emu.setTransitionMs(SLOW_MS);
    const error = await errorOf(sets.update(set, readers({ nodes: 2, __timeouts: { update: 50 } })));
    expect(error.id).toBe(set.id);
    expect(error.message).toMatch(/timed out .* \(last state: resizing\)/);
    expect(error.reasons).toEqual([error.message]);
    expect(error.properties).toMatchObject({ status: "resizing", nodes: 1, __provider: PROVIDER });

    // The user raises the limit; the next `pulumi up` waits for the resize under way.
    const news = readers({ nodes: 2 });
    const state = stateFromError(error, await sets.check(news));
    const { result, calls } = await recordCalls(emu, () => sets.update(state, news, { initErrors: true }));
    expect(calls).toEqual([]);
    expect(result.state.outs).toMatchObject({ nodes: 2, status: "active" });
  });
});

describe("faults", () => {
  // Random faults, plus one sure fault per phase (a GET of the set, retried), so that every run
  // meets faults: about 25 requests at 0.2 left about 1 run in 200 with none.
  const RANDOM = randomFaults({ method: "GET", path: "/replicaSets", count: 1, status: 503 });

  it("random 429/500/503 during create, update and delete: converges, one set at a time", async () => {
    await emu.setFaults(RANDOM);
    const set = await sets.create(readers());
    const { state } = await sets.update(
      set,
      readers({ nodes: 2, connectionPooler: true, environment: "PROD" }),
    );
    await emu.setFaults({});
    expect(await only()).toMatchObject({
      id: set.outs.replicaSetId,
      nodes: 2,
      metadata: { environment: "PROD" },
    });
    expect(state.outs).toMatchObject({ nodes: 2, connectionPooler: true, environment: "PROD" });

    await emu.setFaults(RANDOM);
    await sets.delete(state);
    await emu.setFaults({});
    expect(await listSets()).toEqual([]);
    expect((await emu.requests()).filter((r) => r.status >= 429).length).toBeGreaterThanOrEqual(2);
  });

  it("resize, pooler and environment answered with a 500 after taking effect: the update converges", async () => {
    const set = await sets.create(readers());
    await emu.setFaults({
      rules: ["resize", "enablePooler", "setEnvironment"].map((action) => ({
        method: "POST",
        path: `/${action}$`,
        count: 1,
        status: 500,
        after: true,
      })),
    });
    const news = readers({ nodes: 3, connectionPooler: true, environment: "PROD" });
    const { state } = await sets.update(set, news);
    expect(state.id).toBe(set.id);
    expect(state.outs).toMatchObject({
      nodes: 3,
      connectionPooler: true,
      environment: "PROD",
      status: "active",
    });
    expect(await only()).toMatchObject({ nodes: 3, metadata: { environment: "PROD" } });
  });

  it("a resize answered with a 500 after it was accepted, while it runs: the retry does not fail the update", async () => {
    const set = await sets.create(readers());
    await emu.setTransitionMs(SLOW_MS);
    await emu.setFaults({
      rules: [{ method: "POST", path: "/resize$", count: 1, status: 500, after: true }],
    });
    const { result, calls } = await recordCalls(emu, () => sets.update(set, readers({ nodes: 2 })), {
      withStatus: true,
    });
    // The client retries the lost answer and meets 409 (resizing): the provider waits, no third call.
    expect(calls).toEqual([`POST ${ONE}/resize -> 500`, `POST ${ONE}/resize -> 409`]);
    expect(result.state.outs).toMatchObject({ nodes: 2, status: "active" });
    expect(await only()).toMatchObject({ nodes: 2, status: "active" });
  });
  it("the DELETE answered with a 500 after taking effect: converges, nothing left", async () => {
    const set = await sets.create(readers());
    await emu.setFaults({
      rules: [{ method: "DELETE", path: "/replicaSets/", count: 1, status: 500, after: true }],
    });
    await sets.delete(set);
    expect(await listSets()).toEqual([]);
  });
});

describe("secrets", () => {
  it("no error quotes the secret key or the Authorization header", async () => {
    const token = Buffer.from(`${emu.credentials.publicKey}:${SECRET_KEY}`).toString("base64");
    await emu.setTransitionMs(SLOW_MS);
    const errors = [await errorOf(sets.create(readers({ __timeouts: { create: 50 } })))];
    await emu.setTransitionMs(TEST_TRANSITION_MS);
    await emu.setFaults({ rules: [{ method: "*", path: "/replicaSets", count: 1000, status: 403 }] });
    errors.push(await errorOf(sets.read(`${serviceId}/rrs-x`, {})));
    errors.push(await errorOf(sets.delete({ id: `${serviceId}/rrs-x`, outs: {} })));
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/timed out/),
      expect.stringMatching(/HTTP 403/),
      expect.stringMatching(/HTTP 403/),
    ]);
    for (const error of errors) {
      expect(errorText(error)).not.toContain(SECRET_KEY);
      expect(errorText(error)).not.toContain(token);
    }
  });
});
