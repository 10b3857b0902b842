/**
 * The benchmark's markdown report (scripts/bench/report.js): medians, the ratios against the
 * trivial program, and runs that measured only some operations (`--ops preview`).
 */
type Result = {
  ms: Record<string, number[]>;
  cpu: Record<string, number[]>;
  calls: Record<string, Record<string, number>>;
  peaks: number[];
  waits: Array<{ lagMs: number; waitMs: number; gets: number }>;
};
const { renderReport, quantile } = require("../../scripts/bench/report") as {
  renderReport(
    results: Record<
      number,
      {
        mdb: Result;
        trivial: Result;
        shaped?: Result;
        native?: Result;
        classes?: Result;
        yaml?: Result;
        floor?: Result;
      }
    >,
    meta: object,
  ): string;
  quantile(values: number[] | undefined, q: number): number | undefined;
};

const meta = {
  date: "2026-01-01 00:00 UTC",
  cpus: 2,
  node: "v20",
  pulumi: "v3",
  commit: "abc",
  lang: "ts",
  transitionMs: 3000,
  reps: 3,
};
const result = (previewMs: number[], extra: Partial<Result> = {}): Result => ({
  ms: { preview: previewMs },
  cpu: { preview: previewMs.map((ms) => ms / 2) },
  calls: {},
  peaks: [],
  waits: [],
  ...extra,
});

describe("bench report", () => {
  it("takes medians and quantiles, and none of nothing", () => {
    expect(quantile([3, 1, 2], 0.5)).toBe(2);
    expect(quantile([0, 10], 0.95)).toBeCloseTo(9.5);
    expect(quantile(undefined, 0.5)).toBeUndefined();
  });

  it("renders a preview-only run with the preview ratios and dashes for what was not measured", () => {
    const report = renderReport(
      {
        4: { mdb: result([2400, 2600, 2500]), trivial: result([2000, 2100, 1900]) },
        200: { mdb: result([7000]), trivial: result([2800]) },
      },
      meta,
    );
    expect(report).toContain("| 4 | mdb | 2.50 (1.25) | – | – | – | – |");
    expect(report).toContain("| preview, 200 resources / trivial | 2.50 | ≤ 1.2 | **no** |");
    expect(report).toContain("| preview, 4 resources / trivial | 1.25 | ≤ 1.15 | **no** |");
    expect(report).toContain("| no-op preview, 200 resources / trivial | – | ≤ 1.2 | – |");
    expect(report).toContain(
      "Preview cost per resource (slope between 4 and 200 resources): 23.0 ms for this package, 4.1 ms for a trivial",
    );
  });

  it("with the same-shape control, splits the preview ratio into Pulumi's share and the package's", () => {
    const report = renderReport(
      {
        4: { mdb: result([2600]), trivial: result([2000]), shaped: result([2080]) },
        200: { mdb: result([4500]), trivial: result([3000]), shaped: result([3900]) },
      },
      meta,
    );
    expect(report).toContain("| 200 | shaped | 3.90 (1.95) | – | – | – | – | – | – | – | – |");
    expect(report).toContain(
      "Preview against the same-shape control (Pulumi's own cost of this package's properties, then " +
        "this package's, below 1 where the package saves Pulumi work the control does): 200 resources: shaped / trivial 1.30, mdb / shaped 1.15; " +
        "4 resources: shaped / trivial 1.04, mdb / shaped 1.25.",
    );
    // Without the control (an older results file, or --ops without preview), no such line.
    expect(renderReport({ 4: { mdb: result([2600]), trivial: result([2000]) } }, meta)).not.toContain(
      "same-shape",
    );
  });

  it("compares the plugin's route from a YAML program with trivial and with the Node.js SDK's", () => {
    const report = renderReport(
      {
        4: {
          mdb: result([3000]),
          native: result([2800]),
          yaml: result([2000]),
          trivial: result([2500]),
        },
        200: {
          mdb: result([6000]),
          native: result([8000]),
          yaml: result([4000]),
          trivial: result([5000]),
        },
      },
      meta,
    );
    expect(report).toContain("| 200 | yaml | 4.00 (2.00) | – | – | – | – | – / – / – / – |");
    expect(report).toContain(
      "Native plugin from a Pulumi YAML program, preview: 200 resources: yaml / trivial 0.80 (CPU 0.80), " +
        "yaml / native 0.50; 4 resources: yaml / trivial 0.80 (CPU 0.80), yaml / native 0.71.",
    );
    expect(report).toContain(
      "26.5 ms through the native plugin (generated SDK), 10.2 ms from a YAML program, 12.8 ms for a",
    );
    // A run without the variant has no such line.
    expect(renderReport({ 4: { mdb: result([1]), trivial: result([1]) } }, meta)).not.toContain("YAML");
  });

  it("holds each Node.js route to the native plugin to issue 30's goals, and compares each with the dynamic classes", () => {
    const report = renderReport(
      {
        200: {
          mdb: result([6000], { peaks: [100 * 2 ** 20] }),
          classes: result([3500], { peaks: [50 * 2 ** 20] }),
          native: result([8000], { peaks: [60 * 2 ** 20] }),
          trivial: result([5000], { peaks: [70 * 2 ** 20] }),
        },
      },
      meta,
    );
    expect(report).toContain("| 200 | classes | 3.50 (1.75) |");
    expect(report).toContain(
      "| native preview (pulumi-managed-db/native), 200 resources / trivial | 0.70 | ≤ 0.8 | yes |",
    );
    expect(report).toContain(
      "| native preview (generated SDK), 200 resources / trivial | 1.60 | ≤ 0.8 | **no** |",
    );
    expect(report).toContain(
      "| native provider peak memory (pulumi-managed-db/native), 200 resources / trivial | 0.71 | ≤ 1 | yes |",
    );
    expect(report).toContain(
      "Native (pulumi-managed-db/native), CPU-time ratios against trivial: preview 200: 0.70",
    );
    expect(report).toContain(
      "Native plugin (pulumi-managed-db/native) against the dynamic classes (classes / mdb): 200 resources: preview 0.58",
    );
    expect(report).toContain(
      "Native plugin (generated SDK) against the dynamic classes (native / mdb): 200 resources: preview 1.33",
    );
    // A run without a route has no line of its own for it.
    expect(renderReport({ 4: { mdb: result([1]), trivial: result([1]) } }, meta)).not.toContain(
      "classes / mdb",
    );
  });

  it("places each Node.js route's preview against the floor of a program of as many resources", () => {
    const report = renderReport(
      {
        4: { mdb: result([2000]), trivial: result([2000]), floor: result([1600]) },
        200: {
          mdb: result([3300]),
          classes: result([2700]),
          native: result([3600]),
          trivial: result([3000]),
          floor: result([2200]),
        },
      },
      { ...meta, reps: 2, previewReps: 4 },
    );
    expect(report).toContain("median of 2 run(s) (previews and no-op previews: of 8), programs interleaved");
    expect(report).toContain("| 200 | floor | 2.20 (1.10) | – | – | – | – | – | – | – | – |");
    expect(report).toContain(
      "Preview against the floor (a Node.js program of as many component resources, with no provider " +
        "and no properties; no route to a provider previews below it): 200 resources: floor / trivial 0.73, " +
        "the dynamic classes / floor 1.50, pulumi-managed-db/native / floor 1.23, generated SDK / floor 1.64; " +
        "4 resources: floor / trivial 0.80, the dynamic classes / floor 1.25.",
    );
    // One preview per run says nothing more; a run without the floor has no such line.
    const plain = renderReport({ 4: { mdb: result([1]), trivial: result([1]) } }, meta);
    expect(plain).toContain("median of 3 run(s), programs interleaved");
    expect(plain).not.toContain("floor");
  });

  it("holds a one-size run to that size's goal, and compares no up scaling within one size", () => {
    const report = renderReport({ 200: { mdb: result([3300]), trivial: result([3000]) } }, meta);
    expect(report).toContain("| preview, 200 resources / trivial | 1.10 | ≤ 1.2 | yes |");
    expect(report).toContain("| up -p 100, largest / smallest size (needs two sizes) | – | ≤ 1.1 | – |");
    const small = renderReport({ 4: { mdb: result([2400]), trivial: result([2000]) } }, meta);
    expect(small).toContain("| preview, 4 resources / trivial | 1.20 | ≤ 1.15 | **no** |");
  });

  it("summarises the waits: lag median and p95 in seconds, GETs per second of wait", () => {
    const waits = [
      { lagMs: 100, waitMs: 3000, gets: 6 },
      { lagMs: 300, waitMs: 6000, gets: 12 },
    ];
    const report = renderReport({ 4: { mdb: result([1], { waits }), trivial: result([1]) } }, meta);
    expect(report).toContain("| 0.20 / 0.29 (2) | 2.00 |");
    expect(report).toContain("| GETs per second of wait (all sizes) | 2.00 | ≤ 2 | yes |");
  });
});
