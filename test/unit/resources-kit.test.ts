/**
 * The provider kit on its own (no server): durations and deadlines, waits, create-once,
 * delete-and-wait-gone, and the state the hidden inputs carry.
 */
import { MdbApiError } from "../../provider/client/errors";
import { CREATE_ATTEMPTS, createOnce } from "../../provider/kit/lifecycle/create";
import { deleteAndWaitGone } from "../../provider/kit/lifecycle/delete";
import { PROJECT_INPUT, stateOf } from "../../provider/kit/hidden";
import { TIMEOUTS_INPUT } from "../../provider/adapters/dynamic/hidden";
import { timeoutsInput } from "../../provider/adapters/dynamic/options";
import { timeoutsIn } from "../../provider/adapters/dynamic/provider";
import { inputsOf } from "../../provider/kit/fields/outputs";
import type { CreatePolicy, OpContext } from "../../provider/kit/spec";
import { DEFAULT_TIMEOUTS, limitOf, parseDuration } from "../../provider/kit/lifecycle/timeouts";
import {
  DEFAULT_POLL,
  TRANSIENT_LOOK_FAILURES,
  WaitError,
  formatDuration,
  pollDelay,
  waitFor,
} from "../../provider/kit/lifecycle/wait";
import { REAL_CLOCK } from "../../provider/kit/context";

/** Where the kit's progress lines go in these tests (handed to it, as the runtime would). */
const progress = jest.fn();
/** What every delete and create of these tests works with besides its own options. */
const IO = { log: progress, clock: REAL_CLOCK };

function apiError(status: number, ambiguous = false): MdbApiError {
  return new MdbApiError({
    operation: "op",
    status,
    code: `HTTP_${status}`,
    apiMessage: `said ${status}`,
    ambiguous,
  });
}

afterEach(() => jest.clearAllMocks());

describe("timeouts", () => {
  it.each([
    ["90s", 90_000],
    ["10m", 600_000],
    ["1h30m", 5_400_000],
    ["500ms", 500],
    ["1.5s", 1500],
    ["", undefined],
    ["soon", undefined],
    ["10m junk", undefined],
  ])("parses %p as %p ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it("forwards customTimeouts as milliseconds and falls back to the defaults", () => {
    const input = timeoutsInput({ create: "2m", delete: "bad" });
    expect(input).toEqual({ create: 120_000 });
    const call = { timeoutMs: timeoutsIn({ [TIMEOUTS_INPUT]: input }).create };
    expect(limitOf(call, "create")).toBe(120_000);
    expect(limitOf({ timeoutMs: timeoutsIn({ [TIMEOUTS_INPUT]: input }).delete }, "delete")).toBe(
      DEFAULT_TIMEOUTS.delete,
    );
  });

  it.each([
    [850, "850 ms"],
    [999.7, "999 ms"],
    [12_000, "12 s"],
    [1_500, "1.5 s"],
    [2_000, "2 s"],
    [2_960, "2.9 s"],
    [12_900, "12 s"],
    [59_999, "59 s"],
    [185_000, "3 min 5 s"],
    [120_000, "2 min"],
  ])("formats %p ms as %p", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe("waitFor", () => {
  const fakeClock = () => {
    let now = 0;
    return { now: () => now, sleep: async (ms: number) => void (now += ms) };
  };

  it("returns the settled value and reports each new state once", async () => {
    const states = ["QUEUED", "QUEUED", "CONFIGURING", "READY"];
    const lines: string[] = [];
    const value = await waitFor(
      async () => states.shift() as string,
      (s) => (s === "READY" ? { done: true } : { done: false, state: s }),
      { what: "x", timeoutMs: 10_000, clock: fakeClock(), onProgress: (m) => lines.push(m) },
    );
    expect(value).toBe("READY");
    expect(lines).toEqual([
      "waiting for x: QUEUED after 100 ms",
      "waiting for x: CONFIGURING after 1.3 s",
      // The last line says it is over: Pulumi shows a resource's last line beside its row.
      "done waiting for x (1.9 s)",
    ]);
  });

  it("says nothing when the first look finds it settled", async () => {
    const lines: string[] = [];
    await waitFor(
      async () => "READY",
      () => ({ done: true }),
      { what: "x", timeoutMs: 10_000, clock: fakeClock(), onProgress: (m) => lines.push(m) },
    );
    expect(lines).toEqual([]);
  });

  it("fails on a failed state, quoting it, and at the time limit, naming the last state", async () => {
    const failed = await waitFor(
      async () => 1,
      () => ({ failed: "the API says no" }),
      { what: "y", timeoutMs: 1000, clock: fakeClock() },
    ).catch((e) => e);
    expect(failed).toBeInstanceOf(WaitError);
    expect(failed).toMatchObject({ kind: "failed", message: "y: failed: the API says no" });
    const late = await waitFor(
      async () => 1,
      () => ({ done: false, state: "busy" }),
      {
        what: "z",
        timeoutMs: 1000,
        clock: fakeClock(),
      },
    ).catch((e) => e);
    expect(late).toMatchObject({ kind: "timeout", lastState: "busy" });
    expect(late.message).toMatch(/timed out after .* waiting for z \(last state: busy\).*customTimeouts/);
  });

  it("looks at 100 ms, then on a 650 ms grid from the wait's start that a slow look does not shift", async () => {
    expect(DEFAULT_POLL).toEqual({ firstMs: 100, everyMs: 650 });
    expect(pollDelay(DEFAULT_POLL, 0, 0)).toBe(100);
    expect(pollDelay(DEFAULT_POLL, 1, 130)).toBe(520);
    expect(pollDelay(DEFAULT_POLL, 2, 690)).toBe(610);
    // A look that took longer than a tick moves to the next grid point still ahead.
    expect(pollDelay(DEFAULT_POLL, 3, 1400)).toBe(550);
    const clock = fakeClock();
    const at: number[] = [];
    await waitFor(
      async () => {
        at.push(clock.now());
        return at.length;
      },
      (n) => (n === 6 ? { done: true } : { done: false, state: "QUEUED" }),
      { what: "svc", timeoutMs: 60_000, clock },
    );
    expect(at).toEqual([100, 650, 1300, 1950, 2600, 3250]);
    // Fewer than two looks a second however long the wait.
    expect(at.length / (at[at.length - 1] / 1000)).toBeLessThan(2);
  });

  it("looks again after a look fails transiently (no answer, 429, 5xx), saying so", async () => {
    const answers: Array<string | MdbApiError> = [
      apiError(503),
      "QUEUED",
      apiError(429),
      apiError(500),
      "READY",
    ];
    const lines: string[] = [];
    const value = await waitFor(
      async () => {
        const next = answers.shift() as string | MdbApiError;
        if (next instanceof MdbApiError) throw next;
        return next;
      },
      (s) => (s === "READY" ? { done: true } : { done: false, state: s }),
      { what: "svc", timeoutMs: 10_000, clock: fakeClock(), onProgress: (m) => lines.push(m) },
    );
    expect(value).toBe("READY");
    expect(lines.filter((l) => /a look failed \(op failed: HTTP 503/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /a look failed/.test(l))).toHaveLength(3);
  });

  it("gives up after TRANSIENT_LOOK_FAILURES failed looks in a row, and at once on any other error", async () => {
    let looks = 0;
    const down = await waitFor(
      async () => {
        looks++;
        throw apiError(502);
      },
      () => ({ done: true }),
      { what: "svc", timeoutMs: 60_000, clock: fakeClock() },
    ).catch((e) => e);
    expect(down).toMatchObject({ status: 502 });
    expect(looks).toBe(TRANSIENT_LOOK_FAILURES);
    looks = 0;
    const gone = await waitFor(
      async () => {
        looks++;
        throw apiError(404);
      },
      () => ({ done: true }),
      { what: "svc", timeoutMs: 60_000, clock: fakeClock() },
    ).catch((e) => e);
    expect(gone).toMatchObject({ status: 404 });
    expect(looks).toBe(1);
  });
});

describe("createOnce", () => {
  type Rec = { id: string; name: string; status: string };
  const ctx = { ref: { projectId: "p" }, ...IO, adoptExisting: false } as unknown as OpContext<never>;
  const policy = (records: Rec[], send: () => Rec): CreatePolicy<{ name: string }, Rec, never> => ({
    what: (want) => `thing ${want.name}`,
    list: async () => records,
    same: (r, want) => r.name === want.name,
    identity: "name",
    live: (r) => r.status !== "failed",
    send: async () => send(),
    refusal: (found) => `a thing named ${found.name} exists`,
    otherwise: "choose another name",
    ignored: (found) => `ignoring ${found.map((r) => r.id).join(", ")}`,
  });
  const request = (autoNamed: boolean) => ({
    ctx,
    want: { name: "a" },
    autoNamed,
    recordId: (r: Rec) => r.id,
    importId: (r: Rec) => `parent/${r.id}`,
  });

  it("adopts a live record of a generated name, refuses one of a given name with import advice", async () => {
    const send = jest.fn(() => ({ id: "new", name: "a", status: "ok" }));
    const existing = [{ id: "old", name: "a", status: "ok" }];
    expect(await createOnce(policy(existing, send), request(true))).toEqual(existing[0]);
    expect(progress).toHaveBeenCalledWith("thing a already exists as old (an interrupted run?); adopting it");
    await expect(createOnce(policy(existing, send), request(false))).rejects.toThrow(
      'a thing named a exists. Adopt it with the resource option { import: "parent/old" }, or choose another name',
    );
    expect(send).not.toHaveBeenCalled();
  });

  it("reports matching records that are not live, and creates beside them", async () => {
    const made = { id: "new", name: "a", status: "ok" };
    const result = await createOnce(
      policy([{ id: "dead", name: "a", status: "failed" }], () => made),
      request(true),
    );
    expect(result).toBe(made);
    expect(progress).toHaveBeenCalledWith("ignoring dead");
  });

  it("after an ambiguous failure takes only a new matching record; gives up after CREATE_ATTEMPTS sends", async () => {
    const records: Rec[] = [{ id: "dead", name: "a", status: "failed" }];
    let sent = 0;
    const lost = policy(records, () => {
      sent++;
      if (sent === 2) records.push({ id: "made", name: "a", status: "ok" });
      throw apiError(503, true);
    });
    expect((await createOnce(lost, request(false))).id).toBe("made");
    expect(sent).toBe(2);
    const never = policy([], () => {
      sent++;
      throw apiError(503, true);
    });
    sent = 0;
    await expect(createOnce(never, request(false))).rejects.toThrow(/HTTP_503/);
    expect(CREATE_ATTEMPTS).toBe(6);
    expect(sent).toBe(CREATE_ATTEMPTS);
  }, 10_000);

  it("sends again after a definite refusal only when the policy says so", async () => {
    let sent = 0;
    const refused = {
      ...policy([], () => {
        if (++sent === 1) throw apiError(409);
        return { id: "x", name: "a", status: "ok" };
      }),
      retryRefused: async (error: MdbApiError) => error.isConflict,
    };
    expect((await createOnce(refused, request(false))).id).toBe("x");
    const plain = policy([], () => {
      throw apiError(400);
    });
    await expect(createOnce(plain, request(false))).rejects.toThrow(/HTTP_400/);
  });
});

describe("deleteAndWaitGone", () => {
  it("404 on the delete means already gone: nothing to wait for", async () => {
    const look = jest.fn(async () => ({ status: "present" }));
    await deleteAndWaitGone({
      ...IO,
      what: "thing t",
      send: () => Promise.reject(apiError(404)),
      look,
      timeoutMs: 100,
    });
    expect(look).not.toHaveBeenCalled();
  });

  it("waits until the resource is gone, and times out naming its state", async () => {
    let left = 2;
    await deleteAndWaitGone({
      ...IO,
      what: "thing t",
      send: async () => undefined,
      look: async () => (left-- > 0 ? { status: "deleting" } : undefined),
      timeoutMs: 5000,
    });
    expect(left).toBeLessThan(0);
    const stuck = deleteAndWaitGone({
      ...IO,
      what: "thing t",
      send: async () => undefined,
      look: () => Promise.resolve({ status: "deleting" }),
      timeoutMs: 150,
    });
    await expect(stuck).rejects.toThrow(/waiting for thing t to be deleted \(last state: deleting\)/);
  });

  it("retries a delete refused while in use, then fails with the advice", async () => {
    const whileInUse = { poll: { initialMs: 10, maxMs: 20, factor: 2, jitter: 0 }, advice: "Free it" };
    let refusals = 2;
    const send = jest.fn(async () => {
      if (refusals-- > 0) throw apiError(409);
    });
    await deleteAndWaitGone({
      ...IO,
      what: "thing t",
      send,
      timeoutMs: 5000,
      whileInUse,
    });
    expect(send).toHaveBeenCalledTimes(3);
    const never = deleteAndWaitGone({
      ...IO,
      what: "thing t",
      send: () => Promise.reject(apiError(409)),
      timeoutMs: 100,
      whileInUse,
    });
    await expect(never).rejects.toThrow(
      /^cannot delete thing t: it is still in use after .*\(said 409\)\. Free it, then/,
    );
  });
});

describe("state carried in outputs", () => {
  it("keeps the program's project input, and drops undefined members", () => {
    const inputs = { projectId: "mine" };
    expect(stateOf({ a: 1, b: undefined, c: { d: undefined } }, inputs)).toEqual({
      a: 1,
      c: {},
      [PROJECT_INPUT]: "mine",
    });
  });

  it("on refresh, never takes the resolved project of old outputs for the program's input", () => {
    const olds = { projectId: "resolved" };
    const refreshed = stateOf({ projectId: "resolved" }, olds, "outputs");
    expect(refreshed).not.toHaveProperty(PROJECT_INPUT);
    expect(
      inputsOf(["projectId", "name"], { projectId: "resolved", name: "n" }, refreshed[PROJECT_INPUT]),
    ).toEqual({
      name: "n",
    });
    expect(stateOf({}, { ...olds, [PROJECT_INPUT]: "given" }, "outputs")[PROJECT_INPUT]).toBe("given");
  });
});
