// Peak memory of the provider process started under one Pulumi command, found by its command line:
// the dynamic provider host (`node .../@pulumi/pulumi/cmd/dynamic-provider`) or the native
// plugin's server (`node .../dist/provider/adapters/plugin/main.js`). Samples /proc every
// `everyMs` and keeps the largest VmHWM (the kernel's own high-water mark of resident memory) of
// the matching descendants of `rootPid`.
// Only descendants count, so other Pulumi runs on the machine do not leak in. Linux only;
// elsewhere the peak stays undefined.
"use strict";
const fs = require("fs");
const { setInterval, clearInterval } = require("timers");

/** The command line of Pulumi's dynamic provider host contains this. */
const DYNAMIC_PROVIDER = "cmd/dynamic-provider";
/** The command line of the native plugin's server contains this (the shim execs it in its pid). */
const PLUGIN_SERVER = "dist/provider/adapters/plugin/main.js";

function read(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined; // the process ended between listing and reading
  }
}

/** Parent pid from /proc/PID/stat (the field after the parenthesised command name). */
function parentOf(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** VmHWM of a process, in bytes. */
function highWaterMark(pid) {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`) ?? "");
  return match ? Number(match[1]) * 1024 : undefined;
}

class ProviderMemory {
  /** Starts sampling below `rootPid` for a process whose command line contains `provider`. */
  constructor(rootPid, provider = DYNAMIC_PROVIDER, everyMs = 100) {
    this.provider = provider;
    this.available = fs.existsSync("/proc/self/status");
    /** Largest VmHWM seen, in bytes; undefined until a provider host was seen. */
    this.peak = undefined;
    this.parents = new Map([[rootPid, 0]]);
    this.inside = new Set([rootPid]);
    this.providers = new Set();
    if (this.available) this.timer = setInterval(() => this.sample(), everyMs);
  }

  sample() {
    let pids;
    try {
      pids = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    } catch {
      return;
    }
    for (const name of pids) {
      const pid = Number(name);
      // A pid's parent does not change while we care (the engine waits for its plugins).
      if (!this.parents.has(pid)) this.parents.set(pid, parentOf(pid));
      if (!this.inside.has(pid) && this.inside.has(this.parents.get(pid))) this.inside.add(pid);
      if (!this.inside.has(pid)) continue;
      // The shim execs node in the same pid, so the command line is read until it matches.
      if (!this.providers.has(pid) && (read(`/proc/${pid}/cmdline`) ?? "").includes(this.provider))
        this.providers.add(pid);
      if (!this.providers.has(pid)) continue;
      const hwm = highWaterMark(pid);
      if (hwm !== undefined && (this.peak === undefined || hwm > this.peak)) this.peak = hwm;
    }
  }

  /** Takes a last sample, stops, and returns the peak in bytes (undefined when none was seen). */
  stop() {
    if (this.timer) {
      this.sample();
      clearInterval(this.timer);
      this.timer = undefined;
    }
    return this.peak;
  }
}

module.exports = { DYNAMIC_PROVIDER, PLUGIN_SERVER, ProviderMemory };
