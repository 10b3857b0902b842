/**
 * The reaper: a small shell process, started with the servers, that outlives a `kill -9` of the
 * emulator, so that no PostgreSQL server is left running with nothing to stop it. The emulator
 * tells it on its stdin of every postmaster it starts (`+<pid>`) and of every one that exits
 * (`-<pid>`); `ps` shows it as `sh -c eval "$MDB_REAPER_SCRIPT" mdb-emulator-reaper`. When its
 * stdin ends without a `stop` line (the emulator is gone, however it ended), it
 * gives each postmaster still listed a fast shutdown, if that pid is still a `postgres` server
 * on a folder under the servers' root (a pid the system gave to another process is left alone),
 * and, for a root of the emulator's own (no state file, nothing to come back to), removes the
 * folder once they are gone. A clean stop of the emulator stops its servers itself and ends the
 * reaper first. A start on the same state file after a crash finds the servers stopped (or stops
 * them itself: `releaseDataDir`) and starts them again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";

/**
 * What the reaper runs (POSIX sh, no process forked until the emulator is gone): the servers' root
 * in `MDB_REAPER_ROOT` (not on its command line, which `ps` shows), `MDB_REAPER_TEMPORARY=1` when
 * the root is the emulator's own. A `stop` line is a clean stop: it ends without acting.
 */
const SCRIPT = `
root=$MDB_REAPER_ROOT
pids=" "
while IFS= read -r line; do
  case $line in
    stop) exit 0 ;;
    +*) pids="$pids\${line#+} " ;;
    -*)
      pid=\${line#-}
      case $pids in *" $pid "*) pids="\${pids%% $pid *} \${pids#* $pid }" ;; esac
      ;;
  esac
done
ours=""
for pid in $pids; do
  case $(ps -o command= -p "$pid" 2>/dev/null) in
    *postgres*" -D $root/"*) kill -INT "$pid" 2>/dev/null && ours="$ours $pid" ;;
  esac
done
[ "$MDB_REAPER_TEMPORARY" = 1 ] || exit 0
for pid in $ours; do
  tries=0
  while [ $tries -lt 50 ]; do
    # Gone, or exited and waiting to be reaped (Z): its folder is free.
    case $(ps -o stat= -p "$pid" 2>/dev/null) in "" | Z*) break ;; esac
    sleep 0.2
    tries=$((tries + 1))
  done
  [ $tries -lt 50 ] || kill -QUIT "$pid" 2>/dev/null
done
rm -rf "$root"
`;

/** A reaper for the servers under one root. */
export class Reaper {
  private readonly child: ChildProcess;

  /** Starts it for the servers under `root`; `temporary`: the root is the emulator's own, removed after. */
  constructor(root: string, temporary: boolean) {
    // The script comes by environment too: its command line stays one short line, naming no server.
    this.child = spawn("/bin/sh", ["-c", 'eval "$MDB_REAPER_SCRIPT"', "mdb-emulator-reaper"], {
      env: {
        ...process.env,
        MDB_REAPER_SCRIPT: SCRIPT,
        MDB_REAPER_ROOT: root,
        MDB_REAPER_TEMPORARY: temporary ? "1" : "0",
      },
      stdio: ["pipe", "ignore", "ignore"],
      // Its own process group: a Ctrl-C in the emulator's terminal goes to the emulator, which stops its servers.
      detached: true,
    });
    this.child.on("error", () => undefined); // no shell: the emulator runs on, without this safety net
    this.child.stdin!.on("error", () => undefined);
    this.child.unref();
    (this.child.stdin as Socket).unref();
  }

  /** A postmaster started, with process id `pid`. */
  started(pid: number | undefined): void {
    if (pid && this.child.stdin!.writable) this.child.stdin!.write(`+${pid}\n`);
  }

  /** A postmaster ended. */
  ended(pid: number | undefined): void {
    if (pid && this.child.stdin!.writable) this.child.stdin!.write(`-${pid}\n`);
  }

  /** A clean stop: the emulator stopped its servers itself; the reaper ends without acting. */
  close(): void {
    if (this.child.stdin!.writable) this.child.stdin!.end("stop\n");
  }
}
