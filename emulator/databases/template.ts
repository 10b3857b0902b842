/**
 * One `initdb` reused as a template: every service's data directory is a copy of it, so a create
 * costs a copy and a server start (well under the 2 s budget), not an initdb. The template is
 * made once per machine and server version, in the user's cache, with the service's database and
 * user (`tsdb`, `tsdbadmin`), the vendor's database words (vendor-words.ts), a superuser password
 * only the emulator knows, TLS on with a certificate made here, and a configuration small enough
 * for many servers on one machine.
 */
import { randomBytes } from "node:crypto";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { runProgram, type Engine } from "./engine";
import { chownTree, copyTree, removeTree } from "./files";
import { selfSignedCertificate } from "./tls";
import { installVendorWords } from "./vendor-words";

/** The database and user every service is created with (what the resources' outputs name). */
export const SERVICE_DATABASE = "tsdb";
/** See {@link SERVICE_DATABASE}. */
export const SERVICE_USER = "tsdbadmin";
/** The superuser the emulator connects as (replication, password changes, backups). */
export const SUPERUSER = "postgres";

/** Bump when the template's contents change, so caches are remade (4: the vendor's database words). */
const TEMPLATE_REVISION = 4;

/**
 * The server settings of every service: PostgreSQL 18's defaults, smaller where they cost memory
 * (shared buffers, connections, no I/O worker processes, no logical replication launcher), WAL
 * kept and archived for standbys and point-in-time forks (1 MiB segments), and no fsync: the
 * emulator's data survive a clean stop, not a power cut.
 */
const SETTINGS = `
# --- mdb-emulator ---
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
password_encryption = 'scram-sha-256'
shared_buffers = 8MB
max_connections = 40
io_method = sync
max_logical_replication_workers = 0
max_worker_processes = 4
wal_level = replica
max_wal_senders = 5
wal_keep_size = 64MB
hot_standby = on
archive_mode = on
archive_command = 'test ! -f ../wal-archive/%f && cp %p ../wal-archive/%f'
fsync = off
include_if_exists = 'mdb-recovery.conf'
`;

/** Who may connect: password (SCRAM) over TCP from this machine, with or without TLS. */
const HBA = `
host all all 127.0.0.1/32 scram-sha-256
host replication ${SUPERUSER} 127.0.0.1/32 scram-sha-256
`;

/** A ready template: copy `dataDir` for a new service. */
export interface Template {
  dataDir: string;
  /** Password of {@link SUPERUSER} in every copy. */
  superuserPassword: string;
}

/** The machine's template for this server version, made first if needed. */
export async function ensureTemplate(engine: Engine, cacheRoot = defaultCacheRoot()): Promise<Template> {
  const dir = path.join(cacheRoot, `postgres-${engine.version}-template-${TEMPLATE_REVISION}`);
  const template = (): Template => ({
    dataDir: path.join(dir, "data"),
    superuserPassword: readFileSync(path.join(dir, "superuser-password"), "utf8"),
  });
  if (existsSync(path.join(dir, "superuser-password"))) return template();

  // initdb runs as the server's user, so it builds in the world-traversable temp directory.
  const build = mkdtempSync(path.join(tmpdir(), "mdb-template-"));
  try {
    const dataDir = path.join(build, "data");
    // Services made from an earlier revision keep its superuser password: the emulator must still
    // reach them, so a new revision reuses it.
    const password = earlierPassword(cacheRoot, engine.version) ?? randomBytes(24).toString("base64url");
    writeFileSync(path.join(build, "pw"), password, { mode: 0o600 });
    chownTree(build, engine.runAs);
    await runProgram(engine, "initdb", [
      `--pgdata=${dataDir}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${path.join(build, "pw")}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--no-locale",
      "--no-sync",
      "--wal-segsize=1",
    ]);
    appendFileSync(path.join(dataDir, "postgresql.conf"), SETTINGS);
    writeFileSync(path.join(dataDir, "pg_hba.conf"), HBA);
    writeFileSync(path.join(dataDir, "mdb-recovery.conf"), "");
    const tls = selfSignedCertificate();
    writeFileSync(path.join(dataDir, "server.crt"), tls.cert);
    writeFileSync(path.join(dataDir, "server.key"), tls.key, { mode: 0o600 });
    chmodSync(path.join(dataDir, "server.key"), 0o600);
    chownTree(build, engine.runAs);
    // After the settings: its shutdown checkpoint records them, and recoveries compare with it.
    const single = (sql: string) =>
      runProgram(engine, "postgres", ["--single", "-D", dataDir, SUPERUSER], sql);
    await single(`CREATE ROLE ${SERVICE_USER} LOGIN CREATEDB CREATEROLE;\n`);
    // Before the service's database, a copy of template1, so that it carries them too.
    await installVendorWords(engine, dataDir, SERVICE_USER);
    await single(`CREATE DATABASE ${SERVICE_DATABASE} OWNER ${SERVICE_USER};\n`);
    removeTree(path.join(build, "pw"));
    writeFileSync(path.join(build, "superuser-password"), password, { mode: 0o600 });

    // Into the cache: a copy beside it, then one rename, so a half-made template is never seen.
    mkdirSync(cacheRoot, { recursive: true });
    const partial = `${dir}.partial-${process.pid}-${randomBytes(4).toString("hex")}`;
    await copyTree(build, partial);
    try {
      renameSync(partial, dir);
    } catch {
      removeTree(partial); // another emulator made it first
    }
    return template();
  } finally {
    removeTree(build);
  }
}

/** The superuser password of the newest earlier revision of this version's template, if any. */
function earlierPassword(cacheRoot: string, version: string): string | undefined {
  for (let revision = TEMPLATE_REVISION - 1; revision > 0; revision--) {
    const file = path.join(cacheRoot, `postgres-${version}-template-${revision}`, "superuser-password");
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return undefined;
}

function defaultCacheRoot(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "pulumi-managed-db");
}
