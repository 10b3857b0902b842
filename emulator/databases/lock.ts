/**
 * One emulator at a time on a databases folder: two emulators on the same state file would each
 * take the other's servers for stale ones and stop them. The lock is a file naming the holder's
 * pid and start time; one whose holder is gone (a `kill -9`) is stale and taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { DatabasesUnavailable } from "./engine";
import { alive, describeProcess, startTime } from "./processes";

/** The lock file's name in the databases folder. */
export const LOCK_FILE = "emulator.lock";

/** What the lock file says. */
interface Holder {
  pid: number;
  started: string;
}

/**
 * Takes the lock of databases folder `root` for this process; throws {@link DatabasesUnavailable}
 * naming the other emulator when a live one holds it. Returns the release.
 */
export function lockDatabases(root: string, stateFile: string | undefined): () => void {
  const file = path.join(root, LOCK_FILE);
  const me: Holder = { pid: process.pid, started: startTime(process.pid) ?? "" };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o644);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 2) throw error;
    }
    const holder = readHolder(file);
    if (
      holder &&
      holder.pid !== process.pid &&
      alive(holder.pid) &&
      startTime(holder.pid) === holder.started
    ) {
      throw new DatabasesUnavailable(
        `--databases: ${stateFile ? `state file ${stateFile}` : root} is in use by another mdb-emulator (${describeProcess(holder.pid)}); ` +
          "stop it first, or start this one with another --state-file",
      );
    }
    rmSync(file, { force: true }); // its holder is gone: stale
  }
  return () => {
    if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

function readHolder(file: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, "utf8")) as Partial<Holder>;
    return typeof holder.pid === "number"
      ? { pid: holder.pid, started: String(holder.started ?? "") }
      : undefined;
  } catch {
    return undefined; // being written, or torn by a crash: retried, then taken as stale
  }
}
