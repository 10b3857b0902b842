/**
 * The limits of waits that a stack may set like the transport's (`mdb:<name>` stack config, else
 * `MDB_<NAME>`; README's table of limits), besides each operation's own time limit
 * (`customTimeouts`, `timeouts.ts`).
 */

/** Names of the wait limits a stack may set. */
export type WaitSettingName = "unexpectedStatusMs";

/** A wait limit a stack may set: its name (the key after `mdb:`) and the least value it takes. */
export interface WaitSetting {
  /** The stack config key after `mdb:`. */
  name: WaitSettingName;
  /** The least value taken, in milliseconds. */
  min: number;
}

/** Every wait limit a stack may set, in the order the README lists them. */
export const WAIT_SETTINGS: readonly WaitSetting[] = [{ name: "unexpectedStatusMs", min: 1 }];

/**
 * Default of `unexpectedStatusMs`, the longest time in a row a wait bears a status it does not
 * expect (UNSTABLE, a word the provider does not know) before it fails: 5 minutes. Long enough for
 * what a managed service heals by itself (an HA failover, a node restarted: a minute or two), short
 * enough that a server that will not come back fails the run in minutes rather than at the
 * 30-minute limit of a create.
 */
export const DEFAULT_UNEXPECTED_STATUS_MS = 5 * 60_000;
