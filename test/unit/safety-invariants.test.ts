/**
 * The data-safety invariants of docs/recovery.md that need no server: what a run holds and why
 * a delete keeps a record (I2), a protected replacement failing the preview (I3), and values the
 * API reports in words the provider does not know (I6), through the providers' own functions as
 * the engine calls them. With the emulator: test/integration/safety-invariants.test.ts.
 */
import type { MdbApi } from "../../provider/client/api";
import { MdbApiError } from "../../provider/client/errors";
import { UNKNOWN } from "../../provider/kit/fields/check";
import { diffByRules } from "../../provider/kit/fields/diff";
import { API_WORDS_OUTPUT } from "../../provider/kit/hidden";
import { RESOURCE_NAME_INPUT } from "../../provider/adapters/dynamic/hidden";
import { RunHolds } from "../../provider/kit/lifecycle/holds";
import { resourceProvider } from "../../provider/kit/lifecycle/provider";
import { dynamicProvider } from "../../provider/adapters/dynamic/provider";
import { PartialFailure, withDeleteAdvice, withPartialState } from "../../provider/kit/lifecycle/partial";
import { REGISTRY } from "../../provider/resources/registry";
import { ConfigRuntime } from "../../provider/runtime";
import { providerWith, testRuntime } from "../helpers/runtime";

const log = jest.fn();
afterEach(() => jest.clearAllMocks());

/** The lines the providers printed. */
const printed = () => log.mock.calls.map(([line]) => line as string);

/** What the service `db` looks like in the state. */
const SERVICE_STATE = {
  serviceId: "svc1",
  projectId: "p1",
  name: "orders-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  replicaCount: 0,
  syncReplicaCount: 0,
  environment: "DEV",
  connectionPooler: false,
  paused: false,
  status: "READY",
  [RESOURCE_NAME_INPUT]: "db",
};

/** The program's inputs that match {@link SERVICE_STATE}. */
const SERVICE_INPUTS = {
  name: "orders-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  [RESOURCE_NAME_INPUT]: "db",
};

describe("I1: a partial failure is never recorded empty", () => {
  const failWith = (error: unknown, observe: () => Promise<Record<string, unknown> | undefined>) =>
    withPartialState("svc1", () => Promise.reject(error), {
      observe,
      known: () => ({ name: "orders-db", serviceType: "POSTGRES" }),
    }).catch((e: unknown) => e as PartialFailure);

  it("observed when the API answers; the last known state when it is gone or cannot be asked", async () => {
    const seen = await failWith(new Error("wait failed"), async () => ({
      name: "orders-db",
      status: "READY",
    }));
    expect(seen.properties).toEqual({ name: "orders-db", status: "READY" });
    const gone = await failWith(new Error("wait failed"), async () => undefined);
    expect(gone.properties).toEqual({ name: "orders-db", serviceType: "POSTGRES" });
    const away = await failWith(new Error("wait failed"), () => Promise.reject(new Error("NETWORK_ERROR")));
    expect(away.properties).toEqual({ name: "orders-db", serviceType: "POSTGRES" });
  });

  it("does not ask an API it could not reach (its retries would only delay the error)", async () => {
    const observe = jest.fn(async () => ({}));
    const unreachable = Object.create(MdbApiError.prototype, { code: { value: "NETWORK_ERROR" } }) as Error;
    const error = await failWith(new Error("getService failed", { cause: unreachable }), observe);
    expect(observe).not.toHaveBeenCalled();
    expect(error.properties).toMatchObject({ name: "orders-db" });
  });
});

describe("a delete cut off says whether the API had accepted it", () => {
  const unreachable = () =>
    new Error("deleteService failed", {
      cause: Object.create(MdbApiError.prototype, { code: { value: "NETWORK_ERROR" } }),
    });
  const failed = (steps: (accepted: () => void) => Promise<void>) =>
    withDeleteAdvice("service svc1", steps).catch((e: unknown) => (e as Error).message);

  it("accepted, then the wait cut off: the API has it, the command again finishes it", async () => {
    const message = await failed(async (accepted) => {
      accepted();
      throw unreachable();
    });
    expect(message).toBe(
      "deleteService failed. The API accepted the delete of service svc1; it stays in the stack until it is gone. " +
        "Run the command again once the API answers to finish the delete.",
    );
  });

  it("the request itself unanswered: it may have been sent", async () => {
    const message = await failed(async () => {
      throw unreachable();
    });
    expect(message).toBe(
      "deleteService failed. The delete of service svc1 may have been sent; it stays in the stack. " +
        "Run the command again once the API answers to finish the delete.",
    );
  });
});

describe("I2: a delete keeps what another resource of the run holds", () => {
  const cases: Array<
    [string, Parameters<RunHolds["hold"]>[2], string | undefined, string | undefined, RegExp | undefined]
  > = [
    ["created by another resource", "created", "db2", "db", /resource db2 of this run created it/],
    ["adopted by another resource", "adopted", "db2", "db", /resource db2 of this run adopted it/],
    ["adopted by the new half of its replacement", "adopted", "db", "db", /adopted it in its replacement/],
    ["updated by another resource", "updated", "db2", "db", /resource db2 of this run updated it/],
    ["read by another resource (refresh)", "read", "db2", "db", /resource db2 of this run read it/],
    ["read by a resource whose state has no name", "read", "db", undefined, /read it/],
    ["adopted, the deleter's state has no name", "adopted", "db", undefined, /adopted it/],
    ["read by itself (a refresh before destroy)", "read", "db", "db", undefined],
    [
      "in the program as another resource (imported twice)",
      "managed",
      "db2",
      "db",
      /resource db2 of this run manages it/,
    ],
    ["diffed by itself (the old half of its replacement)", "managed", "db", "db", undefined],
    ["read, no name on either side (a state of an older release)", "read", undefined, undefined, undefined],
  ];
  it.each(cases)("%s", (_what, how, by, deleter, kept) => {
    const holds = new RunHolds();
    holds.hold("service", "svc1", how, by);
    const why = holds.whyKeep("service", "svc1", deleter);
    if (kept) expect(why).toMatch(kept);
    else expect(why).toBeUndefined();
  });

  it("holds are per kind and per id", () => {
    const holds = new RunHolds();
    holds.hold("service", "svc1", "adopted", "db2");
    expect(holds.whyKeep("vpc", "svc1", "db")).toBeUndefined();
    expect(holds.whyKeep("service", "svc2", "db")).toBeUndefined();
  });

  it("a record the run kept is found by kind, id and project, and no longer once the resource leaves", () => {
    const holds = new RunHolds();
    const record = { service_id: "svc1", status: "READY" };
    expect(holds.keepRecord("service", "svc1", "p1", record)).toBe(record);
    expect(holds.recordOf("service", "svc1", "p1")).toBe(record);
    expect(holds.recordOf("service", "svc1", "p2")).toBeUndefined();
    expect(holds.recordOf("vpc", "svc1", "p1")).toBeUndefined();
    holds.release("service", "svc1", "db");
    expect(holds.recordOf("service", "svc1", "p1")).toBeUndefined();
  });

  it("a process no provider host configured holds nothing; the host's configure starts the run", async () => {
    const runtime = new ConfigRuntime(log);
    expect(runtime.holds()).toBeUndefined();
    const provider = providerWith("service", runtime);
    await provider.configure?.({ config: undefined } as never);
    const holds = runtime.holds();
    expect(holds).toBeInstanceOf(RunHolds);
    await providerWith("vpc", runtime).configure?.({ config: undefined } as never);
    expect(runtime.holds()).toBe(holds);
  });

  it("the delete makes no API call and says why on its [mdb] line", async () => {
    const runtime = new ConfigRuntime(log);
    const provider = providerWith("service", runtime);
    await provider.configure?.({ config: undefined } as never);
    runtime.holds()?.hold("service", "svc1", "adopted", "db2");
    // No API is configured: any call would fail.
    await expect(provider.delete("svc1", SERVICE_STATE)).resolves.toBeUndefined();
    expect(printed()).toEqual([
      'service "orders-db" (svc1) was not deleted (no API call was made): resource db2 of this run adopted it; ' +
        "it stays in the stack under that resource",
    ]);
  });
});

describe("I3: a replacement of a protected resource fails at preview", () => {
  const services = providerWith("service", testRuntime(log));
  const protectedState = { ...SERVICE_STATE, deletionProtection: true };

  it("names the input that replaces and the way out, before any call", async () => {
    const news = { ...SERVICE_INPUTS, deletionProtection: true, regionCode: "eu-west-1" };
    const error = (await services.diff("svc1", protectedState, news).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe(
      'service "orders-db" (svc1) would be replaced (regionCode us-east-1 → eu-west-1: cannot change in place), ' +
        "but its state has deletionProtection: true, so the delete of the old service would be refused after the " +
        "new one was created. Nothing was created or deleted. To replace it: set regionCode back as it was, set " +
        "deletionProtection: false, run `pulumi up` (it only records the setting), then change regionCode again " +
        "and run `pulumi up`. To keep this service, set regionCode back and leave it unchanged",
    );
  });

  it("lifting the flag in the same change is not enough: the old state's flag decides the delete", async () => {
    const news = { ...SERVICE_INPUTS, deletionProtection: false, regionCode: "eu-west-1" };
    await expect(services.diff("svc1", protectedState, news)).rejects.toThrow(
      /set regionCode back as it was/,
    );
  });

  it("the advice's steps: revert and lift is an update with no replacement, then the change replaces", async () => {
    const lift = await services.diff("svc1", protectedState, {
      ...SERVICE_INPUTS,
      deletionProtection: false,
    });
    expect(lift).toMatchObject({ changes: true, replaces: [] });
    const lifted = { ...protectedState, deletionProtection: false };
    const change = await services.diff("svc1", lifted, { ...SERVICE_INPUTS, regionCode: "eu-west-1" });
    expect(change.replaces).toEqual(["regionCode"]);
  });

  it("a value known only during up does not fail the preview: it says up will fail if it replaces", async () => {
    const news = { ...SERVICE_INPUTS, deletionProtection: true, regionCode: UNKNOWN };
    const diff = await services.diff("svc1", protectedState, news);
    expect(diff.replaces).toEqual(["regionCode"]);
    expect(printed()[0]).toBe(
      "db: regionCode known only during up; if that replaces this service, up fails before creating " +
        "anything, because its state has deletionProtection: true",
    );
    // The diff up makes with the value: the same refusal as at preview.
    await expect(services.diff("svc1", protectedState, { ...news, regionCode: "eu-west-1" })).rejects.toThrow(
      /would be replaced \(regionCode us-east-1 → eu-west-1/,
    );
  });

  it("an in-place change of a protected resource is no concern, nor is protecting the new one", async () => {
    const resize = await services.diff("svc1", protectedState, {
      ...SERVICE_INPUTS,
      deletionProtection: true,
      cpuMillis: 2000,
      memoryGbs: 8,
    });
    expect(resize).toMatchObject({ changes: true, replaces: [] });
    const newOne = await services.diff("svc1", SERVICE_STATE, {
      ...SERVICE_INPUTS,
      deletionProtection: true,
      regionCode: "eu-west-1",
    });
    expect(newOne.replaces).toEqual(["regionCode"]);
  });
});

describe("I6: words the provider does not know never replace", () => {
  it("the generic rule: a replace-only value its type refuses is left alone and listed", () => {
    const rules = {
      kind: { change: "replace" as const, known: (v: unknown) => v === "A" || v === "B" },
      size: { change: "update" as const },
    };
    const diff = diffByRules({ kind: "NEW", size: 1 }, { kind: "A", size: 1 }, rules, []);
    expect(diff).toMatchObject({
      changes: false,
      replaces: [],
      unknownWords: [{ property: "kind", value: "NEW" }],
    });
    expect(diffByRules({ kind: "B" }, { kind: "A" }, rules, []).replaces).toEqual(["kind"]);
  });

  it("serviceType SOMETHING_NEW: no replacement, a warning naming field and value", async () => {
    const services = providerWith("service", testRuntime(log));
    const diff = await services.diff(
      "svc1",
      { ...SERVICE_STATE, serviceType: "SOMETHING_NEW" },
      SERVICE_INPUTS,
    );
    expect(diff).toMatchObject({ changes: false, replaces: [] });
    expect(printed()).toEqual([
      'db: warning: the API reports serviceType "SOMETHING_NEW", which this provider does not know; no ' +
        "replacement is planned for it (the program says POSTGRES)",
    ]);
  });

  it("a state without the values that replace (an older release's partial create) plans no replacement", async () => {
    const services = providerWith("service", testRuntime(log));
    const diff = await services.diff(
      "svc1",
      { serviceId: "svc1", [RESOURCE_NAME_INPUT]: "db" },
      SERVICE_INPUTS,
    );
    expect(diff.replaces).toEqual([]);
    // name renames in place (renameService), so only the two inputs that replace are warned about
    expect(printed().filter((l) => l.includes("warning"))).toEqual([
      expect.stringContaining("serviceType (none)"),
      expect.stringContaining("regionCode (none)"),
    ]);
  });

  describe("refresh keeps the program's word, and only a change of the program replaces", () => {
    const record = {
      service_id: "svc1",
      project_id: "p1",
      name: "orders-db",
      service_type: "SOMETHING_NEW",
      region_code: "us-east-1",
      status: "READY",
      resources: [{ id: "r1", spec: { cpu_millis: 1000, memory_gbs: 4 } }],
    };
    const api = { getService: async () => record } as unknown as MdbApi;
    const runtime = testRuntime(log);
    jest.spyOn(runtime, "session").mockReturnValue({
      api,
      projectId: async (own?: string) => own ?? "p1",
      adoptExisting: false,
    } as never);
    const entry = REGISTRY.service;
    const services = dynamicProvider(
      resourceProvider(entry.definition, entry.ops as never, runtime),
      runtime,
    );

    it("the refreshed state says POSTGRES, with the API's word beside it", async () => {
      const read = await services.read("svc1", SERVICE_STATE);
      expect(read.props).toMatchObject({
        serviceType: "POSTGRES",
        [API_WORDS_OUTPUT]: { serviceType: "SOMETHING_NEW" },
      });
      expect(read.inputs).toMatchObject({ serviceType: "POSTGRES" });
    });

    it("the next preview warns and plans nothing; a program change replaces", async () => {
      const refreshed = (await services.read("svc1", SERVICE_STATE)).props as Record<string, unknown>;
      const same = await services.diff("svc1", refreshed, SERVICE_INPUTS);
      expect(same.changes).toBe(false);
      expect(printed()).toEqual([
        'db: warning: the API reports serviceType "SOMETHING_NEW", which this provider does not know; the stack ' +
          "keeps POSTGRES, and only a change of serviceType in the program replaces it",
      ]);
      const changed = await services.diff("svc1", refreshed, { ...SERVICE_INPUTS, serviceType: "VECTOR" });
      expect(changed.replaces).toEqual(["serviceType"]);
    });
  });
});
