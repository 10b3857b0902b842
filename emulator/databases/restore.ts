/**
 * The servers back when the emulator starts on a saved state, after a clean stop or a `kill -9` at
 * any step alike: each record's server is made what its record says (docs/emulator.md#after-a-crash).
 *
 * - A server an earlier emulator left running is stopped first (server-process.ts `releaseDataDir`);
 *   one another program holds is named, never touched.
 * - A data folder that was not made whole is made again from its origin: the template, the fork's
 *   source (its data now, or its base backup and WAL for PITR), the replica set's service.
 * - A server whose record ends running (READY, or on its way there) starts, with its recorded
 *   password and pooler; one whose record ends paused stays stopped.
 * - Records being deleted lose their servers and folders, after any fork or standby that still
 *   needs their data has taken its copy. Leftovers of deleted or half-made folders go.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { ReplicaSetData, ServiceData } from "../store";
import { isMade } from "./files";
import { LOCK_FILE } from "./lock";
import { Pooler } from "./pooler";
import type { PortPool } from "./ports";
import type { Provisioner } from "./provision";
import { releaseDataDir } from "./server-process";
import { DATABASE_HOST, type Db, type Servers } from "./work";

/** What the restore uses of the manager (manager.ts). */
export interface RestoreHost {
  readonly parts: { root: string; ports: PortPool; log: (line: string) => void };
  readonly servers: Servers;
  readonly provisioner: Provisioner;
  serviceDb(service: ServiceData, port: number): Db;
  replicaDb(service: ServiceData, replicaSet: ReplicaSetData, port: number): Db;
  bringUp(db: Db, what: string): Promise<void>;
  remove(db: Db | undefined, after?: Promise<void>[]): Promise<void>;
  removeBehind(dir: string): void;
}

/** Brings back the servers of `services` (see the file's comment). */
export function restoreServers(manager: RestoreHost, services: readonly ServiceData[]): void {
  const local = services.filter((s) => s.endpoint?.host === DATABASE_HOST);
  manager.parts.ports.reserve(recordedPorts(local));
  sweep(manager, local);

  const up: Db[] = [];
  const upStandbys: Db[] = [];
  const gone: { db: Db; standbys: Db[] }[] = [];
  for (const service of local) {
    const db = manager.serviceDb(service, service.endpoint!.port);
    db.paused = !runsInTheEnd(service);
    if (service.connection_pooler)
      db.pooler = new Pooler(service.connection_pooler.endpoint.port, db.server.port);
    const standbys: Db[] = [];
    for (const replicaSet of service.read_replica_sets) {
      if (replicaSet.endpoint?.host !== DATABASE_HOST) continue;
      const replica = manager.replicaDb(service, replicaSet, replicaSet.endpoint.port);
      if (replicaSet.connection_pooler) {
        replica.pooler = new Pooler(replicaSet.connection_pooler.endpoint.port, replica.server.port);
      }
      if (service.status === "DELETING") standbys.push(replica);
      else if (replicaSet.status === "deleting") gone.push({ db: replica, standbys: [] });
      else upStandbys.push(replica);
    }
    if (service.status === "DELETING") gone.push({ db, standbys });
    else up.push(db);
  }

  // Copies from sources are queued now, in their sources' queues (after their own start: sources
  // come first, standbys after services), and before any removal below.
  for (const db of [...up, ...upStandbys]) {
    const half = !isMade(db.server.dataDir);
    if (half) manager.parts.log(`database ${db.id}: its folder was not made whole; making it again`);
    const made = manager.provisioner.make(db, "restore");
    manager.servers.enqueue(db, "restore", async () => {
      if (!half) await releaseDataDir(db.server.dataDir);
      await made;
      if (!db.paused) await manager.bringUp(db, "restore");
    });
  }
  for (const { db, standbys } of gone) {
    manager.remove(
      db,
      standbys.map((standby) => manager.remove(standby)),
    );
  }
}

/**
 * Whether the service's server runs once its pending steps are taken: not when they end paused
 * (PAUSING, PAUSED), nor while its record says paused.
 */
function runsInTheEnd(service: ServiceData): boolean {
  let status = service.status;
  let paused = service.paused;
  for (const step of service.steps) {
    if (step.status) status = step.status;
    if (step.patch?.paused !== undefined) paused = step.patch.paused;
  }
  return !paused && status !== "PAUSED" && status !== "PAUSING";
}

/** Every port the records own: endpoints and poolers, services' and replica sets'. */
function recordedPorts(services: readonly ServiceData[]): number[] {
  return services.flatMap((service) => [
    service.endpoint!.port,
    ...(service.connection_pooler ? [service.connection_pooler.endpoint.port] : []),
    ...service.read_replica_sets.flatMap((r) => [
      ...(r.endpoint ? [r.endpoint.port] : []),
      ...(r.connection_pooler ? [r.connection_pooler.endpoint.port] : []),
    ]),
  ]);
}

/**
 * Removes what earlier runs left behind in the databases folder: folders of deleted servers, base
 * backups half-made, and folders no record names that hold no data (a create killed before its
 * record was saved). A folder with data that no record names is left as it is, and said.
 */
function sweep(manager: RestoreHost, services: readonly ServiceData[]): void {
  const root = manager.parts.root;
  const ids = new Set(services.flatMap((s) => [s.service_id, ...s.read_replica_sets.map((r) => r.id)]));
  for (const name of readdirSync(root)) {
    const dir = path.join(root, name);
    if (ids.has(name)) {
      // Copies a crash cut short (a base backup in the making); `data.partial` goes when remade.
      for (const entry of readdirSync(dir))
        if (/^base-\d+\.partial$/.test(entry)) manager.removeBehind(path.join(dir, entry));
      continue;
    }
    if (name === LOCK_FILE) continue;
    if (name.startsWith(".deleted-") || !existsSync(path.join(dir, "data"))) manager.removeBehind(dir);
    else manager.parts.log(`folder ${dir} belongs to no record of the state file: left as it is`);
  }
}
