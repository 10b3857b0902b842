/**
 * The vendor's database words, played with plain PostgreSQL (docs/emulator.md#the-vendors-database-words):
 * the objects the vendor's CLI (tiger-cli d7201d6) relies on in every service's database, which the
 * vendor's own server extension provides and stock PostgreSQL lacks.
 *
 * - `tsdb_admin.read_only_connection=true`, sent in the startup packet (`tiger db connect
 *   --read-only` puts `options=-c tsdb_admin.read_only_connection=true` in the URI), and
 *   `tsdb_admin.read_only_role = true`, set on a role (`tiger db create role --read-only`): a login
 *   event trigger reads both and makes the session read-only, so writes fail as in a read-only
 *   transaction.
 * - `timescale_functions.create_bare_readonly_role(name, password)` and
 *   `timescale_functions.grant_tsdbadmin_to_role(name)`, which `tiger db create role --read-only
 *   --from tsdbadmin` calls: a read-only login role made by the superuser (so the service's user
 *   cannot alter it), then made a member of `tsdbadmin`.
 * - The service's user may set `tsdb_admin.read_only_role` on roles (ALTER ROLE ... SET), as the
 *   vendor's extension lets it.
 *
 * Installed once into the template (template.ts), in `template1` and `postgres`: every database
 * created afterwards, the service's `tsdb` included, is a copy of `template1` and carries them. A
 * service made by a release before them gets them at a later start of its server
 * ({@link addVendorWords}).
 */
import { runProgram, type Engine, type SqlClient } from "./engine";

/** The vendor's setting that makes one connection read-only, from its startup packet. */
export const READ_ONLY_CONNECTION_SETTING = "tsdb_admin.read_only_connection";
/** The vendor's setting that makes every session of a role read-only. */
export const READ_ONLY_ROLE_SETTING = "tsdb_admin.read_only_role";
/** The schema of the vendor's role functions. */
export const VENDOR_FUNCTIONS_SCHEMA = "timescale_functions";

/**
 * Statements for PostgreSQL's single-user mode with `-j`: each ends with a semicolon and a blank
 * line (so no function body may hold one). `owner` is the service's user.
 */
function vendorWordsSql(owner: string): string[] {
  const schema = VENDOR_FUNCTIONS_SCHEMA;
  return [
    `CREATE SCHEMA ${schema}`,
    `GRANT USAGE ON SCHEMA ${schema} TO ${owner}`,
    // Not SECURITY DEFINER: it only sets the session's own default, which any user may set.
    // A value that is not a boolean fails the login, as the vendor refuses a bad setting.
    `CREATE FUNCTION ${schema}.read_only_login() RETURNS event_trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $body$
DECLARE
  setting text;
  value text;
BEGIN
  FOREACH setting IN ARRAY ARRAY['${READ_ONLY_CONNECTION_SETTING}', '${READ_ONLY_ROLE_SETTING}'] LOOP
    value := pg_catalog.current_setting(setting, true);
    CONTINUE WHEN value IS NULL OR value = '';
    BEGIN
      IF value::boolean THEN
        PERFORM pg_catalog.set_config('default_transaction_read_only', 'on', false);
      END IF;
    EXCEPTION WHEN invalid_text_representation THEN
      RAISE EXCEPTION 'invalid value for parameter "%": "%"', setting, value
        USING ERRCODE = 'invalid_parameter_value', HINT = 'Use true or false.';
    END;
  END LOOP;
END
$body$`,
    `CREATE EVENT TRIGGER tsdb_admin_read_only ON login EXECUTE FUNCTION ${schema}.read_only_login()`,
    // Made by the superuser: the service's user has no admin option on the role, so it cannot
    // alter it afterwards (the vendor's CLI refuses --statement-timeout here for that reason).
    `CREATE FUNCTION ${schema}.create_bare_readonly_role(role_name text, role_password text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
BEGIN
  EXECUTE pg_catalog.format('CREATE ROLE %I WITH LOGIN PASSWORD %L', role_name, role_password);
  EXECUTE pg_catalog.format('ALTER ROLE %I SET ${READ_ONLY_ROLE_SETTING} = true', role_name);
END
$body$`,
    // Only a read-only role may share the service user's privileges.
    `CREATE FUNCTION ${schema}.grant_tsdbadmin_to_role(role_name text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM pg_catalog.pg_db_role_setting s JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
    WHERE r.rolname = role_name AND s.setdatabase = 0
      AND '${READ_ONLY_ROLE_SETTING}=true' = ANY (s.setconfig)
  ) THEN
    RAISE EXCEPTION 'role "%" is not a read-only role (make it with ${schema}.create_bare_readonly_role)', role_name
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  EXECUTE pg_catalog.format('GRANT ${owner} TO %I', role_name);
END
$body$`,
    `REVOKE ALL ON FUNCTION ${schema}.create_bare_readonly_role(text, text), ${schema}.grant_tsdbadmin_to_role(text) FROM PUBLIC`,
    `GRANT EXECUTE ON FUNCTION ${schema}.create_bare_readonly_role(text, text), ${schema}.grant_tsdbadmin_to_role(text) TO ${owner}`,
    // Cluster-wide: lets the service's user run ALTER ROLE ... SET tsdb_admin.read_only_role.
    `GRANT SET ON PARAMETER ${READ_ONLY_ROLE_SETTING} TO ${owner}`,
  ];
}

/**
 * Installs the vendor's words into the template's `template1` and `postgres` databases, with the
 * server stopped (single-user mode). `owner` (the service's user) must exist already.
 */
export async function installVendorWords(engine: Engine, dataDir: string, owner: string): Promise<void> {
  const script = vendorWordsSql(owner)
    .map((statement) => `${statement};\n\n`)
    .join("");
  for (const database of ["template1", "postgres"]) {
    // exit_on_error: single-user mode otherwise reports an error and carries on, exit code 0.
    await runProgram(
      engine,
      "postgres",
      ["--single", "-j", "-c", "exit_on_error=on", "-D", dataDir, database],
      script,
    );
  }
}

/** A superuser session on one database of a running server, for the length of `use`. */
export type AdminOn = <T>(database: string, use: (admin: SqlClient) => Promise<T>) => Promise<T>;

/** Whether the database `admin` is on has the vendor's words. */
async function hasVendorWords(admin: SqlClient): Promise<boolean> {
  const found = await admin.query("SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1", [
    VENDOR_FUNCTIONS_SCHEMA,
  ]);
  return found.rows.length > 0;
}

/**
 * Adds the vendor's words to a running server made before them (a service of an earlier release,
 * or a fork of one): into every database that takes connections and lacks them, `template1`
 * included, each in one transaction of superuser statements. Nothing is done when `postgres` has
 * them (the template put them there, so the server has them everywhere); `postgres` is done last,
 * so a crash half-way leaves it without them and the next start finishes. Returns the databases
 * they were added to. `owner` is the service's user.
 */
export async function addVendorWords(adminOn: AdminOn, owner: string): Promise<string[]> {
  if (await adminOn("postgres", hasVendorWords)) return [];
  const databases = await adminOn("postgres", async (admin) =>
    (await admin.query("SELECT datname FROM pg_catalog.pg_database WHERE datallowconn ORDER BY datname")).rows
      .map((row) => String(row.datname))
      .sort((a, b) => Number(a === "postgres") - Number(b === "postgres")),
  );
  const added: string[] = [];
  for (const database of databases) {
    const done = await adminOn(database, async (admin) => {
      if (await hasVendorWords(admin)) return false;
      await admin.query("BEGIN");
      try {
        for (const statement of vendorWordsSql(owner)) await admin.query(statement);
        await admin.query("COMMIT");
      } catch (error) {
        await admin.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
      return true;
    });
    if (done) added.push(database);
  }
  return added;
}
