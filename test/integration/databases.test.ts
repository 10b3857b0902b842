/**
 * `--databases` (issue 27) in-process: every service runs a real PostgreSQL server, and what the
 * API says about it is true. Each test does what a user would: connect to the endpoint the API
 * gives with the password it gave, and look at the data.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openApiDocument } from "../../api/openapi";
import { startEmulator, type Emulator } from "../../emulator";
import { scramVerifier } from "../../emulator/databases/scram";
import { speak } from "../../emulator/dialect";
import { SERVICE_USER } from "../../emulator/databases/template";
import { Client } from "pg";
import {
  call,
  type Answered,
  connect,
  connectError,
  portOpen,
  postgresUnder,
  rows,
  until,
} from "./databases-helpers";

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

const dir = mkdtempSync(path.join(tmpdir(), "mdb-databases-test-"));
chmodSync(dir, 0o711); // as root, the servers run as postgres, which must pass through
const stateFile = path.join(dir, "state.json");
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ transitionMs: 50, stateFile, databases: true });
});

afterAll(async () => {
  await emulator?.close();
  if (!process.env.KEEP_DATABASES) rmSync(dir, { recursive: true, force: true });
});

async function ready(id: string): Promise<Answered> {
  return (
    await until(
      () => call(emulator, "GET", `/services/${id}`),
      (r) =>
        r.body.status !== "QUEUED" &&
        r.body.status !== "CONFIGURING" &&
        r.body.status !== "RESUMING" &&
        r.body.status !== "PAUSING",
    )
  ).body;
}

async function createService(
  name: string,
): Promise<{ id: string; password: string; endpoint: { host: string; port: number } }> {
  const created = await call(emulator, "POST", "/services", { name });
  expect(created.status).toBe(202);
  const service = await ready(created.body.service_id);
  expect(service.status).toBe("READY");
  return { id: service.service_id, password: created.body.initial_password, endpoint: service.endpoint };
}

test("a service is a PostgreSQL server on 127.0.0.1, with TLS, its user, database and initial password", async () => {
  const service = await createService("connect");
  expect(service.endpoint.host).toBe("127.0.0.1");
  const client = await connect(service.endpoint, service.password);
  const info = await client.query(
    "SELECT current_user AS who, current_database() AS db, ssl, current_setting('server_version_num')::int AS version FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
  );
  expect(info.rows[0]).toEqual({ who: "tsdbadmin", db: "tsdb", ssl: true, version: expect.any(Number) });
  expect(info.rows[0].version).toBeGreaterThanOrEqual(180000);
  await client.end();
  expect(await connectError(service.endpoint, "not-the-password")).toMatch(/password authentication failed/);
});

test("updatePassword: the new password works, the old one is refused", async () => {
  const service = await createService("password");
  expect(
    (await call(emulator, "POST", `/services/${service.id}/updatePassword`, { password: "a-new-password-1" }))
      .status,
  ).toBe(204);
  expect(await connectError(service.endpoint, service.password)).toMatch(/password authentication failed/);
  expect(await connectError(service.endpoint, "a-new-password-1")).toBeUndefined();
});

test("the state keeps each password as PostgreSQL's own SCRAM verifier, never the password", async () => {
  const service = await createService("verifier");
  const superuser = new Client({
    host: service.endpoint.host,
    port: service.endpoint.port,
    user: "postgres",
    password: emulator.databases!.manager.parts.template.superuserPassword,
    database: "postgres",
  });
  await superuser.connect();
  // ASCII as it is; non-ASCII normalised (NFKC: the ligature and the numeral change); a private-use
  // character makes PostgreSQL hash the raw string.
  for (const password of [
    "plain-ascii-pw",
    "pässwörd-ünïcode",
    "\uFB01-ligature-\u2168",
    "priv\uE000ate-pw",
  ]) {
    expect(
      (await call(emulator, "POST", `/services/${service.id}/updatePassword`, { password })).status,
    ).toBe(204);
    expect(await connectError(service.endpoint, password)).toBeUndefined();
    await superuser.query(`CREATE ROLE probe PASSWORD '${password}'`);
    const made = (await superuser.query("SELECT rolpassword FROM pg_authid WHERE rolname = 'probe'")).rows[0]
      .rolpassword as string;
    await superuser.query("DROP ROLE probe");
    const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(made)!;
    expect(scramVerifier(password, Buffer.from(salt, "base64"), Number(iterations))).toBe(made);
    const saved = readFileSync(stateFile, "utf8");
    expect(saved).not.toContain(password);
    expect(saved).toMatch(/"password_verifier": "SCRAM-SHA-256\$4096:/);
  }
  await superuser.end();
});

test("pooler on: its endpoint reaches the same server; off: refused", async () => {
  const service = await createService("pooler");
  const primary = await connect(service.endpoint, service.password);
  await primary.query("CREATE TABLE t (x int); INSERT INTO t VALUES (1)");
  await primary.end();
  expect((await call(emulator, "POST", `/services/${service.id}/enablePooler`)).status).toBe(200);
  const pooler = (await call(emulator, "GET", `/services/${service.id}`)).body.connection_pooler.endpoint;
  expect(pooler.host).toBe("127.0.0.1");
  const viaPooler = await connect(pooler, service.password);
  expect(await rows(viaPooler)).toEqual([1]);
  await viaPooler.end();
  expect((await call(emulator, "POST", `/services/${service.id}/disablePooler`)).status).toBe(200);
  expect(await connectError(pooler, service.password)).toMatch(/ECONNREFUSED/);
});

test("a read replica set is a read-only standby that follows the primary's writes", async () => {
  const service = await createService("replicated");
  const primary = await connect(service.endpoint, service.password);
  await primary.query("CREATE TABLE t (x int); INSERT INTO t VALUES (1)");
  const created = await call(emulator, "POST", `/services/${service.id}/replicaSets`, {
    name: "r",
    nodes: 1,
    cpu_millis: 500,
    memory_gbs: 2,
  });
  expect(created.status).toBe(202);
  const set = await until(
    () => call(emulator, "GET", `/services/${service.id}/replicaSets`),
    (r) => r.body[0].status !== "creating",
  );
  expect(set.body[0].status).toBe("active");
  const replica = await connect(created.body.endpoint, service.password);
  expect(await rows(replica)).toEqual([1]);
  await primary.query("INSERT INTO t VALUES (2)");
  await until(
    () => rows(replica),
    (r) => r.length === 2,
    5000,
  );
  await expect(replica.query("INSERT INTO t VALUES (3)")).rejects.toThrow(/read-only transaction/);
  await replica.end();
  await primary.end();
});

test("fork NOW holds the source's data of that moment; later writes cross neither way", async () => {
  const service = await createService("source");
  const primary = await connect(service.endpoint, service.password);
  await primary.query("CREATE TABLE t (x int); INSERT INTO t VALUES (1), (2)");
  const fork = await call(emulator, "POST", `/services/${service.id}/forkService`, { fork_strategy: "NOW" });
  expect(fork.status).toBe(202);
  await primary.query("INSERT INTO t VALUES (3)");
  const forked = await ready(fork.body.service_id);
  expect(forked.status).toBe("READY");
  const copy = await connect(forked.endpoint, fork.body.initial_password);
  expect(await rows(copy)).toEqual([1, 2]);
  await copy.query("INSERT INTO t VALUES (10)");
  expect(await rows(primary)).toEqual([1, 2, 3]);
  await copy.end();
  await primary.end();
});

test("fork PITR holds the source's data as of the target time", async () => {
  const service = await createService("pitr");
  const primary = await connect(service.endpoint, service.password);
  await primary.query("CREATE TABLE t (x int); INSERT INTO t VALUES (1)");
  await new Promise((resolve) => setTimeout(resolve, 300));
  const target = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await primary.query("INSERT INTO t VALUES (2)");
  const fork = await call(emulator, "POST", `/services/${service.id}/forkService`, {
    fork_strategy: "PITR",
    target_time: target,
  });
  expect(fork.status).toBe(202);
  const forked = await ready(fork.body.service_id);
  expect(forked.status).toBe("READY");
  const copy = await connect(forked.endpoint, fork.body.initial_password);
  expect(await rows(copy)).toEqual([1]);
  await copy.query("INSERT INTO t VALUES (5)"); // promoted: it takes writes
  await copy.end();
  await primary.end();
});

test("stop refuses connections, start serves the same data, a resize keeps it", async () => {
  const service = await createService("pause");
  const primary = await connect(service.endpoint, service.password);
  await primary.query("CREATE TABLE t (x int); INSERT INTO t VALUES (7)");
  await primary.end();
  await call(emulator, "POST", `/services/${service.id}/stop`);
  expect((await ready(service.id)).status).toBe("PAUSED");
  expect(await connectError(service.endpoint, service.password)).toMatch(/ECONNREFUSED/);
  await call(emulator, "POST", `/services/${service.id}/start`);
  expect((await ready(service.id)).status).toBe("READY");
  const again = await connect(service.endpoint, service.password);
  expect(await rows(again)).toEqual([7]);
  await again.end();
  expect(
    (await call(emulator, "POST", `/services/${service.id}/resize`, { cpu_millis: "1000", memory_gbs: "4" }))
      .status,
  ).toBe(202);
  expect((await ready(service.id)).status).toBe("READY");
  const resized = await connect(service.endpoint, service.password);
  expect(await rows(resized)).toEqual([7]);
  await resized.end();
});

test("delete stops the server and its standby, and removes their files", async () => {
  const service = await createService("doomed");
  const files = emulator.databases!.manager.dataDirOf(service.id)!;
  expect(existsSync(files)).toBe(true);
  const standby = (
    await call(emulator, "POST", `/services/${service.id}/replicaSets`, {
      name: "r",
      nodes: 1,
      cpu_millis: 500,
      memory_gbs: 2,
    })
  ).body;
  await until(
    () => call(emulator, "GET", `/services/${service.id}/replicaSets`),
    (r) => r.body[0].status === "active",
  );
  expect((await call(emulator, "DELETE", `/services/${service.id}`)).status).toBe(202);
  await until(
    () => call(emulator, "GET", `/services/${service.id}`),
    (r) => r.status === 404,
  );
  expect(await portOpen(service.endpoint.port)).toBe(false);
  expect(await portOpen(standby.endpoint.port)).toBe(false);
  expect(existsSync(path.dirname(files))).toBe(false);
});

test("with a state file the databases survive an emulator restart, and no server outlives the emulator", async () => {
  const service = await createService("kept");
  const primary = await connect(service.endpoint, service.password);
  await primary.query("CREATE TABLE t (x int); INSERT INTO t VALUES (42)");
  await primary.end();
  const root = emulator.databases!.root;
  expect(root).toBe(path.join(dir, "state.databases"));
  await emulator.close();
  expect(postgresUnder(root)).toEqual([]);
  emulator = await startEmulator({ transitionMs: 50, stateFile, databases: true });
  await until(
    () => connectError(service.endpoint, service.password),
    (e) => e === undefined,
    10_000,
  );
  const again = await connect(service.endpoint, service.password);
  expect(await rows(again)).toEqual([42]);
  await again.end();
});

test("a password set inside the database stays through a resize, a stop and start and an emulator restart, until updatePassword", async () => {
  const service = await createService("own-password");
  const own = "set-in-psql-1";
  const user = await connect(service.endpoint, service.password);
  await user.query(`ALTER ROLE ${SERVICE_USER} PASSWORD '${own}'`);
  await user.end();
  const onlyOwn = async (): Promise<void> => {
    expect(await connectError(service.endpoint, own)).toBeUndefined();
    expect(await connectError(service.endpoint, service.password)).toMatch(/password authentication failed/);
  };
  await onlyOwn();
  expect(
    (await call(emulator, "POST", `/services/${service.id}/resize`, { cpu_millis: "1000", memory_gbs: "4" }))
      .status,
  ).toBe(202);
  expect((await ready(service.id)).status).toBe("READY");
  await onlyOwn();
  await call(emulator, "POST", `/services/${service.id}/stop`);
  expect((await ready(service.id)).status).toBe("PAUSED");
  await call(emulator, "POST", `/services/${service.id}/start`);
  expect((await ready(service.id)).status).toBe("READY");
  await onlyOwn();
  await emulator.close();
  emulator = await startEmulator({ transitionMs: 50, stateFile, databases: true });
  await until(
    () => connectError(service.endpoint, own),
    (e) => e === undefined,
    10_000,
  );
  await onlyOwn();
  expect(
    (await call(emulator, "POST", `/services/${service.id}/updatePassword`, { password: "from-the-api-1" }))
      .status,
  ).toBe(204);
  expect(await connectError(service.endpoint, "from-the-api-1")).toBeUndefined();
  expect(await connectError(service.endpoint, own)).toMatch(/password authentication failed/);
});

test("a server that cannot start puts the service in UNSTABLE, never a hang, and its answers say why", async () => {
  const service = await createService("broken");
  await call(emulator, "POST", `/services/${service.id}/stop`);
  expect((await ready(service.id)).status).toBe("PAUSED");
  rmSync(path.join(emulator.databases!.manager.dataDirOf(service.id)!, "PG_VERSION"));
  await call(emulator, "POST", `/services/${service.id}/start`);
  const unstable = await ready(service.id);
  expect(unstable.status).toBe("UNSTABLE");
  expect(unstable.error_message).toMatch(
    /^start: the server exited \(exit 1\): .*PG_VERSION" is missing\..*; log: \S+server\.log$/,
  );
  const listed = (await call(emulator, "GET", "/services")).body.find((s) => s.service_id === service.id);
  expect(listed?.error_message).toBe(unstable.error_message);
  // The vendor's words keep it, and both served documents declare it.
  expect(
    (speak({ dialect: "vendor", deprecatedFields: false }, "getService", unstable) as Answered).error_message,
  ).toBe(unstable.error_message);
  for (const dialect of ["seed", "vendor"] as const) {
    const getService = (
      openApiDocument(dialect, "/public/api/v1").paths as Record<string, Record<string, Json>>
    )["/projects/{project_id}/services/{service_id}"].get;
    const schema = (getService.responses as Json)["200"] as Json;
    const properties = (((schema.content as Json)["application/json"] as Json).schema as Json)
      .properties as Json;
    expect(properties.error_message).toMatchObject({ type: "string", "x-mdb-extension": true });
    expect(((schema.content as Json)["application/json"] as Json).schema).not.toHaveProperty(
      "required",
      expect.arrayContaining(["error_message"]),
    );
  }
  expect((await call(emulator, "DELETE", `/services/${service.id}`)).status).toBe(202);
  await until(
    () => call(emulator, "GET", `/services/${service.id}`),
    (r) => r.status === 404,
  );
});
