/**
 * The vendor's database words (issue 31) against `--dialect vendor --databases`: what the vendor's
 * CLI (tiger-cli d7201d6) sends to a service's database, replayed with node-postgres, exactly as
 * the CLI sends it (facts from its source, docs/emulator.md#the-vendors-database-words):
 *
 * - `tiger db connect --read-only` / `tiger db psql --read-only` / `tiger db connection-string
 *   --read-only`: the URI `postgresql://ROLE[:PASSWORD]@HOST:PORT/tsdb?sslmode=require&options=-c%20tsdb_admin.read_only_connection%3Dtrue`
 *   (`--pooled`: the pooler's host and port);
 * - `tiger db create role --name N --read-only [--from R ...]`, over `postgresql://tsdbadmin:PASSWORD@HOST:PORT/tsdb?sslmode=require`,
 *   in one transaction: without `--from tsdbadmin`, `CREATE ROLE "N" WITH LOGIN PASSWORD 'P'
 *   [IN ROLE "R", ...]` then `ALTER ROLE "N" SET tsdb_admin.read_only_role = true`; with it,
 *   `SELECT timescale_functions.create_bare_readonly_role($1, $2)`, `SELECT
 *   timescale_functions.grant_tsdbadmin_to_role($1)`, then `GRANT "R" TO "N"` for each other role;
 * - a read replica set id read through `GET /services/{id}` (its endpoint, `forked_from`);
 * - a service made before these words (its databases without them, as an earlier release's
 *   template made them) gets them at the emulator's next start.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { startEmulator, type Emulator } from "../../emulator";
import { SUPERUSER } from "../../emulator/databases/template";
import { call, until, type AnswerBody } from "./databases-helpers";

jest.setTimeout(120_000);

const dir = mkdtempSync(path.join(tmpdir(), "mdb-vendor-words-"));
chmodSync(dir, 0o711); // as root, the servers run as postgres, which must pass through
let emulator: Emulator;
let service: { id: string; password: string; endpoint: { host: string; port: number } };

/** An endpoint as the API names it. */
type Endpoint = { host: string; port: number };

/** pgx's Identifier.Sanitize: double quotes, inner ones doubled. */
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The URI the CLI builds (ConnectionDetails.String), with the password when it has one. */
function cliUri(endpoint: Endpoint, role: string, password: string, readOnly = false): string {
  const userinfo = `${encodeURIComponent(role)}:${encodeURIComponent(password)}`;
  const query = `sslmode=require${readOnly ? "&options=-c%20tsdb_admin.read_only_connection%3Dtrue" : ""}`;
  return `postgresql://${userinfo}@${endpoint.host}:${endpoint.port}/tsdb?${query}`;
}

/**
 * A session opened from the CLI's URI. `uselibpqcompat` only makes node-postgres read
 * `sslmode=require` as libpq and pgx do (TLS, no certificate check); it is not sent.
 */
async function open(uri: string): Promise<Client> {
  const client = new Client({
    connectionString: `${uri}&uselibpqcompat=true`,
    connectionTimeoutMillis: 5000,
  });
  await client.connect();
  return client;
}

/** The message a statement fails with, or `ok`. */
async function attempt(client: Client, sql: string, values?: unknown[]): Promise<string> {
  try {
    await client.query(sql, values);
    return "ok";
  } catch (error) {
    return (error as Error).message;
  }
}

/** `tiger db create role` as the CLI runs it (createRoleWithOptions), over the service's admin URI. */
async function createRole(name: string, password: string, readOnly: boolean, from: string[] = []) {
  const admin = await open(cliUri(service.endpoint, "tsdbadmin", service.password));
  try {
    await admin.query("BEGIN");
    if (from.includes("tsdbadmin")) {
      await admin.query("SELECT timescale_functions.create_bare_readonly_role($1, $2)", [name, password]);
      await admin.query("SELECT timescale_functions.grant_tsdbadmin_to_role($1)", [name]);
      for (const role of from.filter((r) => r !== "tsdbadmin"))
        await admin.query(`GRANT ${ident(role)} TO ${ident(name)}`);
    } else {
      const inRole = from.length > 0 ? ` IN ROLE ${from.map(ident).join(", ")}` : "";
      await admin.query(`CREATE ROLE ${ident(name)} WITH LOGIN PASSWORD '${password}'${inRole}`);
      if (readOnly) await admin.query(`ALTER ROLE ${ident(name)} SET tsdb_admin.read_only_role = true`);
    }
    await admin.query("COMMIT");
  } finally {
    await admin.end();
  }
}

/** What a session of `role` can do with table `words`: read it, insert into it, create a table. */
async function abilities(uri: string) {
  const client = await open(uri);
  try {
    return {
      read: await attempt(client, "SELECT count(*) FROM words"),
      insert: await attempt(client, "INSERT INTO words VALUES (99)"),
      create: await attempt(client, "CREATE TABLE public.elsewhere (x int)"),
    };
  } finally {
    await client.end();
  }
}

const READ_ONLY = {
  read: "ok",
  insert: "cannot execute INSERT in a read-only transaction",
  create: "cannot execute CREATE TABLE in a read-only transaction",
};

/** The record at `path` once `done` holds of it. */
async function settled(path: string, done: (body: AnswerBody) => boolean): Promise<AnswerBody> {
  return (
    await until(
      () => call(emulator, "GET", path),
      (r) => r.status === 200 && done(r.body),
    )
  ).body;
}

/** A replica set's fields this suite reads. */
type ReplicaSetAnswer = { id: string; endpoint: Endpoint };

beforeAll(async () => {
  emulator = await startEmulator({
    dialect: "vendor",
    transitionMs: 50,
    stateFile: path.join(dir, "state.json"),
    databases: true,
  });
  const created = await call(emulator, "POST", "/services", {
    name: "words",
    cpu_millis: "500",
    memory_gbs: "2",
  });
  expect(created.status).toBe(202);
  const ready = await settled(`/services/${created.body.service_id}`, (s) => s.status === "READY");
  expect(ready.status).toBe("READY");
  service = {
    id: created.body.service_id,
    password: created.body.initial_password,
    endpoint: ready.endpoint,
  };
  const admin = await open(cliUri(service.endpoint, "tsdbadmin", service.password));
  await admin.query("CREATE TABLE words (x int); INSERT INTO words VALUES (1), (2)");
  await admin.query("CREATE ROLE app_role; GRANT SELECT, INSERT ON words TO app_role");
  await admin.end();
});

afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("tiger db connect --read-only (tsdb_admin.read_only_connection=true)", () => {
  it("refuses CREATE TABLE and INSERT, reads; the same URI without the option writes", async () => {
    expect(await abilities(cliUri(service.endpoint, "tsdbadmin", service.password, true))).toEqual(READ_ONLY);
    const writer = await open(cliUri(service.endpoint, "tsdbadmin", service.password));
    expect(await attempt(writer, "INSERT INTO words VALUES (3)")).toBe("ok");
    expect(await attempt(writer, "CREATE TABLE written (x int)")).toBe("ok");
    await writer.end();
  });

  it("--pooled --read-only: the same through the pooler's endpoint", async () => {
    expect((await call(emulator, "POST", `/services/${service.id}/enablePooler`)).status).toBe(200);
    const pooled = await settled(`/services/${service.id}`, (s) => s.status === "READY");
    expect(
      await abilities(cliUri(pooled.connection_pooler.endpoint, "tsdbadmin", service.password, true)),
    ).toEqual(READ_ONLY);
    expect((await call(emulator, "POST", `/services/${service.id}/disablePooler`)).status).toBe(200);
  });

  it("a value that is not a boolean fails the login, naming the setting", async () => {
    const uri = cliUri(service.endpoint, "tsdbadmin", service.password, true).replace("%3Dtrue", "%3Dmaybe");
    await expect(open(uri)).rejects.toThrow(
      /invalid value for parameter "tsdb_admin.read_only_connection": "maybe"/,
    );
  });
});

describe("tiger db create role --read-only", () => {
  it("without --from: a login role that reads and cannot write, even where it is granted to", async () => {
    await createRole("ai_plain", "pw-plain-12345", true);
    const admin = await open(cliUri(service.endpoint, "tsdbadmin", service.password));
    await admin.query("GRANT SELECT, INSERT ON words TO ai_plain; GRANT CREATE ON SCHEMA public TO ai_plain");
    await admin.end();
    expect(await abilities(cliUri(service.endpoint, "ai_plain", "pw-plain-12345"))).toEqual(READ_ONLY);
  });

  it("--from app_role: reads what app_role reads, cannot write what app_role writes", async () => {
    await createRole("ai_app", "pw-app-123456", true, ["app_role"]);
    await createRole("rw_app", "pw-rw-1234567", false, ["app_role"]);
    expect(await abilities(cliUri(service.endpoint, "ai_app", "pw-app-123456"))).toEqual(READ_ONLY);
    // The same grants without --read-only write: the refusal is the read-only role's.
    expect(await abilities(cliUri(service.endpoint, "rw_app", "pw-rw-1234567"))).toMatchObject({
      read: "ok",
      insert: "ok",
    });
  });

  it("--from tsdbadmin (and app_role): reads the service user's tables, writes nothing, cannot be altered", async () => {
    await createRole("ai_admin", "pw-admin-12345", true, ["tsdbadmin", "app_role"]);
    expect(await abilities(cliUri(service.endpoint, "ai_admin", "pw-admin-12345"))).toEqual(READ_ONLY);
    const admin = await open(cliUri(service.endpoint, "tsdbadmin", service.password));
    const roles = await admin.query(
      "SELECT b.rolname FROM pg_auth_members m JOIN pg_roles a ON a.oid = m.member JOIN pg_roles b ON b.oid = m.roleid WHERE a.rolname = 'ai_admin' ORDER BY 1",
    );
    expect(roles.rows.map((r) => r.rolname)).toEqual(["app_role", "tsdbadmin"]);
    // Why the CLI refuses --statement-timeout with --from tsdbadmin.
    expect(await attempt(admin, "ALTER ROLE ai_admin SET statement_timeout = 5000")).toMatch(
      /permission denied/,
    );
    // Only a read-only role may share the service user's privileges.
    expect(
      await attempt(admin, "SELECT timescale_functions.grant_tsdbadmin_to_role($1)", ["rw_app"]),
    ).toMatch(/not a read-only role/);
    await admin.end();
  });
});

describe("a read replica set read through GET /services/{replica set id}", () => {
  it("answers the replica's endpoint and forked_from, and the CLI's read-only URI on it reads the primary's data", async () => {
    const created = await call(emulator, "POST", `/services/${service.id}/replicaSets`, {
      name: "reader",
      nodes: 1,
      cpu_millis: 500,
      memory_gbs: 2,
    });
    expect(created.status).toBe(202);
    const id = (created.body as unknown as ReplicaSetAnswer).id;
    const replica = await settled(`/services/${id}`, (s) => s.status === "READY");
    const [set] = (await call(emulator, "GET", `/services/${service.id}/replicaSets`))
      .body as unknown as ReplicaSetAnswer[];
    expect(replica).toMatchObject({
      service_id: id,
      endpoint: set.endpoint,
      forked_from: { service_id: service.id, is_standby: true },
    });
    // Read replicas share the primary's credentials.
    const client = await open(cliUri(replica.endpoint, "tsdbadmin", service.password, true));
    const row = await client.query(
      "SELECT pg_is_in_recovery() AS standby, current_setting('default_transaction_read_only') AS ro",
    );
    expect(row.rows[0]).toEqual({ standby: true, ro: "on" });
    await until(
      () => client.query("SELECT count(*)::int AS n FROM words"),
      (r) => r.rows[0].n >= 3,
    );
    await client.end();
  });
});

describe("a service made before these words (by an earlier release)", () => {
  it("gets them at the emulator's next start, in its databases and in those made later", async () => {
    const created = await call(emulator, "POST", "/services", {
      name: "older",
      cpu_millis: "500",
      memory_gbs: "2",
    });
    const ready = await settled(`/services/${created.body.service_id}`, (s) => s.status === "READY");
    const older = { endpoint: ready.endpoint as Endpoint, password: created.body.initial_password as string };
    // What an earlier release's template made: no schema, no login trigger, no grant.
    const superuser = (database: string) =>
      new Client({
        host: older.endpoint.host,
        port: older.endpoint.port,
        user: SUPERUSER,
        password: emulator.databases!.manager.parts.template.superuserPassword,
        database,
      });
    for (const database of ["template1", "postgres", "tsdb"]) {
      const admin = superuser(database);
      await admin.connect();
      await admin.query("DROP EVENT TRIGGER tsdb_admin_read_only; DROP SCHEMA timescale_functions CASCADE");
      if (database === "postgres")
        await admin.query("REVOKE SET ON PARAMETER tsdb_admin.read_only_role FROM tsdbadmin");
      await admin.end();
    }
    const readOnlyUri = cliUri(older.endpoint, "tsdbadmin", older.password, true);
    const writer = await open(cliUri(older.endpoint, "tsdbadmin", older.password));
    await writer.query("CREATE TABLE words (x int); INSERT INTO words VALUES (1)");
    await writer.end();
    expect((await abilities(readOnlyUri)).insert).toBe("ok"); // the gap an upgrade met

    await emulator.close();
    emulator = await startEmulator({
      dialect: "vendor",
      transitionMs: 50,
      stateFile: path.join(dir, "state.json"),
      databases: true,
    });
    // Added once the server is up again (its first start by this release): within seconds.
    const hasWords = async (): Promise<boolean> => {
      const client = await open(cliUri(older.endpoint, "tsdbadmin", older.password));
      try {
        const found = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = 'timescale_functions'");
        return found.rows.length === 1;
      } finally {
        await client.end();
      }
    };
    await until(
      () => hasWords().catch(() => false),
      (has) => has,
      10_000,
    );
    expect(await abilities(readOnlyUri)).toEqual(READ_ONLY);
    const admin = await open(cliUri(older.endpoint, "tsdbadmin", older.password));
    await admin.query("SELECT timescale_functions.create_bare_readonly_role($1, $2)", [
      "late_bare",
      "pw-bare-12345",
    ]);
    await admin.query("CREATE ROLE late_own WITH LOGIN PASSWORD 'pw-own-12345'");
    await admin.query("ALTER ROLE late_own SET tsdb_admin.read_only_role = true"); // the grant is back
    await admin.query("GRANT SELECT, INSERT ON words TO late_bare, late_own");
    await admin.query("CREATE DATABASE later");
    await admin.end();
    const later = await open(
      cliUri(older.endpoint, "tsdbadmin", older.password).replace("/tsdb?", "/later?"),
    );
    const schema = await later.query("SELECT 1 FROM pg_namespace WHERE nspname = 'timescale_functions'");
    await later.end();
    expect(schema.rows).toHaveLength(1);
    expect(await abilities(cliUri(older.endpoint, "late_bare", "pw-bare-12345"))).toEqual(READ_ONLY);
    expect(await abilities(cliUri(older.endpoint, "late_own", "pw-own-12345"))).toEqual(READ_ONLY);
  });
});
