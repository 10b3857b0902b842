#!/usr/bin/env node
// `npm run bench`: measures this package's resources under the real Pulumi CLI against the
// emulator, next to as many do-nothing dynamic resources (and, for previews, as many shaped like
// the package's), and prints (and writes to docs/bench.md) a markdown table. See
// `npm run bench -- --help` and docs/bench.md.
//
// For every size and repetition, each operation runs on every program back to back (interleaved,
// the first one rotating), so a slower moment of the machine hits them alike: preview of a fresh
// stack (--preview-reps rounds), up, no-op preview (--expect-no-changes, as many rounds), destroy, then up and
// destroy again with --parallel 100. The emulator's request log gives the API calls and the
// settle lag of every wait; /proc gives the provider host's peak memory.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { parseOptions } = require("./options");
const { Program, VARIANTS, PACKAGE_VARIANTS, runsOp } = require("./program");
const { LEGEND, renderDatabases, renderReport } = require("./report");
const { countCalls, settleWaits } = require("./settle");
const { Emulator, ensurePulumi, installPackage, installSdk, packageShapes } = require("./setup");
const { measureDatabases } = require("./databases");

const root = path.resolve(__dirname, "../..");

const started = Date.now();

/** A progress line on stderr, with the seconds since the start. */
function log(message) {
  process.stderr.write(`bench [${((Date.now() - started) / 1000).toFixed(0)} s]: ${message}\n`);
}

/** The commands of each operation, in the order they run on a stack. */
const STEPS = [
  { op: "preview", args: ["preview"] },
  { op: "up", args: ["up", "--yes", "--skip-preview"] },
  { op: "noop", args: ["preview", "--expect-no-changes"] },
  { op: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
  { op: "up100", args: ["up", "--yes", "--skip-preview", "--parallel", "100"] },
  { op: "destroy100", needs: "up100", args: ["destroy", "--yes", "--skip-preview", "--parallel", "100"] },
];

function emptyResult() {
  return { ms: {}, cpu: {}, calls: {}, peaks: [], waits: [] };
}

/** Runs one step on one program and records it; for this package's, reads the emulator's log too. */
async function runStep(program, step, result, emulator, transitionMs) {
  const mdb = PACKAGE_VARIANTS.has(program.variant);
  if (mdb) await emulator.clearRequests();
  const { ms, cpuMs, peak } = await program.pulumi(step.args);
  (result.ms[step.op] ??= []).push(ms);
  (result.cpu[step.op] ??= []).push(cpuMs);
  result.rep.peak = Math.max(result.rep.peak ?? 0, peak ?? 0) || undefined;
  let note = "";
  if (mdb) {
    const requests = await emulator.requests();
    const { services } = await emulator.inventory();
    result.calls[step.op] = countCalls(requests);
    const waits = settleWaits(requests, services, transitionMs);
    result.waits.push(...waits);
    note = `, ${requests.length} API calls${waits.length ? `, ${waits.length} waits` : ""}`;
  }
  const cpu = cpuMs === undefined ? "" : ` (CPU ${(cpuMs / 1000).toFixed(2)} s)`;
  log(`${program.size} ${program.variant} ${step.op}: ${(ms / 1000).toFixed(2)} s${cpu}${note}`);
}

/** Checks that a destroy left nothing behind in the emulator. */
async function checkEmpty(emulator) {
  const { services, vpcs, peerings } = await emulator.inventory();
  const left = services.length + vpcs.length + peerings.length;
  if (left > 0) throw new Error(`destroy left ${left} record(s) in the emulator`);
}

/**
 * One untimed preview of each program on a throwaway stack, so the first measured command
 * does not also pay for cold disk caches (node_modules, the compiled TypeScript compiler).
 */
async function warmUp(options, programs) {
  log("warming up: one untimed preview of each program");
  for (const size of options.sizes) {
    for (const variant of VARIANTS) {
      const program = programs[size][variant];
      await program.pulumi(["stack", "select", "--create", "warm-up"]);
      await program.pulumi(["preview"]);
      await program.pulumi(["stack", "rm", "--yes", "--force", "warm-up"]);
    }
  }
}

async function measure(options, programs, emulator) {
  if (!options.ci) await warmUp(options, programs);
  const results = {};
  for (const size of options.sizes)
    results[size] = Object.fromEntries(VARIANTS.map((variant) => [variant, emptyResult()]));
  for (let rep = 1; rep <= options.reps; rep++) {
    for (const size of options.sizes) {
      // Per size too: the resources' names carry it, and a run without destroy (--ops preview,up,noop)
      // leaves one size's records in the emulator while the next size creates its own.
      const stack = `s${size}-r${rep}`;
      for (const variant of VARIANTS) {
        results[size][variant].rep = {};
        await programs[size][variant].pulumi(["stack", "select", "--create", stack]);
      }
      const steps = STEPS.filter((s) => options.ops.has(s.needs ?? s.op));
      for (const [index, step] of steps.entries()) {
        // A preview changes nothing, so it (and the no-op preview) runs previewReps rounds on the same stack.
        const rounds = step.op === "preview" || step.op === "noop" ? options.previewReps : 1;
        for (let round = 0; round < rounds; round++) {
          // Each variant goes first in turn, so a slower moment of the machine hits them alike.
          const shift = (rep + index + round) % VARIANTS.length;
          const order = [...VARIANTS.slice(shift), ...VARIANTS.slice(0, shift)];
          for (const variant of order.filter((v) => runsOp(v, step.op, options.ci)))
            await runStep(
              programs[size][variant],
              step,
              results[size][variant],
              emulator,
              options.transitionMs,
            );
        }
        if (step.op.startsWith("destroy")) await checkEmpty(emulator);
      }
      for (const variant of VARIANTS) {
        const result = results[size][variant];
        if (result.rep.peak !== undefined) result.peaks.push(result.rep.peak);
        delete result.rep;
        await programs[size][variant].pulumi(["stack", "rm", "--yes", "--force", stack]);
      }
    }
  }
  return results;
}

function meta(options, bin) {
  const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  let commit = "unknown";
  try {
    commit =
      git("rev-parse", "--short", "HEAD") + (git("status", "--porcelain") ? " (with local changes)" : "");
  } catch {
    // not a git checkout
  }
  const pulumi = execFileSync(path.join(bin, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  return {
    date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
    cpus: os.availableParallelism(),
    node: process.version,
    pulumi,
    commit,
    lang: options.lang,
    transitionMs: options.transitionMs,
    reps: options.reps,
    previewReps: options.previewReps,
  };
}

/** Formats `text` as the repository's Prettier settings want it, so the written file passes `npm run lint`. */
async function formatMarkdown(file, text) {
  const prettier = require("prettier");
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...config, filepath: file });
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-bench-"));
  let emulator;
  try {
    if (options.databasesOnly) {
      execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
      const report = renderDatabases(await measureDatabases(options.databases || 1, log));
      process.stdout.write(`\n${report}\n`);
      return;
    }
    log("getting the Pulumi CLI (scripts/ensure-pulumi)");
    const bin = ensurePulumi();
    log("building if needed, packing and installing the package");
    const nodeModules = installPackage(work);
    log("generating and installing the native plugin's Node.js SDK (@pulumi/mdb)");
    installSdk(work, bin, nodeModules);
    emulator = await Emulator.start(options.transitionMs);
    log(`emulator on ${emulator.url}, ${options.transitionMs} ms per lifecycle step; work in ${work}`);
    const context = { work, bin, nodeModules, apiUrl: emulator.url, shapes: packageShapes(nodeModules) };
    const programs = {};
    for (const size of options.sizes) {
      programs[size] = {};
      for (const variant of VARIANTS)
        programs[size][variant] = new Program(variant, size, options.lang, context);
    }
    const results = await measure(options, programs, emulator);
    const databases = options.databases ? await measureDatabases(options.databases, log) : undefined;
    const report =
      renderReport(results, meta(options, bin)) + (databases ? `\n\n${renderDatabases(databases)}` : "");
    process.stdout.write(`\n${report}`);
    if (options.out) {
      const out = path.resolve(root, options.out);
      const intro =
        "# Benchmark\n\nThe latest table of `npm run bench` (`npm run bench -- --help` for its flags).\n\n";
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, await formatMarkdown(out, `${intro}${report}\n${LEGEND}`));
      log(`wrote ${path.relative(root, out)}`);
    }
  } finally {
    await emulator?.stop();
    if (options.keep) log(`kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  // A failed fetch says why only in its cause (the connection refused, reset, ...).
  const cause = error?.cause ? `\ncaused by: ${require("util").inspect(error.cause)}` : "";
  process.stderr.write(`bench failed: ${error.stack ?? error}${cause}\n`);
  process.exit(1);
});
