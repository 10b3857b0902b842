// The markdown the bench prints and writes: one row per program and size, then the ratios the
// targets of the performance work are stated in, each with its goal.
"use strict";

/** Median of numbers (undefined for none). */
function median(values) {
  return quantile(values, 0.5);
}

/** Quantile `q` (0..1) by linear interpolation between the nearest ranks (undefined for none). */
function quantile(values, q) {
  const sorted = (values ?? []).filter((v) => v !== undefined).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const pos = (sorted.length - 1) * q;
  const low = Math.floor(pos);
  const high = Math.ceil(pos);
  return sorted[low] + (sorted[high] - sorted[low]) * (pos - low);
}

/** The programs of this package's resources (API calls are theirs), then the controls, in table order. */
const PACKAGE_VARIANTS = ["mdb", "classes", "native", "yaml"];
const ROW_ORDER = [...PACKAGE_VARIANTS, "trivial", "shaped", "floor"];
/** The Node.js programs' routes to the native plugin: the variant, and its name in the report. */
const NATIVE_ROUTES = [
  ["classes", "pulumi-managed-db/native"],
  ["native", "generated SDK"],
];

const seconds = (ms) => (ms === undefined ? "–" : (ms / 1000).toFixed(2));
const fixed = (n, digits = 2) => (n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits));
const units = (size) => `${size / 4} unit${size === 4 ? "" : "s"}`;
const ratio = (a, b) => (a === undefined || b === undefined || b === 0 ? undefined : a / b);

/** Summary of the waits of a set of operations: lag median and p95 (ms), GETs per second of wait. */
function waitSummary(waits) {
  const waitMs = waits.reduce((sum, w) => sum + w.waitMs, 0);
  const gets = waits.reduce((sum, w) => sum + w.gets, 0);
  return {
    count: waits.length,
    lagMedian: median(waits.map((w) => w.lagMs)),
    lagP95: quantile(
      waits.map((w) => w.lagMs),
      0.95,
    ),
    getsPerSecond: waitMs > 0 ? gets / (waitMs / 1000) : undefined,
  };
}

function callText(counts) {
  if (!counts) return "–";
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const gets = counts.GET ?? 0;
  return total === 0 ? "0" : `${total} (${gets} GET)`;
}

/** Median wall time of `op`, with the median CPU time of its process tree after it. */
function timeText(r, op) {
  const cpu = median(r.cpu[op] ?? []);
  return `${seconds(median(r.ms[op] ?? []))}${cpu === undefined ? "" : ` (${seconds(cpu)})`}`;
}

/** One row of the main table. */
function row(size, variant, r) {
  const lag = waitSummary(r.waits);
  const peak = median(r.peaks);
  const calls = ["preview", "up", "noop", "destroy"].map((op) => callText(r.calls[op])).join(" / ");
  return (
    `| ${size} | ${variant} | ${timeText(r, "preview")} | ${timeText(r, "noop")} | ` +
    `${seconds(median(r.ms.up))} | ${seconds(median(r.ms.up100))} | ${seconds(median(r.ms.destroy))} | ` +
    `${PACKAGE_VARIANTS.includes(variant) ? calls : "–"} | ` +
    `${lag.count ? `${seconds(lag.lagMedian)} / ${seconds(lag.lagP95)} (${lag.count})` : "–"} | ` +
    `${fixed(lag.getsPerSecond)} | ${peak === undefined ? "–" : (peak / 2 ** 20).toFixed(0)} |`
  );
}

/** How many previews each preview and no-op preview cell is the median of, when not one per run (`--preview-reps`). */
function previewRuns(meta) {
  const previews = meta.reps * (meta.previewReps ?? 1);
  return previews === meta.reps ? "" : ` (previews and no-op previews: of ${previews})`;
}

/**
 * The report: `results[size][variant]` holds `{ms: {op: [ms]}, calls: {op: {METHOD: n}},
 * peaks: [bytes], waits: [{lagMs, waitMs, gets}]}`; `meta` describes the run.
 */
function renderReport(results, meta) {
  const sizes = Object.keys(results)
    .map(Number)
    .sort((a, b) => a - b);
  const get = (size, variant, op) => {
    const r = results[size]?.[variant];
    return r ? median(r.ms[op]) : undefined;
  };
  const lines = [
    `Run ${meta.date} on ${meta.cpus} CPU(s), Node.js ${meta.node}, Pulumi CLI ${meta.pulumi}, package ` +
      `${meta.commit}; ${meta.lang === "ts" ? "TypeScript" : "JavaScript"} programs, emulator steps of ` +
      `${meta.transitionMs} ms, median of ${meta.reps} run(s)${previewRuns(meta)}, programs interleaved. Times in seconds: wall ` +
      "clock of the `pulumi` command, and for previews (in brackets) the CPU time of its process tree " +
      "(CLI, language host, program, provider host), steadier on a busy machine; `up` and `destroy` " +
      "skip their preview.",
    "",
    "| resources | program | preview | no-op preview | up | up -p 100 | destroy | API calls: preview / up / no-op / destroy | settle lag median / p95 (waits) | GETs per s of wait | provider peak MiB |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const size of sizes)
    for (const variant of ROW_ORDER)
      if (results[size][variant]) lines.push(row(size, variant, results[size][variant]));

  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  const ends = large === small ? [small] : [large, small];
  const vsTrivial = (size, op, variant = "mdb") => ratio(get(size, variant, op), get(size, "trivial", op));
  const cpuOf = (size, variant, op) => median(results[size]?.[variant]?.cpu[op] ?? []);
  const cpuVsTrivial = (size, op, variant = "mdb") =>
    ratio(cpuOf(size, variant, op), cpuOf(size, "trivial", op));
  const peakOf = (size, variant) => median(results[size]?.[variant]?.peaks ?? []);
  // The issue's goals: 1.15 for a 4-resource stack, 1.2 for larger ones (200 in the default run).
  const goal = (size) => (size > 4 ? 1.2 : 1.15);
  // `up` scaling compares 12 units with one when both ran, else the largest size with the
  // smallest; a run of one size has nothing to compare.
  const unitsUp =
    sizes.includes(48) && sizes.includes(4) ? [48, 4] : sizes.length > 1 ? [large, small] : undefined;
  const allWaits = waitSummary(sizes.flatMap((s) => results[s].mdb.waits));
  const targets = [
    ...ends.map((size) => [`preview, ${size} resources / trivial`, vsTrivial(size, "preview"), goal(size)]),
    ...ends.map((size) => [
      `no-op preview, ${size} resources / trivial`,
      vsTrivial(size, "noop"),
      goal(size),
    ]),
    unitsUp
      ? [
          `up -p 100, ${units(unitsUp[0])} / ${units(unitsUp[1])}`,
          ratio(get(unitsUp[0], "mdb", "up100"), get(unitsUp[1], "mdb", "up100")),
          1.1,
        ]
      : ["up -p 100, largest / smallest size (needs two sizes)", undefined, 1.1],
    ["settle lag median, s (all sizes)", allWaits.lagMedian && allWaits.lagMedian / 1000, 0.4],
    ["settle lag p95, s (all sizes)", allWaits.lagP95 && allWaits.lagP95 / 1000, 1],
    ["GETs per second of wait (all sizes)", allWaits.getsPerSecond, 2],
    [
      `provider peak memory, ${large} resources / trivial`,
      ratio(peakOf(large, "mdb"), peakOf(large, "trivial")),
      1.5,
    ],
    // Issue 30's goals for the native plugin: no dynamic provider to load or text to store per
    // resource. Through each Node.js route to it: the package's native classes, the generated SDK.
    ...NATIVE_ROUTES.flatMap(([variant, route]) => [
      [`native preview (${route}), ${large} resources / trivial`, vsTrivial(large, "preview", variant), 0.8],
      [
        `native provider peak memory (${route}), ${large} resources / trivial`,
        ratio(peakOf(large, variant), peakOf(large, "trivial")),
        1.0,
      ],
    ]),
  ];
  lines.push("", "| target | measured | goal | met |", "|---|---|---|---|");
  for (const [name, value, limit] of targets) {
    const met = value === undefined ? "–" : value <= limit ? "yes" : "**no**";
    lines.push(`| ${name} | ${fixed(value)} | ≤ ${limit} | ${met} |`);
  }
  // The same ratios in CPU time: not the targets, but steadier when the machine is shared.
  const cpuRatios = (variant) =>
    ends.flatMap((size) =>
      ["preview", "noop"].map(
        (op) =>
          `${op === "noop" ? "no-op preview" : "preview"} ${size}: ${fixed(cpuVsTrivial(size, op, variant))}`,
      ),
    );
  lines.push("", `CPU-time ratios against trivial: ${cpuRatios("mdb").join(", ")}.`);
  for (const [variant, route] of NATIVE_ROUTES)
    if (ends.some((size) => results[size][variant]))
      lines.push("", `Native (${route}), CPU-time ratios against trivial: ${cpuRatios(variant).join(", ")}.`);
  lines.push(...nativeVsDynamic(results, ends));
  // The plugin's route without a Node.js program: no SDK registering every output in the program.
  const yaml = ends.filter((size) => get(size, "yaml", "preview") !== undefined);
  if (yaml.length > 0) {
    const parts = yaml.map(
      (size) =>
        `${size} resources: yaml / trivial ${fixed(vsTrivial(size, "preview", "yaml"))} ` +
        `(CPU ${fixed(cpuVsTrivial(size, "preview", "yaml"))}), yaml / native ${fixed(ratio(get(size, "yaml", "preview"), get(size, "native", "preview")))}`,
    );
    lines.push("", `Native plugin from a Pulumi YAML program, preview: ${parts.join("; ")}.`);
  }
  // The same-shape control splits a preview's ratio into Pulumi's cost of the properties and ours.
  const shaped = ends.filter((size) => get(size, "shaped", "preview") !== undefined);
  if (shaped.length > 0) {
    const parts = shaped.map(
      (size) =>
        `${size} resources: shaped / trivial ${fixed(ratio(get(size, "shaped", "preview"), get(size, "trivial", "preview")))}, ` +
        `mdb / shaped ${fixed(ratio(get(size, "mdb", "preview"), get(size, "shaped", "preview")))}`,
    );
    lines.push(
      "",
      `Preview against the same-shape control (Pulumi's own cost of this package's properties, then ` +
        `this package's, below 1 where the package saves Pulumi work the control does): ${parts.join("; ")}.`,
    );
  }
  lines.push(...floorLine(ends, get));
  if (sizes.length > 1) {
    const perResource = (variant) =>
      ratio(get(large, variant, "preview") - get(small, variant, "preview"), large - small);
    const native = NATIVE_ROUTES.filter(([variant]) => results[large][variant])
      .map(
        ([variant, route]) => `, ${fixed(perResource(variant), 1)} ms through the native plugin (${route})`,
      )
      .join("");
    const yamlSlope = results[large].yaml ? `, ${fixed(perResource("yaml"), 1)} ms from a YAML program` : "";
    lines.push(
      "",
      `Preview cost per resource (slope between ${small} and ${large} resources): ` +
        `${fixed(perResource("mdb"), 1)} ms for this package${native}${yamlSlope}, ${fixed(perResource("trivial"), 1)} ms for a ` +
        "trivial dynamic resource.",
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The line placing each preview at `sizes` against the floor, the preview of a Node.js program of
 * as many component resources with no provider (none for a run without it): floor / trivial, then
 * each Node.js route of this package over the floor. `get(size, variant, op)` is a median in ms.
 */
function floorLine(sizes, get) {
  const measured = sizes.filter((size) => get(size, "floor", "preview") !== undefined);
  if (measured.length === 0) return [];
  const routes = [["mdb", "the dynamic classes"], ...NATIVE_ROUTES];
  const parts = measured.map((size) => {
    const floor = get(size, "floor", "preview");
    const over = routes
      .filter(([variant]) => get(size, variant, "preview") !== undefined)
      .map(([variant, route]) => `, ${route} / floor ${fixed(ratio(get(size, variant, "preview"), floor))}`);
    return `${size} resources: floor / trivial ${fixed(ratio(floor, get(size, "trivial", "preview")))}${over.join("")}`;
  });
  return [
    "",
    "Preview against the floor (a Node.js program of as many component resources, with no provider " +
      `and no properties; no route to a provider previews below it): ${parts.join("; ")}.`,
  ];
}

/** The operations the native and dynamic faces are compared on, with their names in the report. */
const FACE_OPS = [
  ["preview", "preview"],
  ["noop", "no-op preview"],
  ["up", "up"],
  ["up100", "up -p 100"],
  ["destroy", "destroy"],
];

/**
 * The lines comparing the native plugin with the dynamic classes at each of `sizes`, one per
 * Node.js route to it: route / mdb for the wall time of each operation and the provider's peak
 * memory (none for a route that did not run).
 */
function nativeVsDynamic(results, sizes) {
  return NATIVE_ROUTES.flatMap(([variant, route]) => {
    const parts = sizes
      .filter((size) => results[size][variant] && results[size].mdb)
      .map((size) => {
        const [native, mdb] = [results[size][variant], results[size].mdb];
        const ratios = FACE_OPS.map(([op, name]) => [name, ratio(median(native.ms[op]), median(mdb.ms[op]))]);
        ratios.push(["provider peak memory", ratio(median(native.peaks), median(mdb.peaks))]);
        const measured = ratios.filter(([, value]) => value !== undefined);
        return `${size} resources: ${measured.map(([name, value]) => `${name} ${fixed(value)}`).join(", ")}`;
      });
    return parts.length === 0
      ? []
      : ["", `Native plugin (${route}) against the dynamic classes (${variant} / mdb): ${parts.join("; ")}.`];
  });
}

/** How to read the table: written under it in docs/bench.md. */
const LEGEND = `## How to read it

- **mdb** rows run this package's resources, installed from its \`npm pack\` tarball: per unit a
  \`Vpc\`, a \`Service\` attached to it with the connection pooler, a \`ReadReplicaSet\` and a
  \`VpcPeering\`. **trivial** rows run as many do-nothing dynamic resources wired the same way,
  whose provider answers at once: what Pulumi itself costs, the least any dynamic provider can.
  **shaped** rows (previews only) run do-nothing dynamic resources that register the same
  property names (every input and output of each class) and secret outputs as this package's:
  what Pulumi costs for resources of this shape, so \`shaped / trivial\` is Pulumi's share of the
  gap and \`mdb / shaped\` this package's own. The package's classes register without the stack
  trace Pulumi otherwise formats for every property promise (see \`provider/pulumi-contract/debug-stacks.ts\`),
  which the two controls keep: that is why \`mdb / shaped\` can be below 1.
- **classes** rows run the same resources through the plugin \`mdb\` from a program on the
  package's own native classes (\`pulumi-managed-db/native\`: the same classes as **mdb**'s,
  registering \`mdb:index:*\`, without Pulumi's per-promise debug stacks as the dynamic classes).
- **native** rows run the same resources through the plugin \`mdb\`, from a program on the Node.js
  SDK \`pulumi package add\` generates from its schema. That SDK registers every output of a
  resource (64 properties per unit, against 16 for a trivial unit), each with Pulumi's debug
  promises, in the program's process: most of the native route's cost per resource is there,
  Pulumi's price for the schema's shape (as the shaped row shows for dynamic resources), not in the
  plugin, whose own CPU is about a tenth of a 200-resource preview when profiled. **yaml** rows
  (previews only) run them through the plugin from a Pulumi YAML program (templates/yaml.yaml):
  the same plugin and engine with no Node.js program.
- **floor** rows (previews only) run a program of as many component resources, named alike,
  with no provider and no properties: what Pulumi's Node.js SDK and engine cost for registering
  that many resources. Every route to a provider, dynamic or native, adds its provider's start and
  a check per resource on top (the plugin also a preview of each create, which Pulumi's dynamic
  provider host does not offer), so \`floor / trivial\` bounds how far under trivial any Node.js
  program of resources can preview.
- **preview** is \`pulumi preview\` of a new stack; **no-op preview** runs after \`up\` with
  \`--expect-no-changes\` (it fails the bench if anything would change); both run
  \`--preview-reps\` times per repetition, since they change nothing. **up** uses the CLI's
  default \`--parallel\` (4 x CPUs), **up -p 100** lets every ready resource start at once.
- **API calls** come from the emulator's request log (\`/_emulator/requests\`), per operation.
- **settle lag**: for every wait of the provider (a service becoming READY, a replica set or
  peering becoming active, a delete finishing), the time from the emulator's record settling (the
  action's time + its lifecycle steps x the step duration) to the provider's first GET that sees it.
  **GETs per s of wait** = the GETs of those waits / their total duration.
- **provider peak MiB** is the largest VmHWM (peak resident memory) of the provider's process (the
  dynamic provider host, or the native plugin's server) over all the operations of that size.
- The **targets** table checks the ratios the performance work is held to; the machine's load
  moves wall times, so compare the two rows of a size (measured back to back) rather than runs.
`;

/** The `--databases` section: per service, create to accepting connections and idle memory, against the limits. */
function renderDatabases({ createToAcceptS, idlePssMiB }) {
  const [alone] = idlePssMiB;
  const rows = [
    [
      "create to accepting connections, s (median / max)",
      `${median(createToAcceptS).toFixed(2)} / ${Math.max(...createToAcceptS).toFixed(2)}`,
      Math.max(...createToAcceptS),
      2,
    ],
    ["idle memory of one server alone, PSS MiB", alone.toFixed(1), alone, 40],
    [
      `idle memory per server with ${createToAcceptS.length} running, PSS MiB (max)`,
      Math.max(...idlePssMiB.slice(1)).toFixed(1),
      Math.max(...idlePssMiB.slice(1)),
      40,
    ],
  ];
  return [
    `\`mdb-emulator --databases\`: ${createToAcceptS.length} service(s) created one after another, each timed from its create call to the first query answered on its endpoint with its initial password; memory is the proportional set size summed over the server's processes (/proc/PID/smaps_rollup) after 5 s idle.`,
    "",
    "| --databases | measured | limit | met |",
    "|---|---|---|---|",
    ...rows.map(
      ([name, text, value, limit]) => `| ${name} | ${text} | ≤ ${limit} | ${value <= limit ? "yes" : "no"} |`,
    ),
  ].join("\n");
}

module.exports = { renderDatabases, renderReport, median, quantile, waitSummary, LEGEND };
