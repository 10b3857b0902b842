/**
 * What makes interrupted runs converge, on its own (no server): the adoption switch
 * (`mdb:adoptExisting` / `MDB_ADOPT_EXISTING`) read and applied by create-once, and deletes
 * refused because of blockers, waited for only while those are being deleted.
 */
import { MdbApiError } from "../../provider/client/errors";
import { InvalidConfigError, resolveAdoptExisting } from "../../provider/config";
import { BLOCKED_GRACE_MS, judgeBlocked } from "../../provider/kit/lifecycle/blockers";
import { createOnce } from "../../provider/kit/lifecycle/create";
import { deleteAndWaitGone } from "../../provider/kit/lifecycle/delete";
import type { CreatePolicy, OpContext } from "../../provider/kit/spec";
import { configureRuntime, getApi } from "../../provider/runtime";
import { REAL_CLOCK } from "../../provider/kit/context";

/** Where the kit's progress lines go in these tests (handed to it, as the runtime would). */
const progress = jest.fn();
/** What every delete and create of these tests works with besides its own options. */
const IO = { log: progress, clock: REAL_CLOCK };

const conflict = () =>
  new MdbApiError({
    operation: "deleteVpc",
    status: 409,
    code: "CONFLICT",
    apiMessage: "in use",
    ambiguous: false,
  });

afterEach(() => {
  jest.clearAllMocks();
  delete process.env.MDB_ADOPT_EXISTING;
});

describe("the adoption switch", () => {
  const config = (value?: string) => ({
    get: (key: string) => (key === "mdb:adoptExisting" ? value : undefined),
  });

  it.each([
    [undefined, {}, false],
    ["true", {}, true],
    ["false", { MDB_ADOPT_EXISTING: "true" }, false],
    [undefined, { MDB_ADOPT_EXISTING: "true" }, true],
    ["", { MDB_ADOPT_EXISTING: "false" }, false],
  ])("stack config %p with environment %p reads as %p", (value, env, expected) => {
    expect(resolveAdoptExisting(config(value), env)).toBe(expected);
  });

  it.each([
    ["yes", {}, 'stack config mdb:adoptExisting is "yes"'],
    [undefined, { MDB_ADOPT_EXISTING: "1" }, 'environment variable MDB_ADOPT_EXISTING is "1"'],
  ])(
    "any other value (%p, %p) is a config error naming both the key and the variable",
    (value, env, says) => {
      const read = () => resolveAdoptExisting(config(value), env);
      expect(read).toThrow(InvalidConfigError);
      expect(read).toThrow(says);
      expect(read).toThrow(
        /must be true or false.*pulumi config set mdb:adoptExisting true\|false.*MDB_ADOPT_EXISTING/,
      );
    },
  );
  it("a bad value fails the provider's first use of the API, before any call", () => {
    configureRuntime(config("maybe"));
    try {
      expect(() => getApi()).toThrow('stack config mdb:adoptExisting is "maybe"');
    } finally {
      configureRuntime(undefined);
    }
  });
});

describe("create-once with the switch", () => {
  type Rec = { id: string; name: string };
  const ctx = { ref: { projectId: "p" }, ...IO, adoptExisting: false } as unknown as OpContext<never>;
  const send = jest.fn(async (): Promise<Rec> => ({ id: "new", name: "a" }));
  const policy = (records: Rec[]): CreatePolicy<{ name: string }, Rec, never> => ({
    what: (want) => `thing ${want.name}`,
    list: async () => records,
    same: (r, want) => r.name === want.name,
    identity: "name",
    send,
    refusal: (found) => `a thing named ${found.name} exists`,
    otherwise: "choose another name",
  });
  const request = {
    ctx,
    want: { name: "a" },
    autoNamed: false,
    recordId: (r: Rec) => r.id,
    importId: (r: Rec) => r.id,
  };

  it("refuses a record of a name the program chose, naming the switch", async () => {
    await expect(createOnce(policy([{ id: "old", name: "a" }]), request)).rejects.toThrow(
      "To adopt every record of the same identity instead (after an interrupted run), set mdb:adoptExisting " +
        "to true: `pulumi config set mdb:adoptExisting true`, or MDB_ADOPT_EXISTING=true for one run",
    );
    expect(send).not.toHaveBeenCalled();
  });

  // The switch as the runtime read it (mdb:adoptExisting or MDB_ADOPT_EXISTING, tested above).
  const adopting = { ...request, ctx: { ...ctx, adoptExisting: true } as OpContext<never> };

  it("with the switch on adopts it and prints the adoption", async () => {
    expect(await createOnce(policy([{ id: "old", name: "a" }]), adopting)).toEqual({ id: "old", name: "a" });
    expect(progress).toHaveBeenCalledWith(
      "thing a already exists as old (same name); adopting it because mdb:adoptExisting / MDB_ADOPT_EXISTING is true",
    );
    expect(send).not.toHaveBeenCalled();
  });

  // An explicit provider of the plugin reads no stack config: its own argument is the switch.
  const explicit = { ...request, ctx: { ...ctx, settingsOrigin: "the arguments of provider prod" } };

  it("on an explicit provider, names its argument as the switch", async () => {
    await expect(createOnce(policy([{ id: "old", name: "a" }]), explicit)).rejects.toThrow(
      "To adopt every record of the same identity instead (after an interrupted run), set adoptExisting " +
        "in the arguments of provider prod to true, or MDB_ADOPT_EXISTING=true for one run",
    );
    const on = { ...explicit, ctx: { ...explicit.ctx, adoptExisting: true } as OpContext<never> };
    expect(await createOnce(policy([{ id: "old", name: "a" }]), on)).toEqual({ id: "old", name: "a" });
    expect(progress).toHaveBeenLastCalledWith(
      "thing a already exists as old (same name); adopting it because adoptExisting in the arguments of " +
        "provider prod / MDB_ADOPT_EXISTING is true",
    );
    expect(send).not.toHaveBeenCalled();
  });

  it("never adopts one of two matches, even with the switch or a generated name", async () => {
    const two = [
      { id: "one", name: "a" },
      { id: "two", name: "a" },
    ];
    for (const autoNamed of [false, true]) {
      await expect(createOnce(policy(two), { ...adopting, autoNamed })).rejects.toThrow(
        'thing a matches 2 existing records by name: one, two. Import the one to keep with the resource option { import: "one" }',
      );
    }
    expect(send).not.toHaveBeenCalled();
  });
});

describe("deletes refused because of blockers", () => {
  const peering = { what: "peering pcx-1 (active)", deleting: false };
  const service = { what: "service s-1 (DELETING)", deleting: true };

  it("wait while every blocker is being deleted, however long", () => {
    expect(judgeBlocked([service], 10 * BLOCKED_GRACE_MS)).toEqual({
      wait: "still used by service s-1 (DELETING), being deleted",
    });
  });

  it("wait through the grace for blockers that are not being deleted, then fail naming only those", () => {
    expect(judgeBlocked([peering, service], BLOCKED_GRACE_MS - 1)).toEqual({
      wait: "still used by peering pcx-1 (active) and service s-1 (DELETING), being deleted",
    });
    expect(judgeBlocked([peering, service], BLOCKED_GRACE_MS)).toEqual({ fail: [peering] });
  });

  it("wait when the refusal names no blocker yet (the delete timeout still bounds it)", () => {
    expect(judgeBlocked([], 10 * BLOCKED_GRACE_MS)).toEqual({ wait: "still in use" });
  });

  it("a delete fails past the grace naming the blockers, the API's answer and what to do", async () => {
    const whileInUse = { poll: { initialMs: 10, maxMs: 20, factor: 2, jitter: 0 }, advice: "Free it" };
    const started = Date.now();
    const failed = deleteAndWaitGone({
      ...IO,
      what: "VPC v-1",
      send: () => Promise.reject(conflict()),
      timeoutMs: 60_000,
      whileInUse,
      blockers: async () => [peering],
      blockedGraceMs: 50,
    });
    await expect(failed).rejects.toThrow(
      "cannot delete VPC v-1: it is used by peering pcx-1 (active), which is not being deleted " +
        "(the API answers: in use). Free it (or adopt them into the stack), then run the command again",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a delete waits while its blockers are being deleted, then goes through", async () => {
    const whileInUse = { poll: { initialMs: 10, maxMs: 20, factor: 2, jitter: 0 }, advice: "Free it" };
    let refusals = 5;
    const send = jest.fn(async () => {
      if (refusals-- > 0) throw conflict();
    });
    await deleteAndWaitGone({
      ...IO,
      what: "VPC v-1",
      send,
      timeoutMs: 60_000,
      whileInUse,
      blockers: async () => [service],
      blockedGraceMs: 0,
    });
    expect(send).toHaveBeenCalledTimes(6);
    expect(progress).toHaveBeenCalledWith(
      expect.stringContaining(
        "waiting for VPC v-1 to be deleted: still used by service s-1 (DELETING), being deleted",
      ),
    );
  });
  it("a delete refused while in use, then awaited, says each wait's own end", async () => {
    const whileInUse = { poll: { initialMs: 10, maxMs: 20, factor: 2, jitter: 0 }, advice: "Free it" };
    let refusals = 2;
    let looks = 3;
    const lines: string[] = [];
    await deleteAndWaitGone({
      ...IO,
      log: (line) => lines.push(line),
      what: "thing t-1",
      send: async () => {
        if (refusals-- > 0) throw conflict();
      },
      look: async () => (looks-- > 0 ? { status: "DELETING" } : undefined),
      timeoutMs: 60_000,
      whileInUse,
    });
    expect(lines[0]).toMatch(/^waiting for the API to accept the delete of thing t-1: still in use/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^done waiting for the API to accept the delete of thing t-1 \(/),
    );
    expect(lines[lines.length - 1]).toMatch(/^done waiting for thing t-1 to be deleted \(/);
  });
});
