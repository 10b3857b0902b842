/**
 * Turns on Node.js's on-disk compile cache (`module.enableCompileCache`, Node.js 22.8 and later)
 * in the processes that only run providers (Pulumi's dynamic provider host, the native plugin's
 * server), before the package's modules and its dependencies (zod, axios, gRPC) load there. That process exists only to run providers, starts anew for every
 * `pulumi` command, and loads the same modules each time: with the cache, loading them took 73 ms
 * instead of 93 ms (Node.js 24, median of 11, after @pulumi/pulumi loaded as it does in the host).
 * Imported first by the entry modules, `index.ts`, `host.ts` and the plugin's `main.ts`.
 *
 * A user's own program process is left alone: the cache applies to every module loaded after it is
 * turned on, the user's too, so it is theirs to ask for (`NODE_COMPILE_CACHE`). The directory is
 * `<XDG_CACHE_HOME or ~/.cache>/pulumi-managed-db/node-compile-cache`, created private (0700); when
 * it is not a directory of this user that nobody else can write to, the cache stays off (never the
 * shared temporary directory: another user could plant code there). `NODE_DISABLE_COMPILE_CACHE=1`
 * turns it off, and a `NODE_COMPILE_CACHE` the user set wins. On a Node.js without the API, or when
 * the cache cannot be used, nothing changes: it is an optimisation only.
 */
import * as fs from "fs";
import * as nodeModule from "module";
import * as os from "os";
import * as path from "path";

/** `module.enableCompileCache`, where this Node.js has it. */
type EnableCompileCache = (directory?: string) => { status: number; message?: string };

/**
 * Whether `mainFile` (the process's main module) is a process that only runs providers: Pulumi's
 * dynamic provider host, or the native plugin's server (`adapters/plugin/main.js`, which the
 * engine also starts anew for every command).
 */
export function isProviderHost(mainFile: string | undefined): boolean {
  return (
    mainFile !== undefined &&
    (/[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(mainFile) ||
      /[\\/]dist[\\/]provider[\\/]adapters[\\/]plugin[\\/]main\.js$/.test(mainFile))
  );
}

/** The compile cache directory of this user: under `XDG_CACHE_HOME`, else `~/.cache`. */
export function compileCacheDirectory(env: NodeJS.ProcessEnv, home: string): string {
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(home, ".cache");
  return path.join(base, "pulumi-managed-db", "node-compile-cache");
}

/**
 * Creates `dir` (mode 0700) when missing and tells whether it is safe to cache compiled code in:
 * a real directory (not a link), owned by this user, that neither group nor others can write to.
 */
export function isPrivateDirectory(dir: string): boolean {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
    return stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Whether to turn the cache on here: in the provider host, unless the user decided already. */
export function wantsCompileCache(env: NodeJS.ProcessEnv, mainFile: string | undefined): boolean {
  return !env.NODE_DISABLE_COMPILE_CACHE && !env.NODE_COMPILE_CACHE && isProviderHost(mainFile);
}

const enable = (nodeModule as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
if (typeof enable === "function" && wantsCompileCache(process.env, require.main?.filename)) {
  try {
    const dir = compileCacheDirectory(process.env, os.homedir());
    if (isPrivateDirectory(dir)) enable(dir);
  } catch {
    // An optimisation only: never fail a provider over it.
  }
}

/**
 * Writes what the cache gathered so far to disk (`module.flushCompileCache`, where Node.js has
 * it). Node.js writes it when the process exits; a process the engine kills (the native plugin,
 * which the engine ends with SIGKILL) would never get there, so its start-up flushes once its
 * modules are loaded. Does nothing when the cache is off.
 */
export function flushCompileCache(): void {
  const flush = (nodeModule as unknown as { flushCompileCache?: () => void }).flushCompileCache;
  try {
    if (typeof flush === "function") flush();
  } catch {
    // An optimisation only.
  }
}
