/**
 * The package turns on Node.js's compile cache only in Pulumi's dynamic provider host, in a private
 * directory of the user's cache (never the shared temporary directory), honours
 * NODE_DISABLE_COMPILE_CACHE and leaves a user's program process as it was. Run in a child `node`
 * whose main module sits where those processes' main modules sit, on the module compiled as the
 * build compiles it.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";

const source = path.resolve(__dirname, "../../provider/compile-cache.ts");
const hasApi =
  typeof (require("module") as { enableCompileCache?: unknown }).enableCompileCache === "function";
let dir: string;
let cacheHome: string;

/** A main module at `relative` (under the temporary folder) that loads the package's module and prints the cache dir. */
function mainAt(relative: string): string {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `require(${JSON.stringify(path.join(dir, "compile-cache.js"))});` +
      `process.stdout.write(String(require("module").getCompileCacheDir?.() ?? "none"));`,
  );
  return file;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-compile-cache-"));
  cacheHome = path.join(dir, "cache-home");
  const js = ts.transpileModule(fs.readFileSync(source, "utf8"), {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2020,
      esModuleInterop: true,
    },
  }).outputText;
  fs.writeFileSync(path.join(dir, "compile-cache.js"), js);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const HOST = "node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";
const PLUGIN = "node_modules/pulumi-managed-db/dist/provider/adapters/plugin/main.js";
const PROGRAM = "infra/index.js";
const OURS = () => path.join(cacheHome, "pulumi-managed-db", "node-compile-cache");

/** The compile cache directory a fresh `node` running `main` reports, or "none". */
function cacheDir(main: string, env: Record<string, string | undefined> = {}): string {
  const clean = {
    ...process.env,
    NODE_COMPILE_CACHE: undefined,
    NODE_DISABLE_COMPILE_CACHE: undefined,
    XDG_CACHE_HOME: cacheHome,
  };
  return execFileSync(process.execPath, [mainAt(main)], { env: { ...clean, ...env }, encoding: "utf8" });
}

describe("compile cache", () => {
  it("stays off in a user's program process", () => {
    expect(cacheDir(PROGRAM)).toBe("none");
    expect(fs.existsSync(OURS())).toBe(false);
  });

  it("is on in the provider host, in a directory of the user's cache only they can write to", () => {
    const found = cacheDir(HOST);
    if (!hasApi) return expect(found).toBe("none");
    expect(found).toContain(OURS());
    expect(found).not.toContain(path.join(os.tmpdir(), "node-compile-cache"));
    expect(fs.statSync(OURS()).mode & 0o077).toBe(0);
  });

  it("is on in the native plugin's server too", () => {
    expect(cacheDir(PLUGIN)).toEqual(hasApi ? expect.stringContaining(OURS()) : "none");
  });

  it("stays off in the provider host with NODE_DISABLE_COMPILE_CACHE", () => {
    expect(cacheDir(HOST, { NODE_DISABLE_COMPILE_CACHE: "1" })).toBe("none");
  });

  it("stays off in the provider host when its directory is writable by others", () => {
    const shared = path.join(dir, "shared-cache");
    const target = path.join(shared, "pulumi-managed-db", "node-compile-cache");
    fs.mkdirSync(target, { recursive: true });
    fs.chmodSync(target, 0o777);
    expect(cacheDir(HOST, { XDG_CACHE_HOME: shared })).toBe("none");
  });
});
