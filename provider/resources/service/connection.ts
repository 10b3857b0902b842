/**
 * How to connect to a `Service`: the user and database its URIs name (settings only the stack
 * keeps), and the URIs and libpq environment built from its endpoints and current password.
 * All of it but the two names is secret (see `SERVICE_SPEC.secretOutputs`).
 */
import {
  DEFAULT_DATABASE_NAME,
  DEFAULT_USERNAME,
  type PgEnv,
  pgEnvOf,
  postgresUri,
  targetAt,
} from "../../kit/connection";
import type { ServiceOutputs } from "./args";

/** What a service's outputs add for connecting to it. */
export interface ServiceConnectionOutputs {
  /** Database user the URIs name. Default `tsdbadmin`. */
  username: string;
  /** Database the URIs name. Default `tsdb`. */
  databaseName: string;
  /** `postgres://...?sslmode=require` to the service's endpoint (secret). */
  connectionUri?: string;
  /** The same through the connection pooler, while it is on (secret). */
  poolerConnectionUri?: string;
  /** The same through the VPC endpoint, while attached (secret). */
  vpcConnectionUri?: string;
  /** PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE for the service's endpoint (secret). */
  pgEnv?: PgEnv;
}

/** The outputs of the `Service` resource: the service as observed, and how to connect to it. */
export type ServiceState = ServiceOutputs & ServiceConnectionOutputs;

/**
 * How to connect to the service `outs` shows, as `username` on `databaseName` (the vendor's
 * defaults when unset), with the current password: the one set through the resource, else
 * the initial one. Without a known password (a service imported without `password`) only the
 * names are given.
 */
export function serviceConnection(
  outs: Pick<ServiceOutputs, "endpoint" | "poolerEndpoint" | "vpcEndpoint" | "password" | "initialPassword">,
  names: { username?: string; databaseName?: string },
): ServiceConnectionOutputs {
  const credentials = {
    username: names.username ?? DEFAULT_USERNAME,
    databaseName: names.databaseName ?? DEFAULT_DATABASE_NAME,
    password: outs.password ?? outs.initialPassword,
  };
  const direct = targetAt(outs.endpoint, credentials);
  const pooler = targetAt(outs.poolerEndpoint, credentials);
  const vpc = targetAt(outs.vpcEndpoint, credentials);
  return {
    username: credentials.username,
    databaseName: credentials.databaseName,
    connectionUri: direct && postgresUri(direct),
    poolerConnectionUri: pooler && postgresUri(pooler),
    vpcConnectionUri: vpc && postgresUri(vpc),
    pgEnv: direct && pgEnvOf(direct),
  };
}
