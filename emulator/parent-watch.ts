/**
 * The emulator stops with the process that started it. `npx mdb-emulator` and `npm run emulator`
 * run it under npm (npm, then `sh -c`, then the emulator); a SIGTERM or SIGINT sent to npm ends npm
 * and the shell but is not passed on, and a SIGKILL ends npm alone, so the emulator would keep its
 * port and its PostgreSQL servers. It therefore watches its parent and, when that parent is the
 * shell npm runs scripts with, the shell's parent too: twice a second, and once one of them has
 * gone (a process re-parented, or no longer the one it was), it stops cleanly, as on SIGTERM.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** How often the parents are checked, in ms. */
export const PARENT_CHECK_MS = 500;

/** The environment variable npm sets for the commands it runs (`npx`, `npm exec`, `npm run`). */
const NPM_VARIABLE = "npm_command";

/** Shells that run a command between npm and the emulator (`sh -c 'mdb-emulator …'`). */
const SHELLS = new Set(["sh", "bash", "dash", "zsh"]);

/**
 * Whether the emulator follows its parent when neither `--exit-with-parent` nor
 * `--no-exit-with-parent` says: yes when npm started it (npm does not pass signals on to it).
 */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[NPM_VARIABLE] !== undefined;
}

/**
 * Calls `stop` (once) with the pid of the first watched ancestor that ended: the parent, and the
 * shell's parent when the parent is a shell. Returns the function that stops watching. The timer
 * does not keep the process alive.
 */
export function watchParent(stop: (ended: number) => void, everyMs = PARENT_CHECK_MS): () => void {
  const parent = process.ppid;
  const watched = ancestors(parent);
  const timer = setInterval(() => {
    const ended = process.ppid !== parent ? parent : watched.find((a) => a.started !== startTime(a.pid))?.pid;
    if (ended === undefined) return;
    clearInterval(timer);
    stop(ended);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** `parent`, and up through shells to the first process that is not one (npm): pids and start times. */
function ancestors(parent: number): { pid: number; started: string | undefined }[] {
  const chain: { pid: number; started: string | undefined }[] = [];
  for (let pid = parent; pid > 1 && chain.length < 4;) {
    const stat = procStat(pid);
    chain.push({ pid, started: stat?.started });
    if (!stat || !SHELLS.has(path.basename(commandName(pid)))) break;
    pid = stat.ppid;
  }
  return chain;
}

/** The start time of `pid` (Linux), undefined once it is gone (or where /proc is not). */
function startTime(pid: number): string | undefined {
  return procStat(pid)?.started;
}

/** Parent pid and start time of `pid` from /proc (a zombie counts as gone). */
function procStat(pid: number): { ppid: number; started: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" ? undefined : { ppid: Number(fields[1]), started: fields[19] };
  } catch {
    return undefined;
  }
}

/** The program `pid` runs (its first argument), or "" when unknown. */
function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "";
  } catch {
    return "";
  }
}
