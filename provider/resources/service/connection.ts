/**
 * How to connect to a `Service`: the user and database its URIs name (settings only the stack
 * keeps), and the URIs and libpq environment built from its endpoints and current password.
 * All of it but the two names is secret (their rows in `fields.ts` say so).
 */
import {
  DEFAULT_DATABASE_NAME,
  DEFAULT_USERNAME,
  pgEnvOf,
  postgresUri,
  targetAt,
} from "../../kit/fields/connection";
import type { ServiceOutputs } from "./fields";

/**
 * How to connect to the service `outs` shows, as `username` on `databaseName` (the vendor's
 * defaults when unset), with the current password: the one set through the resource, else
 * the initial one. Without a known password (a service imported without `password`) only the
 * names are given.
 */
export function serviceConnection(
  outs: Pick<ServiceOutputs, "endpoint" | "poolerEndpoint" | "vpcEndpoint" | "password" | "initialPassword">,
  names: { username?: string; databaseName?: string },
): Partial<ServiceOutputs> {
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
