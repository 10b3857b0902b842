/**
 * The real PostgreSQL servers behind the emulated services (`mdb-emulator --databases`): the
 * implementation of {@link DatabaseHooks}. One server per service and per read replica set, each
 * in `<root>/<id>/` (`data/`, `wal-archive/`, base backups, `server.log`); work.ts queues the work
 * on each, provision.ts makes the data folders, restore.ts brings them back at start.
 *
 * What each server must end up as is kept in its record (`server`: the password's SCRAM verifier,
 * where its data come from), never in this process alone: every start of a server gives its user
 * the recorded password unless its data folder says it took that one already (so a password set
 * inside the database stays, as on the vendor's service), and a folder is made whole or not at all,
 * so a `kill -9` at any step leaves nothing a restart cannot finish (docs/emulator.md#after-a-crash).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EndpointData, ReplicaSetData, ServiceData, ServerOrigin } from "../store";
import { readBase } from "./backup";
import { PASSWORD_TAKEN_FILE, chownTree, isMade, removeTreeAsync } from "./files";
import type { DatabaseHooks, ForkSource } from "./hooks";
import { Pooler } from "./pooler";
import { checkPortFree } from "./processes";
import type { PortPool } from "./ports";
import { Provisioner } from "./provision";
import { restoreServers } from "./restore";
import { isScramVerifier, scramVerifier } from "./scram";
import { releaseDataDir } from "./server-process";
import { SERVICE_USER, type Template } from "./template";
import { reached } from "./test-hooks";
import { addVendorWords } from "./vendor-words";
import writeFileAtomic from "write-file-atomic";
import { DATABASE_HOST, Servers, type Db } from "./work";
import type { Engine } from "./engine";

export { DATABASE_HOST } from "./work";

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
  /** The records and their queues (for restore.ts). */
  readonly servers: Servers;
  /** Makes data folders (for restore.ts). */
  readonly provisioner: Provisioner;
  /** Files of deleted servers being removed (close waits for them). */
  private readonly removals = new Set<Promise<void>>();

  constructor(readonly parts: ManagerParts) {
    this.servers = new Servers(parts.engine, parts.root, parts.template.superuserPassword, parts.log);
    this.provisioner = new Provisioner(this.servers, parts.template);
  }

  // --- DatabaseHooks -----------------------------------------------------------------------

  serviceCreated(service: ServiceData, password: string, fork?: ForkSource): void {
    const origin: ServerOrigin = fork
      ? {
          from: "fork",
          service_id: fork.source.service_id,
          strategy: fork.strategy,
          target_ms: fork.targetMs,
        }
      : { from: "template" };
    service.server = { password_verifier: scramVerifier(password), origin };
    const port = this.parts.ports.take();
    service.endpoint = { host: DATABASE_HOST, port };
    const db = this.serviceDb(service, port);
    const what = fork ? "fork" : "create";
    // A fork's copy is queued in its source's queue now, and the fork's answer waits for it (see
    // `settled`): writes made after the answer never reach the fork.
    const made = this.provisioner.make(db, what);
    if (fork) this.servers.track(made);
    this.servers.enqueue(db, what, async () => {
      await made;
      await this.bringUp(db, what);
    });
  }

  serviceStopped(service: ServiceData): void {
    const db = this.servers.dbs.get(service.service_id);
    if (!db) return;
    db.paused = true;
    this.servers.enqueue(db, "stop", async () => {
      await db.pooler?.close();
      await db.server.stop();
      await reached("stop:stopped", db.id, this.parts.log);
    });
  }

  serviceStarted(service: ServiceData): void {
    const db = this.servers.dbs.get(service.service_id);
    if (!db) return;
    db.paused = false;
    this.servers.enqueue(db, "start", () => this.bringUp(db, "start"));
  }

  serviceRestarted(service: ServiceData): void {
    const db = this.servers.dbs.get(service.service_id);
    if (db) this.restart(db);
  }

  serviceDeleted(service: ServiceData): void {
    const db = this.servers.dbs.get(service.service_id);
    if (!db) return;
    // The service is gone only once its standbys are too.
    const standbys = [...db.replicaIds].map((id) => this.remove(this.servers.dbs.get(id)));
    this.remove(db, standbys);
  }

  passwordChanged(service: ServiceData, password: string): void {
    const verifier = scramVerifier(password);
    service.server = { origin: originOf(service), ...service.server, password_verifier: verifier };
    const db = this.servers.dbs.get(service.service_id);
    if (!db) return;
    db.verifier = verifier;
    // A stopped server takes it at its next start: its folder says it took an older one.
    this.servers.track(
      this.servers.enqueue(db, "updatePassword", async () => {
        if (db.server.running) await this.setPassword(db);
      }),
    );
  }

  servicePooler(service: ServiceData, enabled: boolean): EndpointData | null {
    const db = this.servers.dbs.get(service.service_id);
    return db ? this.pooler(db, enabled && !service.paused, enabled) : null;
  }

  replicaSetCreated(service: ServiceData, replicaSet: ReplicaSetData): void {
    const primary = this.servers.dbs.get(service.service_id);
    const port = this.parts.ports.take();
    replicaSet.endpoint = { host: DATABASE_HOST, port };
    const db = this.replicaDb(service, replicaSet, port);
    if (!primary) {
      db.failure = `service ${service.service_id} has no database to replicate`;
      return;
    }
    const made = this.provisioner.make(db, "createReplicaSet");
    this.servers.enqueue(db, "createReplicaSet", async () => {
      await made;
      await this.bringUp(db, "createReplicaSet");
    });
  }

  replicaSetRestarted(replicaSet: ReplicaSetData): void {
    const db = this.servers.dbs.get(replicaSet.id);
    if (db) this.restart(db);
  }

  replicaSetDeleted(replicaSet: ReplicaSetData): void {
    for (const db of this.servers.dbs.values()) db.replicaIds.delete(replicaSet.id);
    this.remove(this.servers.dbs.get(replicaSet.id));
  }

  replicaSetPooler(replicaSet: ReplicaSetData, enabled: boolean): EndpointData | null {
    const db = this.servers.dbs.get(replicaSet.id);
    return db ? this.pooler(db, enabled, enabled) : null;
  }

  holds(recordId: string): boolean {
    return (this.servers.dbs.get(recordId)?.pending ?? 0) > 0;
  }

  failure(recordId: string): string | undefined {
    return this.servers.dbs.get(recordId)?.failure;
  }

  restore(services: readonly ServiceData[]): void {
    restoreServers(this, services);
  }

  dropAll(): void {
    for (const db of [...this.servers.dbs.values()]) this.remove(db);
  }

  // --- for the emulator and restore.ts ------------------------------------------------------

  /** Resolves once the changes an answer promises at once (password, pooler, a fork's copy) are in effect. */
  settled(): Promise<void> {
    return this.servers.settled();
  }

  /** Stops every server and pooler (the files stay); resolves once every postmaster is gone. */
  async close(): Promise<void> {
    await this.servers.drain();
    // Standbys first: a primary's fast shutdown waits for its standbys to receive its last WAL.
    for (const standby of [true, false]) {
      await Promise.allSettled(
        [...this.servers.dbs.values()]
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
    return this.servers.dbs.get(recordId)?.server.dataDir;
  }

  /** The record of a service's server on `port`, with its recorded password and origin. */
  serviceDb(service: ServiceData, port: number): Db {
    const db = this.servers.add(service.service_id, port, false);
    db.origin = service.server?.origin ?? originOf(service);
    db.verifier = service.server?.password_verifier;
    return db;
  }

  /** The record of a replica set's standby on `port`. */
  replicaDb(service: ServiceData, replicaSet: ReplicaSetData, port: number): Db {
    const db = this.servers.add(replicaSet.id, port, true);
    db.primaryId = service.service_id;
    this.servers.dbs.get(service.service_id)?.replicaIds.add(replicaSet.id);
    return db;
  }

  /**
   * Starts the record's server on its made folder and makes it what its record says: the recorded
   * password (services), its pooler listening, a fork's own base backup. `what` names the work for
   * the test hooks (`<what>:copied`, `<what>:started`).
   */
  async bringUp(db: Db, what: string): Promise<void> {
    await reached(`${what}:copied`, db.id, this.parts.log);
    mkdirArchive(db);
    chownTree(db.dir, this.parts.engine.runAs);
    await db.server.start(db.standby);
    await reached(`${what}:started`, db.id, this.parts.log);
    if (!db.standby) {
      // A point-in-time fork is promoted by now: its recovery settings are spent.
      writeFileSync(path.join(db.server.dataDir, "mdb-recovery.conf"), "");
      // A create's copy of the template has them; a server of an earlier release may not.
      if (what !== "create") await this.withVendorWords(db);
      await this.setPassword(db);
    }
    if (db.pooler) await this.listenPooler(db, db.pooler);
    if (!db.standby && !readBase(db.dir)) {
      // A fork's own base backup, for point-in-time forks of it; READY does not wait for it.
      void this.servers
        .exclusive(db, () => (db.server.running ? this.provisioner.takeBaseBackup(db) : Promise.resolve()))
        .catch((error: unknown) => this.parts.log(`database ${db.id}: base backup: ${String(error)}`));
    }
  }

  /** The record's server stopped, its folder renamed away at once and removed behind; gone from the records. */
  remove(db: Db | undefined, after: Promise<void>[] = []): Promise<void> {
    if (!db) return Promise.resolve();
    return this.servers.enqueue(db, "delete", async () => {
      await Promise.all(after);
      await db.pooler?.close();
      await db.server.stop();
      await releaseDataDir(db.server.dataDir); // one an emulator killed outright left running
      await reached("delete:stopped", db.id, this.parts.log);
      // Renamed away at once, removed behind: a slow disk never holds the delete nor the API.
      const trash = path.join(this.parts.root, `.deleted-${db.id}-${Date.now()}`);
      if (isMade(db.dir)) renameSync(db.dir, trash);
      await reached("delete:renamed", db.id, this.parts.log);
      this.removeBehind(trash);
      this.servers.dbs.delete(db.id);
    });
  }

  /** Removes a folder in the background; close waits for it. */
  removeBehind(dir: string): void {
    const removal = removeTreeAsync(dir).finally(() => this.removals.delete(removal));
    this.removals.add(removal);
  }

  // --- inside -------------------------------------------------------------------------------

  private restart(db: Db): void {
    this.servers.enqueue(db, "restart", async () => {
      if (db.paused) return;
      await db.server.stop();
      await reached("restart:stopped", db.id, this.parts.log);
      await this.bringUp(db, "restart");
    });
  }

  /** The vendor's database words in a server made before them (a standby follows its primary's). */
  private async withVendorWords(db: Db): Promise<void> {
    const added = await addVendorWords(
      (database, use) => this.servers.withAdmin(db, use, database),
      SERVICE_USER,
    );
    if (added.length > 0)
      this.parts.log(
        `database ${db.id}: made before the vendor's database words; added to ${added.join(", ")}`,
      );
  }

  /**
   * Gives the service's user its recorded password (a pre-hashed SCRAM verifier), unless its data
   * folder took that one already: a password the user set inside the database since (`ALTER ROLE`,
   * psql's `\password`) then stays through restarts, resizes and a crash of the emulator, and only
   * a new one from the API (updatePassword) replaces it. The folder notes what it took after the
   * change, so a crash in between sets the same password again at the next start.
   */
  private async setPassword(db: Db): Promise<void> {
    const verifier = db.verifier;
    if (verifier === undefined) return; // a record of an earlier release: its password stays as it is
    if (!isScramVerifier(verifier)) throw new Error(`the recorded password verifier of ${db.id} is damaged`);
    const taken = path.join(db.server.dataDir, PASSWORD_TAKEN_FILE);
    if (readIfThere(taken) === verifier) return;
    await this.servers.withAdmin(db, (admin) =>
      admin.query(`ALTER ROLE ${SERVICE_USER} PASSWORD '${verifier}'`),
    );
    writeFileAtomic.sync(taken, verifier, { mode: 0o600, chown: this.parts.engine.runAs });
  }

  private pooler(db: Db, listen: boolean, enabled: boolean): EndpointData | null {
    if (!enabled) {
      const pooler = db.pooler;
      db.pooler = undefined;
      if (pooler) this.servers.track(pooler.close());
      return null;
    }
    const pooler = (db.pooler ??= new Pooler(this.parts.ports.take(), db.server.port));
    const listening = (): Promise<void> =>
      this.listenPooler(db, pooler).catch((error: unknown) => this.servers.fail(db, "enablePooler", error));
    if (listen && db.server.running) this.servers.track(listening());
    else if (listen) this.servers.track(db.queue.then(() => (db.server.running ? listening() : undefined)));
    return { host: DATABASE_HOST, port: pooler.port };
  }

  /** The pooler listening, or a message naming its port when another process holds it. */
  private async listenPooler(db: Db, pooler: Pooler): Promise<void> {
    if (pooler.listening || db.pooler !== pooler) return;
    await checkPortFree(
      pooler.port,
      DATABASE_HOST,
      `the pooler endpoint of ${db.standby ? "replica set" : "service"} ${db.id}`,
    );
    await pooler.listen();
  }
}

/** Where a service's data come from, for a record of an earlier release that does not say. */
function originOf(service: ServiceData): ServerOrigin {
  return service.forked_from
    ? { from: "fork", service_id: service.forked_from.service_id, strategy: "NOW" }
    : { from: "template" };
}

/** The WAL archive beside the data folder (`archive_command` copies to `../wal-archive`). */
function mkdirArchive(db: Db): void {
  mkdirSync(path.join(db.dir, "wal-archive"), { recursive: true });
}

/** The text of `file`, or undefined when there is none. */
function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
