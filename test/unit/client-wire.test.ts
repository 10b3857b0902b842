/**
 * What the client sends (the wire rules, provider/client/wire.ts): the live API takes sizes as
 * strings of digits and needs both sizes on a resize, the strategy of a fork and the region of
 * a VPC, so the client sends them so and refuses a call without them before any request.
 */
import { MdbApi } from "../../provider/client/api";
import { MdbRequestError } from "../../provider/client/errors";
import { HttpClient } from "../../provider/client/http";

/** A client whose HTTP layer records what it would send and answers `answer`. */
function recordingApi(answer: unknown = {}) {
  const http = new HttpClient({ baseUrl: "http://127.0.0.1:1", publicKey: "pk", secretKey: "sk" });
  const sent: Array<{ operation: string; body: unknown }> = [];
  http.request = (async (spec: { operation: string; body?: unknown }) => {
    sent.push({ operation: spec.operation, body: spec.body });
    return answer;
  }) as HttpClient["request"];
  return { api: new MdbApi(http), sent };
}

/** Calls the client's method `op` bypassing its static types (what plain JavaScript can do). */
function untyped(api: MdbApi, op: string, ...args: unknown[]): Promise<unknown> {
  return (api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[op](...args);
}

describe("client wire rules", () => {
  it("sends sizes as strings of digits on create, fork, resize and replica set resize", async () => {
    const { api, sent } = recordingApi();
    await api.createService("p", { name: "a", cpuMillis: 1000, memoryGbs: 4 });
    await api.createService("p", { name: "b", cpuMillis: "shared", memoryGbs: "shared" });
    await api.forkService("p", "s", { forkStrategy: "NOW", cpuMillis: 2000, memoryGbs: 8 });
    await api.resizeService("p", "s", { cpuMillis: 500, memoryGbs: "2" });
    await api.resizeReplicaSet("p", "s", "r", { cpuMillis: 1000, memoryGbs: 4, nodes: 3 });
    expect(sent).toEqual([
      { operation: "createService", body: { name: "a", cpu_millis: "1000", memory_gbs: "4" } },
      { operation: "createService", body: { name: "b", cpu_millis: "shared", memory_gbs: "shared" } },
      {
        operation: "forkService",
        body: { fork_strategy: "NOW", cpu_millis: "2000", memory_gbs: "8" },
      },
      { operation: "resizeService", body: { cpu_millis: "500", memory_gbs: "2" } },
      // nodes is no size: it stays a number, as every version types it.
      { operation: "resizeReplicaSet", body: { cpu_millis: "1000", memory_gbs: "4", nodes: 3 } },
    ]);
  });

  it.each([
    ["resizeService", ["p", "s", { cpuMillis: 1000 }], "memory_gbs: is required"],
    ["resizeService", ["p", "s", { memoryGbs: 4 }], "cpu_millis: is required"],
    ["resizeReplicaSet", ["p", "s", "r", { nodes: 3 }], "cpu_millis: is required"],
    ["forkService", ["p", "s", {}], "fork_strategy: is required"],
    ["forkService", ["p", "s"], "fork_strategy: is required"],
    ["createVpc", ["p", { name: "n", cidr: "10.0.0.0/16" }], "region_code: is required"],
  ])("refuses %s without what the API needs, before any request", async (op, args, message) => {
    const { api, sent } = recordingApi();
    const failure = untyped(api, op, ...args);
    await expect(failure).rejects.toBeInstanceOf(MdbRequestError);
    await expect(failure).rejects.toThrow(message);
    expect(sent).toEqual([]);
  });

  it("renameVpc answered with {message} reads the VPC back; answered with the VPC, does not", async () => {
    const vpc = { id: "42", name: "renamed", cidr: "10.0.0.0/16", region_code: "us-east-1" };
    const { api, sent } = recordingApi();
    api.http.request = (async (spec: { operation: string; body?: unknown }) => {
      sent.push({ operation: spec.operation, body: spec.body });
      return spec.operation === "renameVpc" ? { message: "VPC renamed" } : vpc;
    }) as HttpClient["request"];
    await expect(api.renameVpc("p", "42", { name: "renamed" })).resolves.toEqual(vpc);
    expect(sent.map((s) => s.operation)).toEqual(["renameVpc", "getVpc"]);
    const direct = recordingApi(vpc);
    await expect(direct.api.renameVpc("p", "42", { name: "renamed" })).resolves.toEqual(vpc);
    expect(direct.sent.map((s) => s.operation)).toEqual(["renameVpc"]);
  });

  it("requires both sizes, the fork strategy and the VPC region in the method types", () => {
    const { api } = recordingApi();
    // Each line is a compile error if the type lets the field out (tsc checks this file).
    // @ts-expect-error memoryGbs is required
    void api.resizeService("p", "s", { cpuMillis: 1000 }).catch(() => undefined);
    // @ts-expect-error cpuMillis is required
    void api.resizeReplicaSet("p", "s", "r", { memoryGbs: 4 }).catch(() => undefined);
    // @ts-expect-error forkStrategy is required
    void api.forkService("p", "s", { name: "f" }).catch(() => undefined);
    // @ts-expect-error regionCode is required
    void api.createVpc("p", { name: "n", cidr: "10.0.0.0/16" }).catch(() => undefined);
  });
});
