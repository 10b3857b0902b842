/**
 * scripts/build-if-needed.js, which the demo, the bench and the e2e setup call before packing:
 * dist/ counts as fresh only when it is newer than every source file and folder and every build
 * setting, so a changed, added or deleted source rebuilds and nothing stale is packed.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const { buildIsStale } = require("../../scripts/build-if-needed.js") as {
  buildIsStale(base: string): boolean;
};

let base: string;
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

/** Sets the modification time of `relative` (under base) to `seconds` past a fixed instant. */
function stamp(relative: string, seconds: number): void {
  fs.utimesSync(path.join(base, relative), at(seconds), at(seconds));
}

function write(relative: string, seconds: number): void {
  fs.mkdirSync(path.dirname(path.join(base, relative)), { recursive: true });
  fs.writeFileSync(path.join(base, relative), "x");
  stamp(relative, seconds);
}

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "build-if-needed-"));
  for (const file of ["api/wire.ts", "provider/index.ts", "provider/kit/rules.ts", "emulator/cli.ts"])
    write(file, 10);
  for (const dir of ["api", "provider/kit", "provider", "emulator"]) stamp(dir, 10);
  for (const file of ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"])
    write(file, 10);
});

afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

function build(seconds: number): void {
  write("dist/provider/index.js", seconds);
  write("dist/emulator/cli.js", seconds);
}

test("no dist/ (a fresh clone): stale", () => {
  expect(buildIsStale(base)).toBe(true);
});

test("dist/ with one of the files the build writes missing: stale", () => {
  write("dist/provider/index.js", 20);
  expect(buildIsStale(base)).toBe(true);
});

test("dist/ newer than every source and setting: fresh", () => {
  build(20);
  expect(buildIsStale(base)).toBe(false);
});

test.each([
  "api/wire.ts",
  "provider/kit/rules.ts",
  "emulator/cli.ts",
  "tsconfig.build.json",
  "package-lock.json",
])("%s changed after the build: stale", (file) => {
  build(20);
  stamp(file, 30);
  expect(buildIsStale(base)).toBe(true);
});

test("a source deleted after the build (its folder changed): stale", () => {
  build(20);
  fs.rmSync(path.join(base, "provider/kit/rules.ts"));
  stamp("provider/kit", 30);
  expect(buildIsStale(base)).toBe(true);
});
