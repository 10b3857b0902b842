/**
 * The servers of one emulator and the work on them: one record (`Db`) per service and per read
 * replica set, each with its queue. Work on a record's server runs in its queue, one task after
 * another; while a task runs the record's next lifecycle step waits (`pending`), and a task that
 * fails leaves the reason in `failure`, worded for the API's answers.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ServerOrigin } from "../store";
import type { Engine, SqlClient } from "./engine";
import type { Pooler } from "./pooler";
import { ServerProcess } from "./server-process";
import { reached } from "./test-hooks";
import { SUPERUSER } from "./template";

/** Where the servers listen, as the endpoints say. */
export const DATABASE_HOST = "127.0.0.1";

/** One server: a service's or a replica set's. */
export interface Db {
  /** The service's or replica set's id. */
  id: string;
  /** `<root>/<id>`: `data/`, `wal-archive/`, `server.log`, base backups. */
  dir: string;
  /** Its postmaster, on `dir/data`. */
  server: ServerProcess;
  /** A replica set's streaming standby (read-only), not a service's primary. */
  standby: boolean;
  /** Its pooler's proxy, while the pooler is on. */
  pooler?: Pooler;
  /** The service's replica sets (services only). */
  replicaIds: Set<string>;
  /** A replica set's service. */
  primaryId?: string;
  /** Where a service's data come from, when its folder is still to be made. */
  origin?: ServerOrigin;
  /** The SCRAM verifier a service's user gets at each start of its server. */
  verifier?: string;
  /** The end of its queue of work. */
  queue: Promise<void>;
  /** Tasks queued and not done: its next lifecycle step waits while there are. */
  pending: number;
  /** Why its server failed, as the API answers it. */
  failure?: string;
  /** Stopped on purpose (paused): restarts of a resize leave it stopped. */
  paused: boolean;
}

/** The records and their queues. */
export class Servers {
  readonly dbs = new Map<string, Db>();
  /** Work an API answer waits for (a fork's copy, a password, a pooler). */
  private readonly quick = new Set<Promise<unknown>>();
  /** Set by {@link drain}: no task starts any more. */
  private closing = false;

  constructor(
    private readonly engine: Engine,
    /** Directory holding one folder per server. */
    readonly root: string,
    /** Password of the superuser every server has. */
    private readonly superuserPassword: string,
    /** One line per server event worth telling. */
    readonly log: (line: string) => void,
  ) {}

  /** A new record on `port`; its folder is created (empty) if missing. */
  add(id: string, port: number, standby: boolean): Db {
    const dir = path.join(this.root, id);
    const label = `${standby ? "replica set" : "service"} ${id}`;
    const server = new ServerProcess(
      this.engine,
      path.join(dir, "data"),
      port,
      path.join(dir, "server.log"),
      label,
    );
    const db: Db = {
      id,
      dir,
      server,
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

  /**
   * Runs `task` after the record's earlier work; a failure is the record's (logged, reported).
   * Every task first passes its `<what>:begun` test hook point.
   */
  enqueue(db: Db, what: string, task: () => Promise<void>): Promise<void> {
    db.pending++;
    const run = db.queue
      .then(() => (this.closing ? undefined : reached(`${what}:begun`, db.id, this.log).then(task)))
      .catch((error: unknown) => this.fail(db, what, error))
      .finally(() => db.pending--);
    db.queue = run;
    return run;
  }

  /**
   * Runs `task` in another record's queue (a copy of its data), so that it is neither stopped nor
   * deleted meanwhile; a failure is the caller's, not that record's.
   */
  exclusive<T>(db: Db, task: () => Promise<T>): Promise<T> {
    const run = db.queue.then(task);
    db.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Lets the tasks under way finish (for `waitMs` at most) and starts no other: the emulator is
   * closing, and a server started after its close would outlive it.
   */
  async drain(waitMs = 10_000): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.dbs.values()].map((db) => db.queue)),
      new Promise((resolve) => (timer = setTimeout(resolve, waitMs))),
    ]);
    clearTimeout(timer);
  }

  /** Marks work an API answer must wait for (see {@link settled}). */
  track(work: Promise<unknown>): void {
    const quiet = work.catch(() => undefined);
    this.quick.add(quiet);
    void quiet.finally(() => this.quick.delete(quiet));
  }

  /** Resolves once the tracked work is done. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.quick]);
  }

  /** Records that `what` failed on `db`: the reason the API answers (UNSTABLE, `error`) and logs. */
  fail(db: Db, what: string, error: unknown): void {
    db.failure = `${what}: ${explain(error, db)}`;
    this.log(`database ${db.id}: ${db.failure}`);
  }

  /** A superuser session on the record's server, on `database` (default `postgres`), for the length of `use`. */
  async withAdmin<T>(db: Db, use: (admin: SqlClient) => Promise<T>, database = "postgres"): Promise<T> {
    const admin = this.engine.client({
      host: DATABASE_HOST,
      port: db.server.port,
      user: SUPERUSER,
      password: this.superuserPassword,
      database,
    });
    await admin.connect();
    try {
      return await use(admin);
    } finally {
      await admin.end().catch(() => undefined);
    }
  }
}

/** An error in words for the API's answers: a full disk says so and what to do. */
function explain(error: unknown, db: Db): string {
  const message = error instanceof Error ? error.message : String(error);
  if ((error as NodeJS.ErrnoException | undefined)?.code === "ENOSPC") {
    return (
      `the disk is full (ENOSPC) while writing ${db.dir}: ${message}; nothing else was changed. ` +
      "Free some space, then restart the emulator (it makes the folder again) or delete this record"
    );
  }
  return message;
}
