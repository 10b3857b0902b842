/**
 * What the control plane tells the databases room, and what it asks of it: the one interface the
 * model knows (emulator/models/* call it; emulator/databases/manager.ts implements it). Every call
 * is synchronous and returns at once; the work on the servers runs behind it, and `holds` keeps a
 * record's next status (READY, PAUSED, active, gone) back until that work is done, so what the API
 * says about a database is true when it says it.
 */
import type { EndpointData, ReplicaSetData, ServiceData } from "../store";

/** How a fork copies its source's data. */
export interface ForkSource {
  /** The service forked. */
  source: ServiceData;
  /** NOW and LAST_SNAPSHOT copy the data as it is; PITR replays the kept WAL up to `targetMs`. */
  strategy: "NOW" | "LAST_SNAPSHOT" | "PITR";
  /** Epoch ms of the PITR target. */
  targetMs?: number;
}

/** The real PostgreSQL servers behind the emulated services (`--databases`). */
export interface DatabaseHooks {
  /**
   * A new service (created, or forked from `fork`): gives it its endpoint and its `server` record
   * (the password's verifier, where its data come from), and provisions it.
   */
  serviceCreated(service: ServiceData, password: string, fork?: ForkSource): void;
  /** Stop: the server stops (connections refused). */
  serviceStopped(service: ServiceData): void;
  /** Start: the server starts again on the same data. */
  serviceStarted(service: ServiceData): void;
  /** Resize, setHA, attach, detach: the server restarts on the same data. */
  serviceRestarted(service: ServiceData): void;
  /** Delete: the servers of the service and of its replica sets stop, and their files go. */
  serviceDeleted(service: ServiceData): void;
  /**
   * updatePassword: records the new password's verifier; the new password works and the old one is
   * refused (a stopped server takes it as it starts).
   */
  passwordChanged(service: ServiceData, password: string): void;
  /** Pooler on (the endpoint it listens on) or off (`null`: refused). */
  servicePooler(service: ServiceData, enabled: boolean): EndpointData | null;
  /** A new read replica set: gives it its endpoint and starts a streaming standby of the service. */
  replicaSetCreated(service: ServiceData, replicaSet: ReplicaSetData): void;
  /** Resize: the standby restarts. */
  replicaSetRestarted(replicaSet: ReplicaSetData): void;
  /** Delete: the standby stops and its files go. */
  replicaSetDeleted(replicaSet: ReplicaSetData): void;
  /** A replica set's pooler on (its endpoint) or off (`null`). */
  replicaSetPooler(replicaSet: ReplicaSetData, enabled: boolean): EndpointData | null;
  /**
   * True while the record's server work is under way: its next lifecycle step waits. A server that
   * failed instead reports through `failure`.
   */
  holds(recordId: string): boolean;
  /** Why the record's server failed (the service then shows UNSTABLE, a replica set `error`). */
  failure(recordId: string): string | undefined;
  /**
   * The emulator starts on a saved state: each record's server is made what the record says, after
   * a clean stop or a crash alike (docs/emulator.md#after-a-crash).
   */
  restore(services: readonly ServiceData[]): void;
  /** The whole state was dropped (admin reset): every server stops and its files go. */
  dropAll(): void;
}
