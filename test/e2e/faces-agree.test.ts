/**
 * Both faces give the same answers to the same program (DESIGN's rule): the quickstart run side
 * by side through the dynamic classes and through the native plugin (its generated SDK), each on
 * an emulator of its own, compared step by step: the check failures of a bad input, the [mdb]
 * lines of the first preview, the API calls `up` makes, the stack's outputs (ids and hosts, which
 * each emulator makes up, compared by shape), the lines and calls of an in-place change, and
 * destroy's calls.
 */
import { EmulatorProcess, type Face, Workspace } from "./workspace";

jest.setTimeout(600_000);

const FACES: Face[] = ["dynamic", "native"];
const PASSWORD = "faces-Db-Password-3301";

/** One face's program and emulator. */
interface Run {
  emulator: EmulatorProcess;
  ws: Workspace;
}

const runs = {} as Record<Face, Run>;

beforeAll(async () => {
  await Promise.all(
    FACES.map(async (face) => {
      const emulator = await EmulatorProcess.start();
      const ws = Workspace.create("quickstart", emulator.url, face);
      await ws.stack("dev");
      await ws.config("dbPassword", PASSWORD, { secret: true });
      runs[face] = { emulator, ws };
    }),
  );
});

afterAll(async () => {
  for (const run of Object.values(runs)) {
    await run?.emulator.stop();
    run?.ws.remove();
  }
});

/** Runs `step` on both faces at once; their answers, by face. */
async function both<T>(step: (run: Run, face: Face) => Promise<T>): Promise<Record<Face, T>> {
  const [dynamic, native] = await Promise.all(FACES.map((face) => step(runs[face], face)));
  return { dynamic, native };
}

/** The distinct `[mdb]` lines of `text`, sorted: where each face prints them differs, not what. */
function mdbLines(text: string): string[] {
  const lines = [...text.matchAll(/\[mdb\] ([^\n]*)/g)].map((m) => m[1].trim());
  return [...new Set(lines)].sort();
}

/** The check failures of `text`, without the type token that names the face. */
function failures(text: string): string[] {
  const lines = [...text.matchAll(/(resource '[^']+'[^\n]*? has a problem: [^\n]*)/g)].map((m) =>
    m[1].trim(),
  );
  return [...new Set(lines)].sort();
}

/** `value` with what an emulator makes up (ids, hosts, times) replaced by its kind. */
function shape(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => shape(v, key));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v, k)]));
  if (typeof value === "string" && /id$|host|created/i.test(key)) return `<${key}>`;
  return value;
}

it("a bad input fails the preview on both with the same words, before any API call", async () => {
  const answers = await both(async ({ ws, emulator }) => {
    await ws.config("cpuMillis", "1100");
    try {
      const { stdout, stderr } = await ws.pulumi(["preview"], { allowFailure: true });
      return { failures: failures(stdout + stderr), calls: await emulator.calls() };
    } finally {
      await ws.removeConfig("cpuMillis");
    }
  });
  expect(answers.dynamic.failures).toEqual([
    expect.stringMatching(/^resource 'db'.*cpuMillis.*has a problem: .*multiple of 250/),
  ]);
  expect(answers.native).toEqual(answers.dynamic);
});

it("the first preview's [mdb] lines, up's calls and the outputs are the same", async () => {
  const answers = await both(async ({ ws, emulator }) => {
    const preview = await ws.pulumi(["preview"]);
    await emulator.clearCalls();
    await ws.up();
    return {
      lines: mdbLines(preview.stdout + preview.stderr),
      calls: (await emulator.calls()).sort(),
      outputs: shape(await ws.outputs()),
    };
  });
  expect(answers.dynamic.calls.length).toBeGreaterThan(4);
  expect(answers.native.lines).toEqual(answers.dynamic.lines);
  expect(answers.native.calls).toEqual(answers.dynamic.calls);
  expect(answers.native.outputs).toEqual(answers.dynamic.outputs);
});

it("an in-place change: the same [mdb] line, the same calls, the same outputs after", async () => {
  const answers = await both(async ({ ws, emulator }) => {
    await ws.config("cpuMillis", "2000");
    await ws.config("replicaCount", "2");
    const preview = await ws.pulumi(["preview"]);
    await emulator.clearCalls();
    await ws.up();
    return {
      lines: mdbLines(preview.stdout + preview.stderr),
      calls: await emulator.calls(),
      outputs: shape(await ws.outputs()),
    };
  });
  expect(answers.dynamic.lines).toEqual([expect.stringMatching(/^db: .*resizeService/)]);
  expect(answers.native).toEqual(answers.dynamic);
});

it("destroy makes the same calls and leaves both emulators empty", async () => {
  const answers = await both(async ({ ws, emulator }) => {
    await emulator.clearCalls();
    await ws.destroy();
    return { calls: (await emulator.calls()).sort(), left: await emulator.inventory() };
  });
  expect(answers.dynamic.left).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
  expect(answers.native).toEqual(answers.dynamic);
});
