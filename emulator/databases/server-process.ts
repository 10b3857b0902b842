/**
 * One PostgreSQL server process (the postmaster, a direct child of the emulator): start until it
 * accepts connections, stop with a fast shutdown. Its log goes to a file beside its data directory.
 * The pids of every live postmaster are kept so the emulator can stop them on any exit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import path from "node:path";
import type { Engine } from "./engine";
import type { Reaper } from "./reaper";
import { alive, checkPortFree, commandLine, describeProcess } from "./processes";

/** Postmasters started by this process and still running. */
export const livePostmasters = new Set<ChildProcess>();

/**
 * The reapers of this process's emulators (`reaper.ts`), told of every postmaster started and
 * ended; each acts only on the servers under its own root.
 */
export const reapers = new Set<Pick<Reaper, "started" | "ended">>();

/** How long a server may take to accept connections (a PITR replay included) before it counts as failed. */
const START_TIMEOUT_MS = 60_000;

/** A server over one data directory on one port. */
export class ServerProcess {
  private child?: ChildProcess;

  constructor(
    private readonly engine: Engine,
    readonly dataDir: string,
    readonly port: number,
    private readonly logFile: string,
    /** What the server is, for messages: `service abc`. */
    private readonly label: string,
  ) {}

  /** True while the postmaster runs. */
  get running(): boolean {
    return this.child !== undefined;
  }

  /**
   * Starts the server and resolves once it accepts connections: read-only ones for a standby,
   * read-write ones otherwise (a point-in-time recovery accepts reads before it is promoted).
   */
  async start(standby: boolean): Promise<void> {
    if (this.child) return;
    await releaseDataDir(this.dataDir);
    await checkPortFree(this.port, "127.0.0.1", `the database endpoint of ${this.label}`);
    const log = createWriteStream(this.logFile, { flags: "a" });
    const child = spawn(
      path.join(this.engine.binDir, "postgres"),
      ["-D", this.dataDir, "-p", String(this.port)],
      {
        ...this.engine.runAs,
        cwd: this.dataDir,
        env: { ...process.env, LC_ALL: "C" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    this.child = child;
    livePostmasters.add(child);
    for (const reaper of reapers) reaper.started(child.pid);
    const ready = standby ? /ready to accept (read-only )?connections/ : /ready to accept connections/;
    await new Promise<void>((resolve, reject) => {
      let seen = "";
      const timer = setTimeout(() => {
        child.kill("SIGQUIT");
        reject(new Error(`the server did not accept connections within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      child.stderr!.on("data", (chunk: Buffer) => {
        if (!log.writableEnded) log.write(chunk);
        seen = (seen + chunk.toString()).slice(-4000);
        if (ready.test(seen)) {
          clearTimeout(timer);
          seen = "";
          resolve();
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        livePostmasters.delete(child);
        for (const reaper of reapers) reaper.ended(child.pid);
        if (this.child === child) this.child = undefined;
        child.stderr!.once("end", () => log.end());
        const last = seen.trim().split("\n").slice(-3).join(" / ");
        reject(
          new Error(
            `the server exited (${signal ?? `exit ${code}`}): ${last || "no output"}; log: ${this.logFile}`,
          ),
        );
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** Fast shutdown (open sessions are cut); resolves once the postmaster is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
    child.kill("SIGINT");
    const escalate = setTimeout(() => child.kill("SIGQUIT"), 10_000);
    await exited;
    clearTimeout(escalate);
    livePostmasters.delete(child);
  }
}

/**
 * Makes sure no server holds data folder `dataDir` before one starts there. A postmaster an
 * emulator left running when it was killed outright (its command line is the one this room runs,
 * `postgres -D <dataDir> …`) gets a fast shutdown (an immediate one after 3 s). Any other live
 * process the folder's `postmaster.pid` names is not ours to stop: the message names it.
 */
export async function releaseDataDir(dataDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return;
  }
  const command = commandLine(pid);
  if (!command || pid === process.pid) return; // gone: PostgreSQL takes over a stale lock file
  const ours =
    path.basename(command[0] ?? "") === "postgres" && command[command.indexOf("-D") + 1] === dataDir;
  if (!ours) {
    throw new Error(
      `data folder ${dataDir} is held by another process (${describeProcess(pid)}), not by this emulator: ` +
        `stop that process, then restart the emulator (if it is no PostgreSQL server, the lock file is stale: remove ${path.join(dataDir, "postmaster.pid")})`,
    );
  }
  for (const [signal, waitMs] of [
    ["SIGINT", 3000],
    ["SIGQUIT", 5000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    for (let waited = 0; waited < waitMs && alive(pid); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!alive(pid)) return;
  }
  throw new Error(`the server an earlier emulator left on ${dataDir} (pid ${pid}) does not stop`);
}
