// Command-line flags of `npm run bench` (see --help).
"use strict";
const { parseArgs } = require("util");

const HELP = `Usage: npm run bench -- [flags]

Runs the real Pulumi CLI against the emulator on generated programs of this package's
resources, of as many do-nothing ones and (previews only) as many shaped like the package's,
interleaved, and prints a markdown table (also written to docs/bench.md unless --ci or --out
says otherwise).

  --sizes 4,48,200      resource counts, each a multiple of 4 (one unit = Vpc, Service,
                        ReadReplicaSet, VpcPeering)                    default 4,48,200
  --reps N              repetitions; each cell is the median of N       default 1
  --preview-reps N      previews and no-op previews of each program per
                        repetition (their cells are the median of
                        reps x N: a preview is short, and its ratios
                        the noisiest)                                   default 4
  --transition-ms N     emulator lifecycle step, in ms                  default 3000
  --ops LIST            any of preview,up,noop,destroy,up100            default all
                        (noop and destroy need up; up100 runs its own destroy,
                        and after up needs destroy to start from an empty stack)
  --lang ts|js          TypeScript program (as the examples) or plain JS default ts
  --out FILE            where to write the table ("-" for nowhere)      default docs/bench.md
  --keep                keep the temporary work folder
  --databases N         services measured on \`mdb-emulator --databases\`
                        (create to accepting connections, idle memory);
                        0 skips them                                    default 4
  --databases-only      only the --databases measurement
  --ci                  small and quick: --sizes 4 --reps 1 --preview-reps 1
                        --transition-ms 300 --out -, no
                        warm-up, the generated SDK's program only previews; exits non-zero
                        when any command or check fails (a no-op preview that shows
                        changes, a destroy that leaves records), never on missed targets
  --help                this text`;

const OPS = ["preview", "up", "noop", "destroy", "up100"];

/** Parses `argv` (without node and script) into the bench settings; exits on --help or errors. */
function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        sizes: { type: "string" },
        reps: { type: "string" },
        "preview-reps": { type: "string" },
        "transition-ms": { type: "string" },
        ops: { type: "string" },
        lang: { type: "string" },
        out: { type: "string" },
        keep: { type: "boolean", default: false },
        databases: { type: "string" },
        "databases-only": { type: "boolean", default: false },
        ci: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    fail(error.message);
  }
  if (parsed.help) {
    process.stdout.write(`${HELP}\n`);
    process.exit(0);
  }
  const ci = parsed.ci;
  const sizes = (parsed.sizes ?? (ci ? "4" : "4,48,200")).split(",").map((s) => integer("--sizes", s, 4));
  for (const size of sizes) if (size % 4 !== 0) fail(`--sizes: ${size} is not a multiple of 4`);
  const ops = (parsed.ops ?? OPS.join(",")).split(",").map((op) => op.trim());
  for (const op of ops) if (!OPS.includes(op)) fail(`--ops: unknown operation ${op} (${OPS.join(", ")})`);
  if (!ops.includes("up") && (ops.includes("noop") || ops.includes("destroy")))
    fail("--ops: noop and destroy need up");
  if (ops.includes("up") && ops.includes("up100") && !ops.includes("destroy"))
    fail("--ops: up100 after up needs destroy (it measures an up of an empty stack)");
  const lang = parsed.lang ?? "ts";
  if (lang !== "ts" && lang !== "js") fail("--lang: ts or js");
  const out = parsed.out ?? (ci ? "-" : "docs/bench.md");
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    reps: integer("--reps", parsed.reps ?? "1", 1),
    previewReps: integer("--preview-reps", parsed["preview-reps"] ?? (ci ? "1" : "4"), 1),
    transitionMs: integer("--transition-ms", parsed["transition-ms"] ?? (ci ? "300" : "3000"), 0),
    ops: new Set(ops),
    lang,
    out: out === "-" ? undefined : out,
    keep: parsed.keep,
    databases: integer("--databases", parsed.databases ?? (ci ? "1" : "4"), 0),
    databasesOnly: parsed["databases-only"],
    ci,
  };
}

function integer(flag, text, min) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) fail(`${flag}: ${text} is not a whole number >= ${min}`);
  return n;
}

function fail(message) {
  process.stderr.write(`bench: ${message}\n\n${HELP}\n`);
  process.exit(2);
}

module.exports = { parseOptions };
