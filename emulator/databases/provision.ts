/**
 * Making a server's data folder, whole or not at all (files.ts `makeAtomically`): a copy of the
 * template (a create), of the source's data (a fork NOW or LAST_SNAPSHOT, a replica set's standby)
 * or of the source's base backup with its WAL to replay (a fork PITR). The same code makes a folder
 * the first time and again after a crash left it half-made, from what the record keeps (its
 * origin), so a restart redoes it from its source instead of starting a broken server.
 */
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ServerOrigin } from "../store";
import { archiveUpToNow, liveBackup, preparePointInTime, readBase, writeBase } from "./backup";
import { copyTree, isMade, makeAtomically, removeTreeAsync } from "./files";
import type { Template } from "./template";
import { SUPERUSER } from "./template";
import { midCopy } from "./test-hooks";
import { DATABASE_HOST, type Db, type Servers } from "./work";

/** Makes data folders from their origins. */
export class Provisioner {
  constructor(
    private readonly servers: Servers,
    private readonly template: Template,
  ) {}

  /**
   * Makes the folder of `db` unless it is made: from its origin (a service) or its primary (a
   * replica set). Any work in a source's queue is queued at once, before this returns: a fork's
   * copy comes before whatever the source is asked next. `what` names the work for test hooks.
   */
  make(db: Db, what: string): Promise<void> {
    const making = this.making(db, what);
    // Awaited later, in the record's own queue: a failure must not count as unhandled meanwhile.
    making.catch(() => undefined);
    return making;
  }

  private making(db: Db, what: string): Promise<void> {
    if (isMade(db.server.dataDir)) return Promise.resolve();
    const midway = () => midCopy(`${what}:copying`, db.id, this.servers.log);
    if (db.standby) return this.makeStandby(db, midway);
    const origin: ServerOrigin = db.origin ?? { from: "template" };
    if (origin.from === "template") {
      return makeAtomically(db.server.dataDir, async (partial) => {
        await copyTree(this.template.dataDir, partial, midway);
        // Forks as of a time before its first base backup recover from the template.
        writeBase(db.dir, { takenMs: Date.now(), dir: this.template.dataDir });
      });
    }
    const source = this.servers.dbs.get(origin.service_id);
    if (!source) {
      return Promise.reject(
        new Error(
          `service ${origin.service_id}, its source, has no data to copy (it is gone, or was made without --databases)`,
        ),
      );
    }
    return this.servers.exclusive(source, () =>
      this.whileRunning(source, () =>
        makeAtomically(db.server.dataDir, async (partial) => {
          if (origin.strategy === "PITR") {
            await this.pointInTime(source, partial, origin.target_ms ?? Date.now(), midway);
          } else {
            // LAST_SNAPSHOT: the emulator's snapshot is taken at the fork request (docs/emulator.md).
            await this.servers.withAdmin(source, (admin) =>
              liveBackup(admin, source.server.dataDir, partial, midway),
            );
          }
        }),
      ),
    );
  }

  /** A new base backup of `db` for point-in-time forks of it; the one it had stays until this is whole. */
  async takeBaseBackup(db: Db): Promise<void> {
    const takenMs = Date.now();
    const next = path.join(db.dir, `base-${takenMs}`);
    await makeAtomically(next, (partial) =>
      this.servers.withAdmin(db, (admin) => liveBackup(admin, db.server.dataDir, partial)),
    );
    writeBase(db.dir, { takenMs, dir: next });
    for (const name of readdirSync(db.dir)) {
      if (/^base(-\d+(\.partial)?)?$/.test(name) && path.join(db.dir, name) !== next) {
        await removeTreeAsync(path.join(db.dir, name));
      }
    }
  }

  /** A streaming standby of the replica set's service. */
  private makeStandby(db: Db, midway: () => Promise<void>): Promise<void> {
    const primary = db.primaryId === undefined ? undefined : this.servers.dbs.get(db.primaryId);
    if (!primary) return Promise.reject(new Error(`service ${db.primaryId} has no database to replicate`));
    return this.servers.exclusive(primary, () =>
      this.whileRunning(primary, () =>
        makeAtomically(db.server.dataDir, async (partial) => {
          await this.servers.withAdmin(primary, (admin) =>
            liveBackup(admin, primary.server.dataDir, partial, midway),
          );
          writeFileSync(path.join(partial, "standby.signal"), "");
          writeFileSync(
            path.join(partial, "mdb-recovery.conf"),
            `primary_conninfo = 'host=${DATABASE_HOST} port=${primary.server.port} user=${SUPERUSER} password=${this.template.superuserPassword} application_name=${db.id}'\n`,
          );
        }),
      ),
    );
  }

  /**
   * Runs `use` while the source's server runs: as it is, or started for the while (a source paused,
   * or being deleted, when a restart remakes a fork or a standby of it).
   */
  private async whileRunning<T>(source: Db, use: () => Promise<T>): Promise<T> {
    if (source.server.running) return use();
    if (!isMade(source.server.dataDir)) throw new Error(`service ${source.id} has no data to copy`);
    await source.server.start(source.standby);
    try {
      return await use();
    } finally {
      await source.server.stop();
    }
  }

  /** A point-in-time copy of `source` at `targetMs` in `dataDir`, replaying WAL when it must. */
  private async pointInTime(
    source: Db,
    dataDir: string,
    targetMs: number,
    midway: () => Promise<void>,
  ): Promise<void> {
    const base = readBase(source.dir);
    if (!base) throw new Error(`service ${source.id} has no base backup to recover from yet`);
    const archiveDir = path.join(source.dir, "wal-archive");
    if (targetMs >= base.takenMs) {
      await this.servers.withAdmin(source, (admin) => archiveUpToNow(admin, archiveDir));
    }
    await preparePointInTime(base.dir, archiveDir, dataDir, targetMs, base.takenMs, midway);
  }
}
