/**
 * Who holds what on this machine: whether a process lives and what it runs, which process listens
 * on a port, and whether a port is free. The emulator asks before it touches a data folder or
 * binds a port a record names, so that what another program holds is named in a clear message,
 * never taken over. Linux answers from /proc; elsewhere `ps` answers what it can.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import net from "node:net";

/** The command line of process `pid` (its arguments), or undefined when no such process lives. */
export function commandLine(pid: number): string[] | undefined {
  if (!(pid > 0) || !alive(pid)) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    try {
      return execFileSync("ps", ["-o", "command=", "-p", String(pid)], { encoding: "utf8" })
        .trim()
        .split(/\s+/);
    } catch {
      return [];
    }
  }
}

/**
 * When process `pid` started (clock ticks since boot on Linux, `ps`'s start time elsewhere): with
 * the pid, it tells a process from a later one that reused its pid. Undefined when it is gone.
 */
export function startTime(pid: number): string | undefined {
  if (!(pid > 0) || !alive(pid)) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    try {
      return execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8" }).trim();
    } catch {
      return "";
    }
  }
}

/** True while process `pid` exists (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** `pid N (command)`, for messages. */
export function describeProcess(pid: number): string {
  const command = commandLine(pid);
  return command && command.length > 0 ? `pid ${pid}: ${command.join(" ").slice(0, 120)}` : `pid ${pid}`;
}

/** What a message about a port held by another process advises by default. */
const RESTART = "stop it, then restart the emulator";

/**
 * Resolves once `port` on `host` could be bound (it is free), or rejects with
 * {@link portInUseMessage}: `what` the port is for, and `remedy`.
 */
export async function checkPortFree(
  port: number,
  host: string,
  what: string,
  remedy = RESTART,
): Promise<void> {
  const free = await new Promise<boolean>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "EADDRINUSE" ? resolve(false) : reject(error),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
  if (!free) throw new Error(portInUseMessage(port, what, remedy));
}

/** `port N (what) is in use by another process (pid M: command): remedy`, the holder when this user can see it. */
export function portInUseMessage(port: number, what: string, remedy = RESTART): string {
  const holder = portHolder(port);
  return `port ${port} (${what}) is in use by another process${holder ? ` (${describeProcess(holder)})` : ""}: ${remedy}`;
}

/** The process listening on TCP `port` (Linux, a process this user may inspect), if any. */
export function portHolder(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address `HEX_IP:HEX_PORT`, state 0A = LISTEN, inode in column 10
      if (fields.length > 9 && fields[3] === "0A" && parseInt(fields[1].split(":")[1], 16) === port) {
        inodes.add(fields[9]);
      }
    }
  }
  if (inodes.size === 0) return undefined;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (socket && inodes.has(socket[1])) return Number(pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
