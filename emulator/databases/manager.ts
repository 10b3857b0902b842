/**
 * The real PostgreSQL servers behind the emulated services (`mdb-emulator --databases`): the
 * implementation of {@link DatabaseHooks}. One server per service and per read replica set, each
 * in `<root>/<id>/` (`data/`, `wal-archive/`, `base/` the base backup of point-in-time forks,
 * `server.log`). Work on a record's server runs in that record's queue, one task after another;
 * while a task runs, the record's next lifecycle step waits (`holds`), and a failed task is
 * reported through `failure`.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EndpointData, ReplicaSetData, ServiceData } from "../store";
import { archiveUpToNow, liveBackup, preparePointInTime } from "./backup";
import { runProgram, type Engine, type SqlClient } from "./engine";
import { chownTree, copyTree, removeTreeAsync } from "./files";
import type { DatabaseHooks, ForkSource } from "./hooks";
import { Pooler } from "./pooler";
import { PortPool } from "./ports";
import { ServerProcess } from "./server-process";
import { SERVICE_USER, SUPERUSER, type Template } from "./template";

/** Where the servers listen, as the endpoints say. */
export const DATABASE_HOST = "127.0.0.1";

/** One server: a service's or a replica set's. */
interface Db {
  id: string;
  dir: string;
  server: ServerProcess;
  standby: boolean;
  pooler?: Pooler;
  /** The service's replica sets (services only). */
  replicaIds: Set<string>;
  queue: Promise<void>;
  pending: number;
  failure?: string;
  /** Stopped on purpose (paused): restarts of a resize leave it stopped. */
  paused: boolean;
}

/** What the manager is made of. */
export interface ManagerParts {
  engine: Engine;
  template: Template;
  /** Directory holding one folder per server. */
  root: string;
  ports: PortPool;
  /** One line per server event worth telling (failures, restores). */
  log: (line: string) => void;
}

/** The servers of one emulator. */
export class DatabaseManager implements DatabaseHooks {
  private readonly dbs = new Map<string, Db>();
  private readonly quick = new Set<Promise<unknown>>();
  /** Files of deleted servers being removed (close waits for them). */
  private readonly removals = new Set<Promise<void>>();

  constructor(private readonly parts: ManagerParts) {}

  // --- DatabaseHooks -----------------------------------------------------------------------

  serviceCreated(service: ServiceData, password: string, fork?: ForkSource): void {
    const port = this.parts.ports.take();
    service.endpoint = { host: DATABASE_HOST, port };
    const db = this.add(service.service_id, port, false);
    const source = fork && this.dbs.get(fork.source.service_id);
    if (fork && !source) {
      db.failure = `fork: service ${fork.source.service_id} has no database to copy`;
      return;
    }
    const dataDir = this.dataDir(db);
    // A fork's copy runs in its source's queue, and the fork's answer waits for it (see `settled`),
    // so writes made after the answer never reach the fork.
    const copied: Promise<boolean> =
      !fork || !source
        ? copyTree(this.parts.template.dataDir, dataDir).then(() => false)
        : this.exclusive(source, () =>
            fork.strategy === "PITR"
              ? this.prepareRecovery(source, dataDir, fork.targetMs!)
              : // LAST_SNAPSHOT: the emulator's snapshot is taken at the fork request (docs/emulator.md).
                this.withAdmin(source, (admin) => liveBackup(admin, this.dataDir(source), dataDir)).then(
                  () => false,
                ),
          );
    if (fork) this.track(copied.catch(() => undefined));
    this.enqueue(db, fork ? "fork" : "create", async () => {
      const recovering = await copied;
      this.prepareDir(db);
      await db.server.start(false);
      if (recovering) writeFileSync(path.join(dataDir, "mdb-recovery.conf"), "");
      await this.withAdmin(db, (admin) => setPassword(admin, password));
      if (!fork) return writeBase(db, { takenMs: Date.now(), dir: this.parts.template.dataDir });
      // A fork's own base backup, for point-in-time forks of the fork; READY does not wait for it.
      void this.exclusive(db, () => this.takeBaseBackup(db)).catch((error: unknown) =>
        this.parts.log(`database ${db.id}: base backup: ${String(error)}`),
      );
    });
  }

  serviceStopped(service: ServiceData): void {
    const db = this.dbs.get(service.service_id);
    if (!db) return;
    db.paused = true;
    this.enqueue(db, "stop", async () => {
      await db.pooler?.close();
      await db.server.stop();
    });
  }

  serviceStarted(service: ServiceData): void {
    const db = this.dbs.get(service.service_id);
    if (!db) return;
    db.paused = false;
    this.enqueue(db, "start", async () => {
      await db.server.start(false);
      await db.pooler?.listen();
    });
  }

  serviceRestarted(service: ServiceData): void {
    const db = this.dbs.get(service.service_id);
    if (db) this.restart(db);
  }

  serviceDeleted(service: ServiceData): void {
    const db = this.dbs.get(service.service_id);
    if (!db) return;
    // The service is gone only once its standbys are too.
    const standbys = [...db.replicaIds].map((id) => this.remove(this.dbs.get(id)));
    this.remove(db, standbys);
  }

  passwordChanged(service: ServiceData, password: string): void {
    const db = this.dbs.get(service.service_id);
    if (!db) return;
    this.track(
      this.enqueue(db, "updatePassword", async () => {
        if (db.server.running) return this.withAdmin(db, (admin) => setPassword(admin, password));
        // A stopped server takes the change in single-user mode, without starting up.
        await runProgram(
          this.parts.engine,
          "postgres",
          ["--single", "-D", this.dataDir(db), SUPERUSER],
          `${alterPassword(password)}\n`,
        );
      }),
    );
  }

  servicePooler(service: ServiceData, enabled: boolean): EndpointData | null {
    const db = this.dbs.get(service.service_id);
    return db ? this.pooler(db, enabled && !service.paused, enabled) : null;
  }

  replicaSetCreated(service: ServiceData, replicaSet: ReplicaSetData): void {
    const primary = this.dbs.get(service.service_id);
    const port = this.parts.ports.take();
    replicaSet.endpoint = { host: DATABASE_HOST, port };
    const db = this.add(replicaSet.id, port, true);
    if (!primary) {
      db.failure = `service ${service.service_id} has no database to replicate`;
      return;
    }
    primary.replicaIds.add(replicaSet.id);
    this.enqueue(db, "createReplicaSet", async () => {
      const dataDir = this.dataDir(db);
      await this.exclusive(primary, () =>
        this.withAdmin(primary, (admin) => liveBackup(admin, this.dataDir(primary), dataDir)),
      );
      writeFileSync(path.join(dataDir, "standby.signal"), "");
      writeFileSync(
        path.join(dataDir, "mdb-recovery.conf"),
        `primary_conninfo = 'host=${DATABASE_HOST} port=${primary.server.port} user=${SUPERUSER} password=${this.parts.template.superuserPassword} application_name=${replicaSet.id}'\n`,
      );
      this.prepareDir(db);
      await db.server.start(true);
    });
  }

  replicaSetRestarted(replicaSet: ReplicaSetData): void {
    const db = this.dbs.get(replicaSet.id);
    if (db) this.restart(db);
  }

  replicaSetDeleted(replicaSet: ReplicaSetData): void {
    for (const db of this.dbs.values()) db.replicaIds.delete(replicaSet.id);
    this.remove(this.dbs.get(replicaSet.id));
  }

  replicaSetPooler(replicaSet: ReplicaSetData, enabled: boolean): EndpointData | null {
    const db = this.dbs.get(replicaSet.id);
    return db ? this.pooler(db, enabled, enabled) : null;
  }

  holds(recordId: string): boolean {
    return (this.dbs.get(recordId)?.pending ?? 0) > 0;
  }

  failure(recordId: string): string | undefined {
    return this.dbs.get(recordId)?.failure;
  }

  restore(services: readonly ServiceData[]): void {
    for (const service of services) {
      if (!service.endpoint || service.endpoint.host !== DATABASE_HOST) continue;
      const db = this.add(service.service_id, service.endpoint.port, false);
      if (service.status === "DELETING") {
        this.remove(db);
        continue;
      }
      db.paused = service.paused || service.status === "PAUSING";
      if (service.connection_pooler)
        db.pooler = new Pooler(service.connection_pooler.endpoint.port, db.server.port);
      if (!db.paused)
        this.enqueue(db, "restore", async () => {
          await db.server.start(false);
          await db.pooler?.listen();
        });
      for (const replicaSet of service.read_replica_sets) {
        if (!replicaSet.endpoint || replicaSet.endpoint.host !== DATABASE_HOST) continue;
        const replica = this.add(replicaSet.id, replicaSet.endpoint.port, true);
        db.replicaIds.add(replicaSet.id);
        if (replicaSet.status === "deleting") {
          this.remove(replica);
          continue;
        }
        if (replicaSet.connection_pooler) {
          replica.pooler = new Pooler(replicaSet.connection_pooler.endpoint.port, replica.server.port);
        }
        this.enqueue(replica, "restore", async () => {
          await replica.server.start(true);
          await replica.pooler?.listen();
        });
      }
    }
  }

  dropAll(): void {
    for (const db of [...this.dbs.values()]) this.remove(db);
  }

  // --- for the emulator --------------------------------------------------------------------

  /** Resolves once the changes an answer promises at once (password, pooler) are in effect. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.quick]);
  }

  /** Stops every server and pooler (the files stay); resolves once every postmaster is gone. */
  async close(): Promise<void> {
    // Standbys first: a primary's fast shutdown waits for its standbys to receive its last WAL.
    for (const standby of [true, false]) {
      await Promise.allSettled(
        [...this.dbs.values()]
          .filter((db) => db.standby === standby)
          .map(async (db) => {
            await db.pooler?.close();
            await db.server.stop();
          }),
      );
    }
    this.parts.ports.close();
    await Promise.allSettled([...this.removals]);
  }

  /** The data directory of a record's server (for tests and the demo). */
  dataDirOf(recordId: string): string | undefined {
    const db = this.dbs.get(recordId);
    return db && this.dataDir(db);
  }

  // --- inside -------------------------------------------------------------------------------

  private add(id: string, port: number, standby: boolean): Db {
    const dir = path.join(this.parts.root, id);
    const db: Db = {
      id,
      dir,
      server: new ServerProcess(
        this.parts.engine,
        path.join(dir, "data"),
        port,
        path.join(dir, "server.log"),
      ),
      standby,
      replicaIds: new Set(),
      queue: Promise.resolve(),
      pending: 0,
      paused: false,
    };
    this.dbs.set(id, db);
    mkdirSync(dir, { recursive: true });
    return db;
  }

  private dataDir(db: Db): string {
    return db.server.dataDir;
  }

  /** The data directory ready for the server's user: its archive beside it, all owned by that user. */
  private prepareDir(db: Db): void {
    mkdirSync(path.join(db.dir, "wal-archive"), { recursive: true });
    chownTree(db.dir, this.parts.engine.runAs);
  }

  /** Runs `task` after the record's earlier work; a failure is the record's (logged, reported). */
  private enqueue(db: Db, what: string, task: () => Promise<void>): Promise<void> {
    db.pending++;
    const run = db.queue
      .then(task)
      .catch((error: unknown) => {
        db.failure = `${what}: ${error instanceof Error ? error.message : String(error)}`;
        this.parts.log(`database ${db.id}: ${db.failure}`);
      })
      .finally(() => db.pending--);
    db.queue = run;
    return run;
  }

  /**
   * Runs `task` in another record's queue (a copy of its data), so that it is neither stopped nor
   * deleted meanwhile; a failure is the caller's, not that record's.
   */
  private exclusive<T>(db: Db, task: () => Promise<T>): Promise<T> {
    const run = db.queue.then(task);
    db.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private track(work: Promise<unknown>): void {
    this.quick.add(work);
    void work.finally(() => this.quick.delete(work));
  }

  private restart(db: Db): void {
    this.enqueue(db, "restart", async () => {
      if (db.paused) return;
      await db.server.stop();
      await db.server.start(db.standby);
    });
  }

  private remove(db: Db | undefined, after: Promise<void>[] = []): Promise<void> {
    if (!db) return Promise.resolve();
    return this.enqueue(db, "delete", async () => {
      await Promise.all(after);
      await db.pooler?.close();
      await db.server.stop();
      // Renamed away at once, removed behind: a slow disk never holds the delete nor the API.
      const trash = path.join(this.parts.root, `.deleted-${db.id}-${Date.now()}`);
      renameSync(db.dir, trash);
      const removal = removeTreeAsync(trash).finally(() => this.removals.delete(removal));
      this.removals.add(removal);
      this.dbs.delete(db.id);
    });
  }

  private pooler(db: Db, listen: boolean, enabled: boolean): EndpointData | null {
    if (!enabled) {
      const pooler = db.pooler;
      db.pooler = undefined;
      if (pooler) this.track(pooler.close());
      return null;
    }
    db.pooler ??= new Pooler(this.parts.ports.take(), db.server.port);
    if (listen && db.server.running) this.track(db.pooler.listen());
    else if (listen) this.track(db.queue.then(() => db.pooler?.listen()));
    return { host: DATABASE_HOST, port: db.pooler.port };
  }

  /** A superuser session on the record's server for the length of `use`. */
  private async withAdmin<T>(db: Db, use: (admin: SqlClient) => Promise<T>): Promise<T> {
    const admin = this.parts.engine.client({
      host: DATABASE_HOST,
      port: db.server.port,
      user: SUPERUSER,
      password: this.parts.template.superuserPassword,
      database: "postgres",
    });
    await admin.connect();
    try {
      return await use(admin);
    } finally {
      await admin.end().catch(() => undefined);
    }
  }

  /** The base backup point-in-time forks of this service start from, with the time it was taken. */
  private async takeBaseBackup(db: Db): Promise<void> {
    const next = path.join(db.dir, "base-next");
    await removeTreeAsync(next);
    await this.withAdmin(db, (admin) => liveBackup(admin, this.dataDir(db), next));
    await removeTreeAsync(path.join(db.dir, "base"));
    renameSync(next, path.join(db.dir, "base"));
    writeBase(db, { takenMs: Date.now(), dir: path.join(db.dir, "base") });
  }

  /** A point-in-time copy of `source` at `targetMs` in `dataDir`; true when it must replay WAL. */
  private async prepareRecovery(source: Db, dataDir: string, targetMs: number): Promise<boolean> {
    const base = readBase(source);
    if (!base) throw new Error(`service ${source.id} has no base backup to recover from yet`);
    const { takenMs, dir: baseDir } = base;
    const archiveDir = path.join(source.dir, "wal-archive");
    if (targetMs >= takenMs) await this.withAdmin(source, (admin) => archiveUpToNow(admin, archiveDir));
    await preparePointInTime(baseDir, archiveDir, dataDir, targetMs, takenMs);
    return targetMs >= takenMs;
  }
}

/** The base backup point-in-time forks start from: the template for a created service. */
interface Base {
  takenMs: number;
  dir: string;
}

function writeBase(db: Db, base: Base): void {
  writeFileSync(path.join(db.dir, "base.json"), JSON.stringify(base));
}

function readBase(db: Db): Base | undefined {
  try {
    return JSON.parse(readFileSync(path.join(db.dir, "base.json"), "utf8")) as Base;
  } catch {
    return undefined;
  }
}

function alterPassword(password: string): string {
  return `ALTER ROLE ${SERVICE_USER} PASSWORD '${password.replace(/'/g, "''")}'`;
}

async function setPassword(admin: SqlClient, password: string): Promise<void> {
  await admin.query(alterPassword(password));
}
