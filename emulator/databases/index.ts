/**
 * `--databases`: real PostgreSQL servers behind the emulated services. Starting it finds the
 * optional server package (or says the command that installs it), makes sure the template exists,
 * and prepares the directory the servers live in: beside the state file (`<state>.databases/`),
 * so they survive an emulator restart, else a temporary one removed on close.
 */
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabasesUnavailable, loadEngine, othersCanReach } from "./engine";
import { removeTreeAsync } from "./files";
import { lockDatabases } from "./lock";
import { DatabaseManager } from "./manager";
import { PortPool } from "./ports";
import { livePostmasters } from "./server-process";
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
  const root = options.dir
    ? path.resolve(options.dir)
    : options.stateFile
      ? path.resolve(options.stateFile).replace(/(\.json)?$/, ".databases")
      : mkdtempSync(path.join(tmpdir(), "mdb-emulator-databases-"));
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
      process.off("exit", killAll);
      unlock();
      if (temporary) await removeTreeAsync(root);
    },
  };
}

/** As root, the servers run as `postgres`: every folder above theirs must let others through. */
function checkReachable(root: string): void {
  if (!othersCanReach(root)) {
    throw new DatabasesUnavailable(
      `--databases: the postgres user the servers run as cannot reach ${root}; ` +
        "use a --state-file in a folder others may pass through (mode o+x all the way up), or run the emulator as a user other than root",
    );
  }
  accessSync(root, constants.W_OK);
}
