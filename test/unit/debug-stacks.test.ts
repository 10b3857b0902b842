/**
 * Pulumi stores a stack trace on every promise it makes for a resource's properties, which in a
 * TypeScript program is the largest per-resource cost of a preview (see
 * provider/pulumi-contract/debug-stacks.ts). Our classes register without capturing those
 * stacks, in the constructor and in what the registration runs after it returns, and only those:
 * a user's own error thrown from a transformation, a transform or an apply keeps its frames, the
 * stack limit comes back whatever happens, and PULUMI_DEBUG_PROMISE_LEAKS keeps every stack.
 */
import type * as pulumi from "@pulumi/pulumi";

type Classes = typeof import("../../provider/index");

/** What the formatter in place was asked to format while `build` ran: the top function of each stack. */
function formattedDuring<T>(build: () => T): { tops: string[]; result: T } {
  const tops: string[] = [];
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, callSites) => {
    tops.push(callSites[0]?.getFunctionName() ?? "(anonymous)");
    return previous ? previous(error, callSites) : `${error}`;
  };
  try {
    return { tops, result: build() };
  } finally {
    Error.prepareStackTrace = previous;
  }
}

/**
 * With a stack formatter installed (as Pulumi installs source-map support in a TypeScript
 * program), what it was asked to format from `build`'s start until the promise it returns
 * settles, after the constructor returned (`returned()` says when): the top function of each
 * stack, "(no frames)" for one formatted without frames.
 */
async function formattedAfterReturn(build: (returned: () => void) => Promise<void>): Promise<string[]> {
  const tops: string[] = [];
  let counting = false;
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, callSites) => {
    if (counting) tops.push(callSites[0]?.getFunctionName() ?? "(no frames)");
    return previous
      ? previous(error, callSites)
      : [`${error}`, ...callSites.map((site) => `    at ${site}`)].join("\n");
  };
  try {
    await build(() => (counting = true));
    await new Promise((resolve) => setImmediate(resolve));
    return tops;
  } finally {
    Error.prepareStackTrace = previous;
  }
}

/** Resolves when the engine (the mocks) has answered `resource`'s registration. */
function registered(resource: pulumi.CustomResource): Promise<unknown> {
  return new Promise((resolve) => resource.id.apply(resolve));
}

describe("promise debug stacks while resources register", () => {
  let classes: Classes;
  let pulumiModule: typeof pulumi;
  const vpcArgs = { name: "net", cidr: "10.0.0.0/16", regionCode: "r" };

  beforeAll(async () => {
    pulumiModule = require("@pulumi/pulumi") as typeof pulumi;
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
  });

  it("a plain CustomResource formats one stack per property promise (what the classes skip)", () => {
    const { tops } = formattedDuring(
      () =>
        new (class Thing extends pulumiModule.CustomResource {})("test:index:Thing", "plain", {
          a: 1,
          b: 2,
          c: 3,
        }),
    );
    expect(tops.filter((t) => t === "debuggablePromise").length).toBeGreaterThan(10);
  });

  it("a Service's dozens of property promises are not formatted; its source position is", () => {
    const before = Error.stackTraceLimit;
    const { tops } = formattedDuring(
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
    expect(tops).not.toContain("debuggablePromise");
    // The source position the engine shows (Pulumi's own `callsites`) is formatted as before.
    expect(tops).toContain("callsites");
    expect(Error.stackTraceLimit).toBe(before);
  });

  it.each(["Vpc", "VpcPeering", "ReadReplicaSet"] as const)("a %s registers without them too", (cls) => {
    const args = {
      Vpc: vpcArgs,
      VpcPeering: { vpcId: "vpc1", peerAccountId: "a", peerRegionCode: "r", peerVpcId: "v" },
      ReadReplicaSet: { serviceId: "svc1", name: "r", nodes: 1, cpuMillis: 500, memoryGbs: 2 },
    }[cls];
    const Class = classes[cls] as unknown as new (name: string, args: object) => unknown;
    const { tops } = formattedDuring(() => new Class(`x-${cls}`, args));
    expect(tops).not.toContain("debuggablePromise");
  });

  it.each(["Service", "Vpc", "VpcPeering", "ReadReplicaSet"] as const)(
    "the native %s (pulumi-managed-db/native, type mdb:index:*) registers without them too",
    (cls) => {
      const native = require("../../provider/native") as Classes;
      const args = {
        Service: { name: "db", serviceType: "POSTGRES", regionCode: "r", cpuMillis: 1000, memoryGbs: 4 },
        Vpc: vpcArgs,
        VpcPeering: { vpcId: "vpc1", peerAccountId: "a", peerRegionCode: "r", peerVpcId: "v" },
        ReadReplicaSet: { serviceId: "svc1", name: "r", nodes: 1, cpuMillis: 500, memoryGbs: 2 },
      }[cls];
      const Class = native[cls] as unknown as new (name: string, args: object) => pulumi.CustomResource;
      const before = Error.stackTraceLimit;
      const { tops, result } = formattedDuring(() => new Class(`native-${cls}`, args));
      expect(tops).not.toContain("debuggablePromise");
      expect(tops).toContain("callsites");
      expect(Error.stackTraceLimit).toBe(before);
      expect(pulumiModule.CustomResource.isInstance(result)).toBe(true);
    },
  );

  it("after the constructor returns, a plain CustomResource's registration formats more debug stacks", async () => {
    const tops = await formattedAfterReturn(async (returned) => {
      const plain = new (class Thing extends pulumiModule.CustomResource {})(
        "test:index:Thing",
        "plain-later",
        {
          a: 1,
          b: 2,
        },
      );
      returned();
      await registered(plain);
    });
    expect(tops.filter((t) => t === "debuggablePromise").length).toBeGreaterThan(0);
  });

  it.each(["main", "native"] as const)(
    "after the constructor returns, the registration of a Service (%s entry) formats none, only their message",
    async (entry) => {
      const Service = (
        require(entry === "main" ? "../../provider/index" : "../../provider/native") as Classes
      ).Service;
      const tops = await formattedAfterReturn(async (returned) => {
        const db = new Service(`later-${entry}`, {
          name: "db",
          serviceType: "POSTGRES",
          regionCode: "r",
          cpuMillis: 1000,
          memoryGbs: 4,
        });
        returned();
        await registered(db);
      });
      expect(tops).not.toContain("debuggablePromise");
      expect(tops).toContain("(no frames)");
    },
  );

  it("under the mark a registration leaves, a stack that is not Pulumi's debug promise's keeps its frames (a user's transform runs there)", async () => {
    const { skipDebugStacks, watchRegistration } =
      require("../../provider/pulumi-contract/debug-stacks") as typeof import("../../provider/pulumi-contract/debug-stacks");
    class Registering {}
    watchRegistration(Registering.prototype);
    const made: Record<string, string | undefined> = {};
    function usersTransform(): void {
      made.user = new Error("seen by the user's transform").stack;
    }
    function debuggablePromise(): void {
      made.debug = new Error("a debug promise's").stack;
    }
    let later: Promise<void> = Promise.resolve();
    const tops = await formattedAfterReturn(async (returned) => {
      const restore = skipDebugStacks();
      try {
        (new Registering() as { __name?: string }).__name = "registering"; // as Pulumi's constructor does
        later = Promise.resolve().then(() => {
          usersTransform();
          debuggablePromise();
        });
      } finally {
        restore();
      }
      returned();
      await later;
    });
    expect(made.user).toMatch(/at usersTransform .*debug-stacks\.test/);
    expect(made.debug).not.toMatch(/\n\s+at /);
    expect(tops).toEqual(["usersTransform", "(no frames)"]);
  });

  it("a user's own error thrown from a transformation keeps its frames", () => {
    function usersTransformation(): never {
      throw new Error("the user's own check failed");
    }
    let thrown: Error | undefined;
    try {
      new classes.Vpc("transformed", vpcArgs, { transformations: [usersTransformation] });
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.message).toMatch(/the user's own check failed/);
    expect(thrown?.stack).toMatch(/at usersTransformation .*debug-stacks\.test/);
  });

  it("a user's own error made in an apply keeps its frames", async () => {
    const vpc = new classes.Vpc("applied", vpcArgs);
    const made = await new Promise<Error>((resolve) =>
      vpc.name.apply(function usersApply(name) {
        resolve(new Error(`about ${name}`));
        return name;
      }),
    );
    expect(made.stack).toMatch(/at usersApply .*debug-stacks\.test/);
  });

  it("with PULUMI_DEBUG_PROMISE_LEAKS set, Pulumi's promises keep their stacks", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    const { tops } = formattedDuring(() => new classes.Vpc("debugged", { ...vpcArgs, cidr: "10.1.0.0/16" }));
    expect(tops.filter((t) => t === "debuggablePromise").length).toBeGreaterThan(10);
  });

  it("a constructor that throws still restores the limit", () => {
    const before = Error.stackTraceLimit;
    expect(() => new classes.Vpc("bad", vpcArgs, { parent: {} as never })).toThrow();
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("a transformation that throws after another of our resources registered in it keeps its frames", () => {
    function nestingTransformation(): never {
      new classes.Vpc("inner", { ...vpcArgs, cidr: "10.9.0.0/16" });
      throw new Error("after the inner one");
    }
    let thrown: Error | undefined;
    try {
      new classes.Vpc("outer", vpcArgs, { transformations: [nestingTransformation] });
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.stack).toMatch(/at nestingTransformation .*debug-stacks\.test/);
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
  });
});
