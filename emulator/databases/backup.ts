/**
 * Copies of a running server's data, with PostgreSQL's own backup protocol (pg_backup_start /
 * pg_backup_stop) instead of pg_basebackup, which the binaries package does not ship: the data
 * directory is copied between the two calls, then the WAL written meanwhile, so the copy recovers
 * to the moment the backup stopped. Forks, standbys and the base backups of point-in-time forks
 * are all such copies.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SqlClient } from "./engine";
import { copyLiveDataDir, copyTree, copyWal, type Midway } from "./files";

/** A base backup of `dataDir` into `toDataDir`, through `admin`, a superuser session of its server. */
export async function liveBackup(
  admin: SqlClient,
  dataDir: string,
  toDataDir: string,
  midway?: Midway,
): Promise<void> {
  await admin.query("SELECT pg_backup_start('mdb-emulator', true)");
  let stopped = false;
  try {
    await copyLiveDataDir(dataDir, toDataDir, midway);
    const { rows } = await admin.query("SELECT labelfile, spcmapfile FROM pg_backup_stop(false)");
    stopped = true;
    writeFileSync(path.join(toDataDir, "backup_label"), String(rows[0].labelfile));
    if (rows[0].spcmapfile) writeFileSync(path.join(toDataDir, "tablespace_map"), String(rows[0].spcmapfile));
    await copyWal(dataDir, toDataDir);
  } finally {
    if (!stopped) await admin.query("SELECT pg_backup_stop(false)").catch(() => undefined);
  }
}

/**
 * Makes sure the source's WAL up to now is in its archive: a commit stamped now (the end mark a
 * recovery to a time needs), then a segment switch, then a wait for the archiver.
 */
export async function archiveUpToNow(admin: SqlClient, archiveDir: string): Promise<void> {
  await admin.query("SELECT pg_current_xact_id()");
  const { rows } = await admin.query("SELECT pg_walfile_name(pg_switch_wal()) AS segment");
  const segment = path.join(archiveDir, String(rows[0].segment));
  for (let waited = 0; !existsSync(segment); waited += 50) {
    if (waited > 30_000) throw new Error(`WAL segment ${rows[0].segment} was not archived within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Prepares `toDataDir` for a point-in-time recovery: a copy of the base backup `baseDir` that
 * replays the source's archived WAL up to `targetMs`, then is promoted. A target before the base
 * backup (the first moments of the service, when it held nothing yet) recovers to the base itself.
 */
export async function preparePointInTime(
  baseDir: string,
  archiveDir: string,
  toDataDir: string,
  targetMs: number,
  takenMs: number,
  midway?: Midway,
): Promise<void> {
  await copyTree(baseDir, toDataDir, midway);
  if (targetMs < takenMs) return;
  writeFileSync(path.join(toDataDir, "recovery.signal"), "");
  writeFileSync(
    path.join(toDataDir, "mdb-recovery.conf"),
    [
      `restore_command = 'cp "${archiveDir}/%f" "%p"'`,
      `recovery_target_time = '${new Date(targetMs).toISOString().replace("T", " ").replace("Z", "+00")}'`,
      "recovery_target_action = 'promote'",
      "",
    ].join("\n"),
  );
}

/** The base backup point-in-time forks start from: the template for a created service. */
export interface Base {
  /** When it was taken, epoch ms. */
  takenMs: number;
  /** Its data folder. */
  dir: string;
}

/** Records `base` as the base backup of the server in folder `dbDir` (atomically: a crash keeps the old one). */
export function writeBase(dbDir: string, base: Base): void {
  const file = path.join(dbDir, "base.json");
  writeFileSync(`${file}.next`, JSON.stringify(base));
  renameSync(`${file}.next`, file);
}

/** The base backup of the server in folder `dbDir`, if it has one yet. */
export function readBase(dbDir: string): Base | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dbDir, "base.json"), "utf8")) as Base;
  } catch {
    return undefined;
  }
}
