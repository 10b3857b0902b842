#!/usr/bin/env node
// `node scripts/build-if-needed.js`: runs `npm run build` unless dist/ is newer than every source
// the build compiles (api/, provider/, emulator/: files and folders, so a deleted file counts) and
// every build setting. The demo, the bench and the e2e setup call it before packing, so a fresh
// build is not made twice (`npm pack`'s prepack would build again); prints what it did.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");

/** The folders `tsc -p tsconfig.build.json` compiles from (api/ through the imports). */
const SOURCES = ["api", "provider", "emulator"];
/** The files whose change changes the build. */
const SETTINGS = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];
/** Files the build writes; the oldest of them dates the build. */
const OUTPUTS = ["dist/provider/index.js", "dist/emulator/cli.js"];

/** Newest modification time (ms) of `dir` and everything under it. */
function newest(dir) {
  let latest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    latest = Math.max(latest, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  return latest;
}

/**
 * Whether dist/ predates a source or setting under `base` (default: this checkout), or is
 * missing a file the build writes.
 */
function buildIsStale(base = root) {
  const outputs = OUTPUTS.map((f) => path.join(base, f));
  if (!outputs.every((f) => fs.existsSync(f))) return true;
  const builtAt = Math.min(...outputs.map((f) => fs.statSync(f).mtimeMs));
  const changed = [
    ...SOURCES.map((d) => newest(path.join(base, d))),
    ...SETTINGS.map((f) => fs.statSync(path.join(base, f)).mtimeMs),
  ];
  return Math.max(...changed) >= builtAt;
}

/** Runs `npm run build` in this checkout when {@link buildIsStale}; returns whether it built. */
function buildIfNeeded() {
  if (!buildIsStale()) return false;
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  return true;
}

module.exports = { buildIsStale, buildIfNeeded };

if (require.main === module)
  process.stdout.write(
    buildIfNeeded() ? "build-if-needed: built dist/\n" : "build-if-needed: dist/ is fresh\n",
  );
