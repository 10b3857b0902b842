// The order in which jest starts test files. Jest starts the longest first when it has
// timings of an earlier run on this machine (its cache); without them it goes by file size,
// which puts last the slowest suites (the fault matrix, bad input, preview lines, quickstart),
// whose files are a few lines over a shared suite module: on a fresh CI machine, a tail of
// minutes with the other workers idle. So, without timings, a file weighs its own size plus that
// of the modules of its folder it imports, directly or not, leaving out those most of the folder's
// test files import (test/e2e/workspace.ts), and the heaviest start first.
"use strict";
const fs = require("fs");
const path = require("path");
const Sequencer = require("@jest/test-sequencer").default;

/** The modules of `file`'s own folder that it imports (`from "./name"`). */
function localImports(file) {
  const found = new Set();
  for (const match of fs.readFileSync(file, "utf8").matchAll(/from "\.\/([\w.-]+)"/g)) {
    const module = path.join(path.dirname(file), `${match[1]}.ts`);
    if (fs.existsSync(module)) found.add(module);
  }
  return found;
}

/** Every module of the folder that `file` imports, directly or through another. */
function closure(file) {
  const seen = new Set();
  const todo = [file];
  while (todo.length > 0) {
    for (const module of localImports(todo.pop())) {
      if (seen.has(module)) continue;
      seen.add(module);
      todo.push(module);
    }
  }
  return seen;
}

/**
 * The weight of each of `files` (bytes): its size plus that of the modules in its closure that
 * fewer than a quarter of `files` share.
 */
function weights(files) {
  const closures = new Map(files.map((file) => [file, closure(file)]));
  const sharing = new Map();
  for (const modules of closures.values())
    for (const module of modules) sharing.set(module, (sharing.get(module) ?? 0) + 1);
  const size = (file) => fs.statSync(file).size;
  return new Map(
    files.map((file) => [
      file,
      [...closures.get(file)]
        .filter((module) => sharing.get(module) < files.length / 4)
        .reduce((sum, module) => sum + size(module), size(file)),
    ]),
  );
}

class SlowestFirst extends Sequencer {
  sort(tests) {
    const timed = tests.every((test) => this._getCache(test)[test.path]?.[1] != null);
    if (timed) return super.sort(tests);
    const weight = new Map();
    for (const folder of new Set(tests.map((test) => path.dirname(test.path)))) {
      const files = fs
        .readdirSync(folder)
        .filter((name) => name.endsWith(".test.ts"))
        .map((name) => path.join(folder, name));
      for (const [file, bytes] of weights(files)) weight.set(file, bytes);
    }
    const of = (test) => weight.get(test.path) ?? fs.statSync(test.path).size;
    return [...tests].sort((a, b) => of(b) - of(a));
  }
}

module.exports = SlowestFirst;
module.exports.weights = weights;
