/**
 * The test sequencer (test/sequencer.js), for a machine with no timings of an earlier run: a test file
 * that is a few lines over a shared suite module weighs that suite (and what it imports), so the
 * slowest suites start first instead of last; a module most files import (workspace.ts) counts
 * for none of them.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const { weights } = require("../sequencer.js") as {
  weights(files: string[]): Map<string, number>;
};

let dir: string;
const file = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-sequencer-"));
  file("workspace.ts", "x".repeat(50_000));
  file("matrix-harness.ts", "h".repeat(30_000));
  file("matrix-suite.ts", `import { h } from "./matrix-harness";\n${"s".repeat(10_000)}`);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("a thin file over a shared suite weighs the suite and its harness; the common workspace counts for none", () => {
  const thin = file("matrix-1.test.ts", `import { run } from "./matrix-suite";\nrun(1);\n`);
  const others = Array.from({ length: 4 }, (_, i) =>
    file(`plain-${i}.test.ts`, `import { Workspace } from "./workspace";\n${"t".repeat(5_000 + i)}`),
  );
  const weight = weights([thin, ...others]);
  const size = (f: string) => fs.statSync(f).size;
  expect(weight.get(thin)).toBe(size(thin) + size(path.join(dir, "matrix-suite.ts")) + 30_000);
  for (const other of others) expect(weight.get(other)).toBe(size(other));
  expect(Math.max(...others.map((o) => weight.get(o)!))).toBeLessThan(weight.get(thin)!);
});

test("on this repository, the fault matrix's files weigh the most, though their own files are the smallest", () => {
  const e2e = path.resolve(__dirname, "../e2e");
  const files = fs
    .readdirSync(e2e)
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => path.join(e2e, name));
  const weight = weights(files);
  const heaviest = [...weight].sort((a, b) => b[1] - a[1]).slice(0, 4);
  expect(heaviest.map(([f]) => path.basename(f)).sort()).toEqual([
    "fault-matrix-1.test.ts",
    "fault-matrix-2.test.ts",
    "fault-matrix-native-2.test.ts",
    "fault-matrix-native.test.ts",
  ]);
  const largestFile = Math.max(...files.map((f) => fs.statSync(f).size));
  expect(fs.statSync(path.join(e2e, "fault-matrix-1.test.ts")).size).toBeLessThan(largestFile / 10);
});
