/**
 * What the e2e suites of programs in other Pulumi languages (python.test.ts, yaml.test.ts,
 * go.test.ts) share: their stack on the emulator, and the steps once their program is up on the
 * plugin `mdb`: the state holds the native types and never the password, a second preview is
 * clean, a size change is one in-place update made by the resize call alone, and destroy leaves
 * the emulator empty.
 */
import { EmulatorProcess, Workspace, operations } from "./workspace";

/** The stack the steps run on, read when each step runs (the suite's beforeAll makes it). */
export interface LanguageStack {
  ws: Workspace;
  emulator: EmulatorProcess;
}

/**
 * Registers the suite's beforeAll and afterAll for a program in another language: an emulator, the
 * program (a folder whose Pulumi.yaml names the plugin folder itself) copied to a workspace, what
 * `prepare` adds to that folder (an SDK, a virtualenv), the stack `dev` with the secret config
 * `dbPassword` set to `password`; the emulator stopped and the workspace removed at the end.
 * Returns the stack, for the tests to read when they run.
 */
export function useLanguageStack(
  program: string,
  password: string,
  prepare: (ws: Workspace) => void | Promise<void> = () => {},
): () => LanguageStack {
  let stack: LanguageStack | undefined;
  let emulator: EmulatorProcess | undefined;
  let ws: Workspace | undefined;
  beforeAll(async () => {
    emulator = await EmulatorProcess.start();
    // The native face adds nothing here: the program's Pulumi.yaml names the plugin folder itself.
    ws = Workspace.create(program, emulator.url, "native");
    await prepare(ws);
    await ws.stack("dev");
    await ws.config("dbPassword", password, { secret: true });
    stack = { ws, emulator };
  });
  afterAll(async () => {
    await emulator?.stop();
    ws?.remove();
  });
  return () => {
    if (!stack) throw new Error("the language stack is not up: its beforeAll failed");
    return stack;
  };
}

/**
 * Checks that the exported state has the plugin's types of the program and not `password`, and
 * one provider of `mdb`, which every resource of the plugin uses: those the program declares and
 * the children of its `ProductionDatabase` alike.
 */
export async function expectNativeState(ws: Workspace, password: string): Promise<void> {
  const state = await ws.exportState();
  for (const type of ["Vpc", "Service", "ReadReplicaSet", "ProductionDatabase"])
    expect(state).toContain(`"type": "mdb:index:${type}"`);
  expect(state).not.toContain(password);
  const { resources } = (
    JSON.parse(state) as {
      deployment: {
        resources: Array<{ urn: string; type: string; id?: string; provider?: string; parent?: string }>;
      };
    }
  ).deployment;
  const providers = resources
    .filter((r) => r.type === "pulumi:providers:mdb")
    .map((r) => `${r.urn}::${r.id}`);
  expect(providers).toHaveLength(1);
  const custom = resources.filter(
    (r) => r.type.startsWith("mdb:index:") && r.type !== "mdb:index:ProductionDatabase",
  );
  // Some of them are the component's children.
  expect(custom.filter((r) => r.parent?.includes("mdb:index:ProductionDatabase")).length).toBeGreaterThan(0);
  expect(custom.filter((r) => r.provider !== providers[0]).map((r) => r.urn)).toEqual([]);
}

/**
 * Declares the tests after `up`: a clean second preview; `cpuMillis` set to 2000 in the stack's
 * config previews as an update of the resource `db` only and `up` makes the resize call alone,
 * then `afterResize` checks the program's outputs; destroy empties the emulator.
 */
export function laterSteps(
  stack: () => LanguageStack,
  afterResize: (outputs: Record<string, unknown>) => void,
): void {
  it("a second preview shows no changes", async () => {
    const ops = operations(await stack().ws.preview());
    expect(Object.entries(ops).filter(([, op]) => op !== "same")).toEqual([]);
  });

  it("a size change previews as an update of the service, and up makes only the resize call", async () => {
    const { ws, emulator } = stack();
    await ws.config("cpuMillis", "2000");
    const steps = await ws.preview();
    expect(steps.get("db")?.op).toBe("update");
    expect(steps.get("db")?.diffReasons).toEqual(["cpuMillis"]);
    expect(Object.entries(operations(steps)).filter(([name, op]) => name !== "db" && op !== "same")).toEqual(
      [],
    );
    await emulator.clearCalls();
    await ws.up();
    expect(await emulator.calls()).toEqual(["POST /services/{id}/resize"]);
    afterResize(await ws.outputs());
  });

  it("destroy leaves the emulator empty", async () => {
    const { ws, emulator } = stack();
    await ws.destroy();
    expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
  });
}
