/**
 * `--databases`: real PostgreSQL servers behind the emulated services. Starting it finds the
 * optional server package (or says the command that installs it), makes sure the template exists,
 * and prepares the directory the servers live in: beside the state file (`<state>.databases/`),
 * so they survive an emulator restart, else a temporary one removed on close. As root, when the
 * `postgres` user the servers run as cannot pass through the state file's folder (a checkout
 * under `/root`), they live in a folder of their own instead, named after the state file
 * ({@link reachableStand}), which every restart on that state file finds again.
 */
import { createHash } from "node:crypto";
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabasesUnavailable, loadEngine, othersCanReach } from "./engine";
import { removeTreeAsync } from "./files";
import { lockDatabases } from "./lock";
import { DatabaseManager } from "./manager";
import { PortPool } from "./ports";
import { Reaper } from "./reaper";
import { livePostmasters, reapers } from "./server-process";
import { ensureTemplate } from "./template";

export type { DatabaseHooks, ForkSource } from "./hooks";
export { DatabaseManager, DATABASE_HOST } from "./manager";
export { DatabasesUnavailable, INSTALL_COMMAND } from "./engine";
export { SERVICE_DATABASE, SERVICE_USER } from "./template";

/** Options of {@link startDatabases}. */
export interface DatabasesOptions {
  /** The emulator's state file: the servers live beside it, in `<stateFile minus .json>.databases/`. */
  stateFile?: string;
  /** Where the servers live, instead (kept on close). */
  dir?: string;
  /** Where the template is cached. Default `$XDG_CACHE_HOME/pulumi-managed-db` or `~/.cache/...`. */
  cacheDir?: string;
  /** One line per server failure or notice. Default: stderr. */
  log?: (line: string) => void;
}

/** The running databases room: the hooks for the model, and what the emulator's close needs. */
export interface Databases {
  manager: DatabaseManager;
  /** Directory holding the servers' folders. */
  root: string;
  /** Stops every server; removes their files when they live in a temporary directory. */
  close(): Promise<void>;
}

/** Prepares the databases room; throws {@link DatabasesUnavailable} with what to do when it cannot work. */
export async function startDatabases(options: DatabasesOptions = {}): Promise<Databases> {
  const engine = loadEngine();
  const log = options.log ?? ((line: string) => process.stderr.write(`[databases] ${line}\n`));
  const temporary = !options.dir && !options.stateFile;
  let root = options.dir
    ? path.resolve(options.dir)
    : options.stateFile
      ? path.resolve(options.stateFile).replace(/(\.json)?$/, ".databases")
      : mkdtempSync(path.join(tmpdir(), "mdb-emulator-databases-"));
  if (engine.runAs && options.stateFile && !options.dir && !othersCanReach(path.dirname(root))) {
    const beside = root;
    root = reachableStand(beside);
    log(
      `the postgres user the servers run as cannot pass through ${path.dirname(beside)}: ` +
        `they live in ${root} instead, found again by every start on this state file`,
    );
  }
  mkdirSync(root, { recursive: true });
  if (engine.runAs) {
    chmodSync(root, 0o711); // the servers' user passes through to its own folders
    checkReachable(root);
  }
  const unlock = lockDatabases(root, options.stateFile && path.resolve(options.stateFile));
  let template: Awaited<ReturnType<typeof ensureTemplate>>;
  const ports = new PortPool();
  try {
    template = await ensureTemplate(engine, options.cacheDir);
    await ports.fill();
  } catch (error) {
    ports.close();
    unlock();
    throw error;
  }
  const manager = new DatabaseManager({ engine, template, root, ports, log });
  // What stops the servers when this process is killed outright (kill -9), which no handler sees.
  const reaper = new Reaper(root, temporary);
  reapers.add(reaper);
  const killAll = () => {
    for (const child of livePostmasters) child.kill("SIGQUIT");
  };
  // The last resort on any exit that skipped close (an uncaught error): no server outlives us.
  process.on("exit", killAll);
  return {
    manager,
    root,
    close: async () => {
      await manager.close();
      reapers.delete(reaper);
      reaper.close();
      process.off("exit", killAll);
      unlock();
      if (temporary) await removeTreeAsync(root);
    },
  };
}

/**
 * Where the servers of a state file live when `postgres` cannot reach the folder beside it
 * (`beside`, `<state>.databases`): `mdb-emulator-databases/<hash of beside>` in `/var/tmp`, which
 * a reboot keeps (as the state file is kept), else in the temp folder. The parent is made mode
 * 711 so that `postgres` passes through without listing it.
 */
function reachableStand(beside: string): string {
  const base = existsSync("/var/tmp") && othersCanReach("/var/tmp") ? "/var/tmp" : tmpdir();
  const parent = path.join(base, "mdb-emulator-databases");
  mkdirSync(parent, { recursive: true });
  chmodSync(parent, 0o711);
  const key = createHash("sha256").update(beside).digest("hex").slice(0, 16);
  return path.join(parent, key);
}

/** As root, the servers run as `postgres`: every folder above theirs must let others through. */
function checkReachable(root: string): void {
  if (!othersCanReach(root)) {
    throw new DatabasesUnavailable(
      `--databases: the postgres user the servers run as cannot reach ${root}; ` +
        "give a folder others may pass through (mode o+x all the way up), or run the emulator as a user other than root",
    );
  }
  accessSync(root, constants.W_OK);
}
