/**
 * Connection strings and libpq environments built from an endpoint and credentials, shared by
 * the resources that serve a database (`Service`, `ReadReplicaSet`). Everything built here
 * holds a password: the resources declare these outputs secret.
 */
import { z } from "zod";
import { named } from "./type-facts";

/** Where and as whom to connect. */
export interface ConnectionTarget {
  /** Host name or IP address (an IPv6 address is bracketed in a URI). */
  host: string;
  /** TCP port. */
  port: number;
  /** Database user. */
  username: string;
  /** Password of that user. */
  password: string;
  /** Database to connect to. */
  databaseName: string;
}

/** The environment libpq (psql, pg_dump, most drivers) reads; every value a string. */
export const pgEnvShape = named(
  "PgEnv",
  z.object({
    /** Host of the endpoint. */
    PGHOST: z.string(),
    /** The port, as a string of digits. */
    PGPORT: z.string(),
    /** Database user. */
    PGUSER: z.string(),
    /** Password of that user. */
    PGPASSWORD: z.string(),
    /** Database to connect to. */
    PGDATABASE: z.string(),
    /** Always `require`: the service takes TLS connections only. */
    PGSSLMODE: z.string(),
  }),
);

/** The environment libpq (psql, pg_dump, most drivers) reads; every value a string. */
export type PgEnv = z.output<typeof pgEnvShape>;

/** TLS is required by the service; a client that could fall back to plain text must not. */
export const SSL_MODE = "require";

/** The vendor's default database user. */
export const DEFAULT_USERNAME = "tsdbadmin";

/** The vendor's default database. */
export const DEFAULT_DATABASE_NAME = "tsdb";

/**
 * `postgres://USER:PASSWORD@HOST:PORT/DB?sslmode=require`, with user, password and database
 * percent-encoded (a password may hold `@`, `:`, `/`, `?`, `#`, `%`).
 */
export function postgresUri(t: ConnectionTarget): string {
  const host = t.host.includes(":") && !t.host.startsWith("[") ? `[${t.host}]` : t.host;
  const user = encodeURIComponent(t.username);
  const password = encodeURIComponent(t.password);
  return `postgres://${user}:${password}@${host}:${t.port}/${encodeURIComponent(t.databaseName)}?sslmode=${SSL_MODE}`;
}

/** `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE` for `t`. */
export function pgEnvOf(t: ConnectionTarget): PgEnv {
  return {
    PGHOST: t.host,
    PGPORT: String(t.port),
    PGUSER: t.username,
    PGPASSWORD: t.password,
    PGDATABASE: t.databaseName,
    PGSSLMODE: SSL_MODE,
  };
}

/** An endpoint as outputs hold it; host and port may be missing from what an API reports. */
export interface MaybeEndpoint {
  host?: string;
  port?: number;
}

/**
 * The target at `endpoint` with `credentials`, or undefined when either is incomplete (no
 * endpoint yet, or a password this stack does not know).
 */
export function targetAt(
  endpoint: MaybeEndpoint | undefined,
  credentials: { username: string; password?: string; databaseName: string },
): ConnectionTarget | undefined {
  if (!endpoint?.host || endpoint.port === undefined || credentials.password === undefined) return undefined;
  return {
    host: endpoint.host,
    port: endpoint.port,
    username: credentials.username,
    password: credentials.password,
    databaseName: credentials.databaseName,
  };
}
