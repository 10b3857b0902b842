/**
 * `mdb-emulator` as a child process, the way users run it (`node dist/emulator/cli.js`): started
 * until its listening line, its stderr kept, stopped by a signal. `npm test` builds before jest;
 * when `dist/emulator/cli.js` is missing or older than the emulator's sources (a test file run
 * alone), {@link ensureBuilt} compiles the emulator first.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The repository's root. */
export const ROOT = resolve(__dirname, "../..");
/** The built command. */
export const CLI = join(ROOT, "dist/emulator/cli.js");

function newestSource(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory()
      ? newestSource(path)
      : entry.name.endsWith(".ts")
        ? statSync(path).mtimeMs
        : 0;
    return Math.max(newest, mtime);
  }, 0);
}

/** Compiles the emulator (and the API contract it stands on) into dist/ when the build is missing or stale. */
export function ensureBuilt(): void {
  const sources = Math.max(newestSource(join(ROOT, "emulator")), newestSource(join(ROOT, "api")));
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= sources) return;
  // Only the emulator's own import graph, so work in progress elsewhere in the tree cannot break it.
  const dir = mkdtempSync(join(tmpdir(), "mdb-cli-build-"));
  const config = join(dir, "tsconfig.json");
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(ROOT, "tsconfig.build.json"),
      compilerOptions: { typeRoots: [join(ROOT, "node_modules/@types")] },
      files: [join(ROOT, "emulator/cli.ts"), join(ROOT, "emulator/index.ts")],
      include: [],
    }),
  );
  try {
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", config], { stdio: "pipe" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** This process's environment without the `MDB_*` variables (the emulator's and the provider's settings). */
function withoutMdbSettings(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("MDB_")));
}

/** A started emulator process. */
export class CliProcess {
  private stdoutText = "";
  private stderrText = "";
  /** Resolves with the exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Base URL of the API, from the listening line (empty until then). */
  url = "";

  private constructor(readonly child: ChildProcess) {
    child.stdout!.on("data", (chunk: Buffer) => (this.stdoutText += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (this.stderrText += chunk.toString()));
    this.exited = new Promise((done) => child.once("exit", (code) => done(code)));
  }

  /**
   * Spawns `command args` (by default the built CLI under this Node.js) with `env` added to a bare
   * environment (PATH only, unless `inheritEnv`: then this process's environment without the
   * `MDB_*` variables, which would give the emulator the keys and project of whoever runs the
   * tests), in `cwd`. Does not wait: see {@link listening}.
   */
  static spawn(
    args: string[],
    options: {
      env?: Record<string, string>;
      command?: string;
      cwd?: string;
      inheritEnv?: boolean;
      /** Leads its own process group (a terminal's foreground job), for signals to the group. */
      detached?: boolean;
    } = {},
  ): CliProcess {
    const command = options.command ?? process.execPath;
    const child = spawn(command, options.command ? args : [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: {
        ...(options.inheritEnv ? withoutMdbSettings() : { PATH: process.env.PATH ?? "" }),
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: options.detached,
    });
    return new CliProcess(child);
  }

  /** Spawns the CLI with `args` and resolves once it listens. */
  static async start(args: string[], env: Record<string, string> = {}): Promise<CliProcess> {
    const cli = CliProcess.spawn(args, { env });
    await cli.listening();
    return cli;
  }

  /** Resolves with the API's URL once the listening line came; rejects when the process ended first. */
  async listening(): Promise<string> {
    const line = await Promise.race([
      this.waitFor(() => /^listening on (\S+)\n/m.exec(this.stdoutText)?.[1], 120_000),
      this.exited.then((code) => {
        throw new Error(`mdb-emulator exited with ${code} before listening: ${this.stderrText}`);
      }),
    ]);
    this.url = line;
    return line;
  }

  /** What it wrote on stdout and stderr so far. */
  get stdout(): string {
    return this.stdoutText;
  }

  /** See {@link stdout}. */
  get stderr(): string {
    return this.stderrText;
  }

  /** Resolves once `pattern` appears on stderr (rejects after `ms`). */
  async stderrMatch(pattern: RegExp, ms = 60_000): Promise<RegExpExecArray> {
    return this.waitFor(() => pattern.exec(this.stderrText) ?? undefined, ms);
  }

  /** Sends `signal`; resolves with the exit code once it ended (at once when it has). */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  private async waitFor<T>(value: () => T | undefined, ms: number): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = value();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms; stderr: ${this.stderrText}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
