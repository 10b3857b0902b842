/**
 * Pulumi stores a stack trace on every promise it makes for a resource's properties, which in a
 * TypeScript program is the largest per-resource cost of a preview (see
 * provider/kit/debug-stacks.ts). The classes register with V8 capturing no frames, restore the
 * limit whatever happens, and keep the stacks when PULUMI_DEBUG_PROMISE_LEAKS asks for them.
 */
import type * as pulumi from "@pulumi/pulumi";
import { skipDebugStacks } from "../../provider/kit/debug-stacks";

type Classes = typeof import("../../provider/index");

/**
 * The stacks formatted while `build` runs, in order, as frame counts: Pulumi formats one for the
 * resource's source position (which it captures in full itself, and keeps) and one for every
 * promise it wraps.
 */
function stacksDuring(build: () => void): { sourcePosition: number; promises: number[] } {
  const frames: number[] = [];
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, callSites) => {
    frames.push(callSites.length);
    return previous ? previous(error, callSites) : `${error}`;
  };
  try {
    build();
  } finally {
    Error.prepareStackTrace = previous;
  }
  const [sourcePosition = 0, ...promises] = frames;
  return { sourcePosition, promises };
}

describe("promise debug stacks while resources register", () => {
  let classes: Classes;
  const limit = Error.stackTraceLimit;

  beforeAll(async () => {
    const pulumiModule = require("@pulumi/pulumi") as typeof pulumi;
    await pulumiModule.runtime.setMocks(
      {
        newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
        call: (args) => args.inputs,
      },
      "debug-stacks",
      "test",
    );
    classes = require("../../provider/index") as Classes;
  });

  afterEach(() => {
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("a Service's dozens of property promises carry no stack frames, and the limit comes back", () => {
    const { sourcePosition, promises } = stacksDuring(
      () =>
        new classes.Service("db", {
          name: "db",
          serviceType: "POSTGRES",
          regionCode: "r",
          cpuMillis: 1000,
          memoryGbs: 4,
          password: "p",
        }),
    );
    // The source position the engine shows keeps its frames (the constructor's caller among them).
    expect(sourcePosition).toBeGreaterThan(3);
    // URN and id (2 promises each) plus 4 per registered property: Pulumi formatted them all.
    expect(promises.length).toBeGreaterThan(100);
    expect(promises.every((n) => n === 0)).toBe(true);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it.each(["Vpc", "VpcPeering", "ReadReplicaSet"] as const)(
    "a %s registers without stack frames too",
    (cls) => {
      const args = {
        Vpc: { name: "net", cidr: "10.0.0.0/16", regionCode: "r" },
        VpcPeering: { vpcId: "vpc1", peerAccountId: "a", peerRegionCode: "r", peerVpcId: "v" },
        ReadReplicaSet: { serviceId: "svc1", name: "r", nodes: 1, cpuMillis: 500, memoryGbs: 2 },
      }[cls];
      const Class = classes[cls] as unknown as new (name: string, args: object) => unknown;
      const { sourcePosition, promises } = stacksDuring(() => new Class(`x-${cls}`, args));
      expect(sourcePosition).toBeGreaterThan(3);
      expect(promises.length).toBeGreaterThan(10);
      expect(promises.every((n) => n === 0)).toBe(true);
    },
  );

  it("with PULUMI_DEBUG_PROMISE_LEAKS set, Pulumi's promises keep their stacks", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    const { promises } = stacksDuring(
      () => new classes.Vpc("debugged", { name: "d", cidr: "10.1.0.0/16", regionCode: "r" }),
    );
    expect(promises.length).toBeGreaterThan(10);
    expect(promises.every((n) => n > 0)).toBe(true);
  });

  it("a constructor that throws still restores the limit", () => {
    expect(
      () =>
        new classes.Vpc("bad", { name: "b", cidr: "10.2.0.0/16", regionCode: "r" }, { parent: {} as never }),
    ).toThrow();
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("code after registration captures stacks as before", () => {
    const restore = skipDebugStacks();
    expect(Error.stackTraceLimit).toBe(0);
    restore();
    expect(new Error("after").stack).toMatch(/debug-stacks\.test/);
  });
});
