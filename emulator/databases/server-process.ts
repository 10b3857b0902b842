/**
 * One PostgreSQL server process (the postmaster, a direct child of the emulator): start until it
 * accepts connections, stop with a fast shutdown. Its log goes to a file beside its data directory.
 * The pids of every live postmaster are kept so the emulator can stop them on any exit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import path from "node:path";
import type { Engine } from "./engine";

/** Postmasters started by this process and still running. */
export const livePostmasters = new Set<ChildProcess>();

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
    await killStalePostmaster(this.dataDir);
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
 * A postmaster left running by an emulator that was killed outright holds the data directory:
 * it gets an immediate shutdown before a new server starts there.
 */
async function killStalePostmaster(dataDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return;
  }
  if (!(pid > 0) || !isPostgres(pid)) return;
  process.kill(pid, "SIGQUIT");
  for (let i = 0; i < 100 && isPostgres(pid); i++) await new Promise((r) => setTimeout(r, 50));
}

function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return false;
  }
}
