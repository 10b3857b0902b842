/**
 * The file work on data directories: copies that tolerate a running server (files that vanish
 * mid-copy are skipped, WAL replay repairs the rest), ownership for the `postgres` user, removal.
 */
import { chownSync, constants, existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { copyFile, mkdir, readdir, rm, stat } from "node:fs/promises";
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

/**
 * File in a service's data directory: the SCRAM verifier its user last took from the service's
 * record (see `manager.ts`). Never copied, so a fork's or a remade folder's user takes its own.
 */
export const PASSWORD_TAKEN_FILE = "mdb-password-taken";

/** Files of a data directory that belong to the running server or to one recovery only. */
const PRIVATE_FILES = new Set([
  PASSWORD_TAKEN_FILE,
  "postmaster.pid",
  "postmaster.opts",
  "standby.signal",
  "recovery.signal",
  "backup_label",
  "tablespace_map",
  "mdb-recovery.conf",
]);

/** Called once half-way through a copy (after its first folder): where test hooks pause or fail it. */
export type Midway = () => Promise<void>;

/** Copies directory `from` to `to` whole (a quiescent directory: a template, a base backup). */
export function copyTree(from: string, to: string, midway?: Midway): Promise<void> {
  return copy(from, to, () => true, midway);
}

/**
 * Copies the data directory of a running server for a base backup: the transient directories
 * empty, the server's own files left out (pg_wal is copied apart, after the backup stops).
 */
export function copyLiveDataDir(from: string, to: string, midway?: Midway): Promise<void> {
  return copy(
    from,
    to,
    (relative) => {
      const parts = relative.split(path.sep);
      if (parts.length === 1) return !PRIVATE_FILES.has(parts[0]);
      if (TRANSIENT_CONTENTS.has(parts[0]))
        return parts[0] === "pg_wal" && parts[1] === "archive_status" && parts.length === 2;
      return !parts[parts.length - 1].startsWith("pgsql_tmp");
    },
    midway,
  );
}

/** Copies the WAL segment and history files of `fromDataDir` into `toDataDir`'s pg_wal. */
export async function copyWal(fromDataDir: string, toDataDir: string): Promise<void> {
  const from = path.join(fromDataDir, "pg_wal");
  for (const name of await readdir(from)) {
    if (!/^[0-9A-F]{24}$|\.history$/.test(name)) continue;
    await copyIfPresent(path.join(from, name), path.join(toDataDir, "pg_wal", name));
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

/**
 * Makes folder `dir` whole or not at all: `fill` writes it as `<dir>.partial` (a leftover of an
 * earlier try is removed first, and so is this one when `fill` fails), then one rename puts it in
 * place. So after a crash at any moment, `dir` exists only when it was made whole.
 */
export async function makeAtomically(dir: string, fill: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${dir}.partial`;
  await removeTreeAsync(partial);
  try {
    await fill(partial);
  } catch (error) {
    await removeTreeAsync(partial); // a full disk gets its space back
    throw error;
  }
  renameSync(partial, dir);
}

/** True when folder `dir` was made (see {@link makeAtomically}). */
export function isMade(dir: string): boolean {
  return existsSync(dir);
}

/** Removes a directory tree, if present, without blocking the event loop. */
export async function removeTreeAsync(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Removes a directory tree, if present. */
export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Copies the kept entries of `from` into `to`, files in parallel batches (not blocking the API). */
async function copy(
  from: string,
  to: string,
  keep: (relative: string) => boolean,
  midway?: Midway,
  relative = "",
): Promise<void> {
  await mkdir(to, { recursive: true, mode: (await stat(from)).mode & 0o777 });
  const entries = (await readdir(from, { withFileTypes: true })).filter((entry) =>
    keep(relative ? path.join(relative, entry.name) : entry.name),
  );
  for (const entry of entries.filter((e) => e.isDirectory())) {
    await copy(
      path.join(from, entry.name),
      path.join(to, entry.name),
      keep,
      undefined,
      path.join(relative, entry.name),
    );
    await midway?.();
    midway = undefined;
  }
  const files = entries.filter((e) => e.isFile());
  for (let i = 0; i < files.length; i += 16) {
    await Promise.all(
      files.slice(i, i + 16).map((e) => copyIfPresent(path.join(from, e.name), path.join(to, e.name))),
    );
  }
}

async function copyIfPresent(from: string, to: string): Promise<void> {
  try {
    await copyFile(from, to, constants.COPYFILE_FICLONE);
  } catch (error) {
    // A running server removes files (a dropped table, a recycled segment): the copy goes without.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
