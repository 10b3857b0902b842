/**
 * What each wait makes of a status (one table for every wait of every resource), how long a
 * status it does not expect is borne, a cancel that ends a wait at once, and what is said of a
 * call the client repeats.
 */
import type { RetryInfo } from "../../provider/client/http-options";
import { REAL_CLOCK } from "../../provider/kit/context";
import { QUIET_RETRIES, retryProgress } from "../../provider/kit/lifecycle/api-view";
import { CancelledError } from "../../provider/kit/lifecycle/cancel";
import { judgeDeleting } from "../../provider/kit/lifecycle/delete";
import { apiReason } from "../../provider/kit/lifecycle/statuses";
import { DEFAULT_UNEXPECTED_STATUS_MS } from "../../provider/kit/lifecycle/wait-limits";
import { type PollVerdict, WaitError, waitFor, waitUntil } from "../../provider/kit/lifecycle/wait";
import { judgeReplicaSet } from "../../provider/resources/read-replica-set/plan";
import { judgeService } from "../../provider/resources/service/plan";
import { judgePeering } from "../../provider/resources/vpc-peering/provider";

/** A verdict in one word: done, progress, unexpected, failed. */
function kind(verdict: PollVerdict): string {
  if ("failed" in verdict) return "failed";
  if (verdict.done) return "done";
  return verdict.unexpected === undefined ? "progress" : "unexpected";
}

const JUDGES: Record<string, (status: string) => PollVerdict> = {
  "service to be READY": (status) => judgeService("READY")({ status } as never),
  "service to be PAUSED": (status) => judgeService("PAUSED")({ status } as never),
  "read replica set to be active": (status) => judgeReplicaSet({ id: "rrs-1", status } as never),
  "peering to be active": (status) => judgePeering({ id: "pcx-1", status } as never),
  "anything to be deleted": (status) => judgeDeleting({ status }),
};

describe.each([
  [
    "service to be READY",
    "READY",
    ["QUEUED", "CONFIGURING", "RESUMING", "UPGRADING", "OPTIMIZING"],
    ["DELETING", "DELETED"],
    ["UNSTABLE", "PAUSED", "PAUSING", "SOMETHING_NEW"],
  ],
  [
    "service to be PAUSED",
    "PAUSED",
    ["QUEUED", "CONFIGURING", "PAUSING", "UPGRADING", "OPTIMIZING"],
    ["DELETING", "DELETED"],
    ["UNSTABLE", "READY", "RESUMING", "SOMETHING_NEW"],
  ],
  [
    "read replica set to be active",
    "active",
    ["creating", "resizing"],
    ["error", "deleting"],
    ["paused", "SOMETHING_NEW"],
  ],
  ["peering to be active", "active", ["pending"], ["failed"], ["SOMETHING_NEW"]],
  [
    "anything to be deleted",
    undefined,
    ["DELETING", "deleting"],
    [],
    ["READY", "UNSTABLE", "active", "error"],
  ],
])("waiting for a %s", (wait, settled, progress, failed, unexpected) => {
  const judge = JUDGES[wait];
  if (settled) it(`${settled} is done`, () => expect(kind(judge(settled))).toBe("done"));
  it.each(progress)("%s is progress", (status) => expect(kind(judge(status))).toBe("progress"));
  if (failed.length)
    it.each(failed)("%s fails at once", (status) => expect(kind(judge(status))).toBe("failed"));
  it.each(unexpected)("%s is unexpected, named with the API's reason", (status) =>
    expect(judge(status)).toEqual({ done: false, state: status, unexpected: "the API gives no reason" }),
  );
});

describe("the API's reason", () => {
  it.each([
    [{ error_message: "disk full" }, 'the API says: "disk full"'],
    [{ error_message: "  " }, "the API gives no reason"],
    [{ error_message: null }, "the API gives no reason"],
    [{}, "the API gives no reason"],
  ])("%j: %s", (record, said) => expect(apiReason(record)).toBe(said));
});

describe("a status the wait does not expect", () => {
  const fakeClock = () => {
    let now = 0;
    return { now: () => now, sleep: async (ms: number) => void (now += ms) };
  };
  const unstable = { done: false as const, state: "UNSTABLE", unexpected: 'the API says: "disk full"' };

  it("is borne 5 minutes by default, then fails naming it, its reason and the limit's key", async () => {
    expect(DEFAULT_UNEXPECTED_STATUS_MS).toBe(300_000);
    const lines: string[] = [];
    const error = await waitFor(
      async () => 1,
      () => unstable,
      {
        what: "service s1 to be READY",
        timeoutMs: 30 * 60_000,
        clock: fakeClock(),
        onProgress: (line) => lines.push(line),
      },
    ).catch((e) => e);
    expect(error).toBeInstanceOf(WaitError);
    expect(error.kind).toBe("stuck");
    expect(error.message).toBe(
      'gave up waiting for service s1 to be READY: it has been UNSTABLE for 5 min, a status this wait does not expect (the API says: "disk full"); the limit is 5 min (mdb:unexpectedStatusMs / MDB_UNEXPECTED_STATUS_MS)',
    );
    // Named at once, then every 30 s while it lasts.
    expect(lines[0]).toBe(
      'waiting for service s1 to be READY: UNSTABLE after 100 ms, a status this wait does not expect (the API says: "disk full"); it gives up if that lasts 5 min',
    );
    expect(lines.length).toBeGreaterThanOrEqual(10);
  });

  it("on an explicit provider's limit, names its argument: a resource's wait hands it on", async () => {
    const clock = fakeClock();
    const error = await waitUntil(
      {
        deadline: clock.now() + 30 * 60_000,
        log: () => undefined,
        clock,
        unexpectedStatusMs: 60_000,
        settingsOrigin: "the arguments of provider prod",
      },
      async () => 1,
      () => unstable,
      "service s1 to be READY",
    ).catch((e) => e);
    expect(error).toBeInstanceOf(WaitError);
    expect(error.message).toMatch(
      /the limit is 1 min \(unexpectedStatusMs in the arguments of provider prod \/ MDB_UNEXPECTED_STATUS_MS\)$/,
    );
  });

  it("counts time in a row only: an expected status starts the count again", async () => {
    const clock = fakeClock();
    // UNSTABLE for 4 minutes, CONFIGURING once, UNSTABLE for 4 minutes, then READY.
    const verdict = (): PollVerdict => {
      const t = clock.now();
      if (t < 240_000) return unstable;
      if (t < 241_000) return { done: false, state: "CONFIGURING" };
      if (t < 481_000) return unstable;
      return { done: true };
    };
    await expect(waitFor(async () => 1, verdict, { what: "s", timeoutMs: 30 * 60_000, clock })).resolves.toBe(
      1,
    );
  });
});

describe("a cancel", () => {
  it("ends a wait within a few milliseconds, saying where it was", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const error = await waitFor(
      async () => 1,
      () => ({ done: false, state: "CONFIGURING" }),
      {
        what: "service s1 to be READY",
        timeoutMs: 60_000,
        clock: REAL_CLOCK,
        signal: controller.signal,
      },
    ).catch((e) => e);
    const ended = Date.now() - started - 200;
    expect(error).toBeInstanceOf(CancelledError);
    expect(error.message).toMatch(
      /^cancelled \(Ctrl-C\) while waiting for service s1 to be READY \(after \d+ ms, last status CONFIGURING\)$/,
    );
    expect(ended).toBeLessThan(50);
  });
});

describe("a call the client repeats", () => {
  const info = (over: Partial<RetryInfo>): RetryInfo => ({
    operation: "getService",
    resourceId: "q1w2e3r4t5",
    attempt: 3,
    retries: 6,
    delayMs: 1_900,
    asked: false,
    reason: "HTTP 503",
    ...over,
  });
  const said = (each: RetryInfo[]) => {
    const lines: string[] = [];
    const report = retryProgress((line) => lines.push(line));
    const answers = each.map((i) => report.retrying(i));
    // As the client does: the answer is told only of a call a retry of which was said.
    if (answers.includes(true))
      report.answered({ operation: "getService", resourceId: "q1w2e3r4t5", attempts: each.length + 1 });
    return { lines, answers };
  };

  it.each([
    [
      "an answer that is an error",
      info({}),
      "getService (q1w2e3r4t5): the API answered HTTP 503; trying again in 1.9 s (retry 3 of 6)",
    ],
    [
      "no answer",
      info({ reason: "ECONNREFUSED", attempt: 4, delayMs: 3_950 }),
      "getService (q1w2e3r4t5): no answer from the API (ECONNREFUSED); trying again in 3.9 s (retry 4 of 6)",
    ],
    [
      "a pause the API asked for, even at the first retry",
      info({ reason: "HTTP 429", attempt: 1, delayMs: 5_000, asked: true }),
      "getService (q1w2e3r4t5): the API answered HTTP 429; trying again in 5 s, as it asked (retry 1 of 6)",
    ],
    [
      "no pause left",
      info({ attempt: 6, delayMs: 0 }),
      "getService (q1w2e3r4t5): the API answered HTTP 503; trying again at once (retry 6 of 6)",
    ],
  ])("is said past the quiet retries: %s", (_, retry, line) => {
    expect(said([retry]).lines).toEqual([line, "getService (q1w2e3r4t5): the API answered at attempt 2"]);
  });

  it(`passes its first ${QUIET_RETRIES} retries in silence when their pauses are short`, () => {
    const quick = [info({ attempt: 1, delayMs: 200 }), info({ attempt: 2, delayMs: 450 })];
    expect(said(quick)).toEqual({ lines: [], answers: [false, false] });
    expect(said([...quick, info({ attempt: 3, delayMs: 900 })]).lines).toEqual([
      "getService (q1w2e3r4t5): the API answered HTTP 503; trying again in 900 ms (retry 3 of 6)",
      "getService (q1w2e3r4t5): the API answered at attempt 4",
    ]);
  });
});
