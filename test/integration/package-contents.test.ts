/**
 * What the npm tarball gives a user, checked on the real `npm pack` output (the build's `dist/`,
 * packed without running the build again, then unpacked): every relative link of every Markdown
 * file it ships (README, docs, examples, the emulator's and the tools' READMEs, the policy pack's)
 * points at a file it ships, and every source map names sources it ships, so a stack trace of the
 * installed package (Node's `--enable-source-maps`) names `.ts` files that are there; and its
 * plugin folder is a source plugin the engine can run, which says so when its build is missing.
 */
import { execFileSync, spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

jest.setTimeout(120_000);

const root = path.resolve(__dirname, "../..");
let work: string;
/** The unpacked package: what `npm install` puts in node_modules/pulumi-managed-db. */
let pkg: string;
/** Every file of the tarball, relative to `pkg`. */
let files: Set<string>;

beforeAll(() => {
  if (!fs.existsSync(path.join(root, "dist/provider/index.js")))
    throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
  work = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-pack-"));
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  execFileSync("tar", ["xzf", path.join(work, packed[0].filename), "-C", work]);
  pkg = path.join(work, "package");
  files = new Set(packed[0].files.map((f) => f.path));
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** True when `relative` (a path inside the package) is a shipped file, or a folder holding one. */
function shipped(relative: string): boolean {
  const clean = path.posix.normalize(relative).replace(/\/$/, "");
  return files.has(clean) || [...files].some((f) => f.startsWith(`${clean}/`));
}

/** The relative links of a Markdown text: `[text](target)`, without web, mail and in-page ones. */
function relativeLinks(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  return links.filter((link) => !/^([a-z]+:|#)/i.test(link));
}

it("ships the docs, the examples and the sources its source maps name, and no test", () => {
  for (const expected of [
    "README.md",
    "docs/api.md",
    "docs/recovery.md",
    "emulator/README.md",
    "tools/README.md",
    "examples/production/index.ts",
    "provider/config.ts",
    "api/operations.ts",
    "dist/provider/index.js",
  ])
    expect(files).toContain(expected);
  expect([...files].filter((f) => f.startsWith("test/") || f.includes("node_modules/"))).toEqual([]);
});

it("every relative link of every shipped Markdown file resolves to a shipped file", () => {
  const markdown = [...files].filter((f) => f.endsWith(".md"));
  expect(markdown.length).toBeGreaterThanOrEqual(10);
  const broken: string[] = [];
  let checked = 0;
  for (const file of markdown) {
    for (const link of relativeLinks(fs.readFileSync(path.join(pkg, file), "utf8"))) {
      checked++;
      const target = path.posix.join(path.posix.dirname(file), link.split("#")[0]);
      if (!shipped(target)) broken.push(`${file}: ${link}`);
    }
  }
  expect(broken).toEqual([]);
  // README alone links to docs/, examples/, emulator/README.md, tools/README.md, policy/README.md.
  expect(checked).toBeGreaterThanOrEqual(20);
});

it("every source map names sources the package ships", () => {
  const maps = [...files].filter((f) => f.endsWith(".js.map"));
  expect(maps.length).toBeGreaterThan(100);
  const missing: string[] = [];
  for (const map of maps) {
    const { sources } = JSON.parse(fs.readFileSync(path.join(pkg, map), "utf8")) as { sources: string[] };
    for (const source of sources) {
      const target = path.posix.join(path.posix.dirname(map), source);
      if (!files.has(target)) missing.push(`${map}: ${source}`);
    }
  }
  expect(missing).toEqual([]);
});

it("a stack trace of the installed package names .ts files that are there, at the failing line", () => {
  // Its dependencies, as an install would put them beside it.
  fs.symlinkSync(path.join(root, "node_modules"), path.join(pkg, "node_modules"), "dir");
  // The provider without its settings: resolveConfig throws from provider/config.ts.
  const script = `require(${JSON.stringify(path.join(pkg, "dist/provider/config.js"))}).resolveConfig(undefined, {})`;
  const run = spawnSync(process.execPath, ["--enable-source-maps", "-e", script], { encoding: "utf8" });
  expect(run.status).not.toBe(0);
  const frame = new RegExp(`${path.join(pkg, "provider", "config.ts").replace(/[.\\/]/g, "\\$&")}:(\\d+)`);
  const match = frame.exec(run.stderr);
  expect(match).not.toBeNull();
  const line = fs.readFileSync(path.join(pkg, "provider/config.ts"), "utf8").split("\n")[
    Number(match![1]) - 1
  ];
  expect(line).toMatch(/throw new MissingConfigError/);
});

it.each([
  ["pulumi-managed-db", "dist/provider/index"],
  ["pulumi-managed-db/native", "dist/provider/native"],
  ["pulumi-managed-db/emulator", "dist/emulator/index"],
])(
  "%s resolves to shipped code and types, also under Pulumi's template tsconfig (moduleResolution node)",
  (name, file) => {
    // The unpacked package as `npm install` places it.
    const modules = path.join(work, "program", "node_modules");
    fs.mkdirSync(modules, { recursive: true });
    if (!fs.existsSync(path.join(modules, "pulumi-managed-db")))
      fs.symlinkSync(pkg, path.join(modules, "pulumi-managed-db"), "dir");
    const from = path.join(work, "program", "index.ts");
    expect(fs.realpathSync(require.resolve(name, { paths: [path.dirname(from)] }))).toBe(
      fs.realpathSync(path.join(pkg, `${file}.js`)),
    );
    const ts = require("typescript") as typeof import("typescript");
    for (const moduleResolution of [ts.ModuleResolutionKind.Node10, ts.ModuleResolutionKind.Node16]) {
      const options = { moduleResolution, module: ts.ModuleKind.CommonJS };
      const found = ts.resolveModuleName(name, from, options, ts.sys).resolvedModule?.resolvedFileName;
      expect(found && fs.realpathSync(found)).toBe(fs.realpathSync(path.join(pkg, `${file}.d.ts`)));
    }
  },
);

describe("the plugin folder, plugin/", () => {
  it("ships as a source plugin: PulumiPlugin.yaml, index.js, a package.json with no dependencies, an executable script", () => {
    for (const file of ["PulumiPlugin.yaml", "index.js", "package.json", "pulumi-resource-mdb"])
      expect(files).toContain(`plugin/${file}`);
    expect(fs.readFileSync(path.join(pkg, "plugin/PulumiPlugin.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg, "plugin/package.json"), "utf8"));
    expect(manifest).toMatchObject({ main: "index.js" });
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(fs.statSync(path.join(pkg, "plugin/pulumi-resource-mdb")).mode & 0o111).toBe(0o111);
  });

  it("started as the engine starts it, prints its port as the one line on stdout", async () => {
    if (!fs.existsSync(path.join(pkg, "node_modules")))
      fs.symlinkSync(path.join(root, "node_modules"), path.join(pkg, "node_modules"), "dir");
    const child = spawn(path.join(pkg, "plugin/pulumi-resource-mdb"), ["--logtostderr", "127.0.0.1:1"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      const deadline = Date.now() + 10_000;
      while (!stdout.includes("\n") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      expect(stdout).toMatch(/^\d{2,5}\n$/);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it.each([
    ["pulumi-resource-mdb", (dir: string) => [path.join(dir, "pulumi-resource-mdb"), "127.0.0.1:1"]],
    ["index.js", (dir: string) => [process.execPath, path.join(dir, "index.js"), "127.0.0.1:1"]],
  ])("without its build, %s prints one line naming the folder and the fix, and exits", (_entry, command) => {
    const dir = path.join(work, `unbuilt-${_entry}`, "plugin");
    fs.cpSync(path.join(pkg, "plugin"), dir, { recursive: true });
    const [file, ...args] = command(dir);
    const run = spawnSync(file, args, { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      `pulumi-managed-db: the plugin folder ${dir} has no build (${path.join(dir, "..", "dist/provider/adapters/plugin/main.js")} ` +
        `is missing); run \`npm run build\` in ${path.dirname(dir)}, or install the package from npm\n`,
    );
  });
  it("without @pulumi/pulumi beside it, prints one line saying what to install, and exits", () => {
    const dir = path.join(work, "no-pulumi");
    fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
    for (const name of ["dist", "plugin", "package.json"])
      fs.cpSync(path.join(pkg, name), path.join(dir, name), { recursive: true });
    for (const name of fs.readdirSync(path.join(root, "node_modules")))
      if (name !== "@pulumi")
        fs.symlinkSync(path.join(root, "node_modules", name), path.join(dir, "node_modules", name));
    const run = spawnSync(path.join(dir, "plugin/pulumi-resource-mdb"), ["127.0.0.1:1"], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      "pulumi-managed-db: the plugin mdb could not start: cannot find @pulumi/pulumi beside pulumi-managed-db, " +
        "which the plugin mdb needs (a peer dependency): install it in the same project (`npm install @pulumi/pulumi`)\n",
    );
  });
});
