/**
 * The limits of the client's transport that a stack may set, and where: stack config
 * `mdb:<name>`, else the environment variable `MDB_<NAME>`. Apart from the HTTP layer so that
 * reading the configuration (`../config.ts`) does not load the HTTP client, and so that the
 * client's messages name the same keys the configuration reads.
 */

/** A limit of the transport a stack may set: its option name and the least value it takes. */
export interface TransportSetting {
  /** The option of `HttpClientOptions`, and the stack config key after `mdb:`. */
  name: TransportSettingName;
  /** The least value taken: 1 for sizes and durations, 0 where 0 means "never". */
  min: number;
}

/** Names of the limits a stack may set. */
export type TransportSettingName =
  | "callDeadlineMs"
  | "attemptDeadlineMs"
  | "timeoutMs"
  | "maxResponseBytes"
  | "maxHeaderBytes"
  | "maxRetryAfterMs";

/** Every limit a stack may set, in the order the README lists them. */
export const TRANSPORT_SETTINGS: readonly TransportSetting[] = [
  { name: "callDeadlineMs", min: 1 },
  { name: "attemptDeadlineMs", min: 1 },
  { name: "timeoutMs", min: 1 },
  { name: "maxResponseBytes", min: 1 },
  { name: "maxHeaderBytes", min: 1 },
  { name: "maxRetryAfterMs", min: 0 },
];

/** The stack config key of a limit (of the transport or another, e.g. a wait's): `mdb:callDeadlineMs`. */
export function transportConfigKey(name: string): string {
  return `mdb:${name}`;
}

/** The environment variable of a limit (of the transport or another): `MDB_CALL_DEADLINE_MS`. */
export function transportEnvVar(name: string): string {
  return `MDB_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/**
 * How a message names setting `name` (the key after `mdb:`) among an explicit provider's
 * arguments, `origin` (`the arguments of provider prod`): `timeoutMs in the arguments of provider prod`.
 */
export function argumentWhere(name: string, origin: string): string {
  return `${name} in ${origin}`;
}

/**
 * Where a person sets setting `name` (a limit of the transport or a wait, the adoption switch),
 * as a message names it: `mdb:callDeadlineMs / MDB_CALL_DEADLINE_MS`; for an explicit provider's
 * (`origin`, `the arguments of provider prod`), `callDeadlineMs in the arguments of provider prod
 * / MDB_CALL_DEADLINE_MS`, as it reads no stack config.
 */
export function whereToSet(name: string, origin?: string): string {
  const given = origin ? argumentWhere(name, origin) : transportConfigKey(name);
  return `${given} / ${transportEnvVar(name)}`;
}

/**
 * How a message names a limit of the transport: `option callDeadlineMs, mdb:callDeadlineMs /
 * MDB_CALL_DEADLINE_MS` (the client's option, then where a stack sets it); for an explicit
 * provider's limits (`origin`), where its arguments set it ({@link whereToSet}).
 */
export function describeSetting(name: TransportSettingName, origin?: string): string {
  return origin ? whereToSet(name, origin) : `option ${name}, ${whereToSet(name)}`;
}
