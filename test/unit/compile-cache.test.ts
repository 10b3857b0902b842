/**
 * The package turns on Node.js's compile cache in the processes that load it (a Pulumi program,
 * the provider host) where Node.js has the API, honours NODE_DISABLE_COMPILE_CACHE, and is a
 * no-op elsewhere. Run in a child `node` like those processes, on the module compiled as the
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

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-compile-cache-"));
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

/** The compile cache directory a fresh `node` reports after loading the module, or "none". */
function cacheDirAfterLoading(env: Record<string, string | undefined>): string {
  const script =
    `require(${JSON.stringify(path.join(dir, "compile-cache.js"))});` +
    `process.stdout.write(String(require("module").getCompileCacheDir?.() ?? "none"))`;
  const clean = { ...process.env, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
  return execFileSync(process.execPath, ["-e", script], { env: { ...clean, ...env }, encoding: "utf8" });
}

describe("compile cache", () => {
  it("is on after the package loads where Node.js has the API (Node.js's default directory), else off", () => {
    const found = cacheDirAfterLoading({});
    if (hasApi) expect(found).toContain(path.join(os.tmpdir(), "node-compile-cache"));
    else expect(found).toBe("none");
  });

  it("stays off with NODE_DISABLE_COMPILE_CACHE", () => {
    expect(cacheDirAfterLoading({ NODE_DISABLE_COMPILE_CACHE: "1" })).toBe("none");
  });
});
