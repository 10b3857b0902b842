/**
 * The file work on data directories: copies that tolerate a running server (files that vanish
 * mid-copy are skipped, WAL replay repairs the rest), ownership for the `postgres` user, removal.
 */
import { chownSync, copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

/** Directories whose contents a copy of a live data directory leaves out (the server remakes them). */
const TRANSIENT_CONTENTS = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_stat_tmp",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_subtrans",
]);

/** Files of a data directory that belong to the running server or to one recovery only. */
const PRIVATE_FILES = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "standby.signal",
  "recovery.signal",
  "backup_label",
  "tablespace_map",
  "mdb-recovery.conf",
]);

/** Copies directory `from` to `to` whole (a quiescent directory: a template, a base backup). */
export function copyTree(from: string, to: string): void {
  copy(from, to, () => true);
}

/**
 * Copies the data directory of a running server for a base backup: the transient directories
 * empty, the server's own files left out (pg_wal is copied apart, after the backup stops).
 */
export function copyLiveDataDir(from: string, to: string): void {
  copy(from, to, (relative) => {
    const parts = relative.split(path.sep);
    if (parts.length === 1) return !PRIVATE_FILES.has(parts[0]);
    if (TRANSIENT_CONTENTS.has(parts[0]))
      return parts[0] === "pg_wal" && parts[1] === "archive_status" && parts.length === 2;
    return !parts[parts.length - 1].startsWith("pgsql_tmp");
  });
}

/** Copies the WAL segment and history files of `fromDataDir` into `toDataDir`'s pg_wal. */
export function copyWal(fromDataDir: string, toDataDir: string): void {
  const from = path.join(fromDataDir, "pg_wal");
  for (const name of readdirSync(from)) {
    if (!/^[0-9A-F]{24}$|\.history$/.test(name)) continue;
    copyIfPresent(path.join(from, name), path.join(toDataDir, "pg_wal", name));
  }
}

/** Gives `dir` and everything in it to `ids` (a no-op when the servers run as the emulator's user). */
export function chownTree(dir: string, ids: { uid: number; gid: number } | undefined): void {
  if (!ids) return;
  chownSync(dir, ids.uid, ids.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(at, ids);
    else chownSync(at, ids.uid, ids.gid);
  }
}

/** Removes a directory tree, if present. */
export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function copy(from: string, to: string, keep: (relative: string) => boolean, relative = ""): void {
  mkdirSync(to, { recursive: true, mode: statSync(from).mode & 0o777 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const rel = relative ? path.join(relative, entry.name) : entry.name;
    if (!keep(rel)) continue;
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copy(source, path.join(to, entry.name), keep, rel);
    else if (entry.isFile()) copyIfPresent(source, path.join(to, entry.name));
  }
}

function copyIfPresent(from: string, to: string): void {
  try {
    copyFileSync(from, to);
  } catch (error) {
    // A running server removes files (a dropped table, a recycled segment): the copy goes without.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
