/**
 * Turns on Node.js's on-disk compile cache (`module.enableCompileCache`, Node.js 22.8 and later)
 * before the package's modules and its dependencies (zod, axios) load, in a Pulumi program and
 * in the provider host alike: both processes start anew for every `pulumi` command, and the
 * V8 code cache saves most of compiling the same modules again. Imported first by the two entry
 * modules, `index.ts` and `host.ts`.
 *
 * The cache lives where Node.js puts it by default (`NODE_COMPILE_CACHE`, else
 * `<os.tmpdir()>/node-compile-cache`); `NODE_DISABLE_COMPILE_CACHE=1` turns it off. On a Node.js
 * without the API, or when the cache cannot be used, nothing changes: it is an optimisation only.
 */
import * as nodeModule from "module";

/** `module.enableCompileCache`, where this Node.js has it. */
type EnableCompileCache = (directory?: string) => { status: number; message?: string };

const enable = (nodeModule as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
if (typeof enable === "function") {
  try {
    enable();
  } catch {
    // An optimisation only: never fail a program over it.
  }
}
