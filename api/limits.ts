/**
 * The limits the service enforces on request values (docs/api.md#limits). The spec shows none; these
 * are the service's documented ones. The request schemas enforce them (so the emulator answers 400,
 * and the client refuses before sending); the provider's `check` and the policy pack can read them.
 */

/** A range of whole numbers: from `min` to `max` inclusive, in steps of `step` counted from `min`. */
export interface WholeRange {
  /** Smallest value allowed. */
  readonly min: number;
  /** Largest value allowed; no upper bound when absent. */
  readonly max?: number;
  /** Allowed values are `min`, `min + step`, ...; every whole number when absent. */
  readonly step?: number;
}

/** CPU of a service, and of each node of a read replica set, in milli-cores: 250 to 64000 in steps of 250. */
export const CPU_MILLIS: WholeRange = { min: 250, max: 64000, step: 250 };

/** Memory of a service, and of each node of a read replica set, in gigabytes (GB): 1 to 1024. */
export const MEMORY_GBS: WholeRange = { min: 1, max: 1024 };

/** Nodes of a read replica set: 1 to 10. */
export const REPLICA_SET_NODES: WholeRange = { min: 1, max: 10 };

/**
 * Nodes of a service, as service resize may restate them: exactly 1. HA replicas are setHA's and
 * read capacity is a read replica set's, so another count would be silently misread.
 */
export const SERVICE_NODES: WholeRange = { min: 1, max: 1 };

/** HA replicas of a service (`replica_count`, and `sync_replica_count`, which may not exceed it): 0 to 2. */
export const HA_REPLICAS: WholeRange = { min: 0, max: 2 };

/** Length of the name of a service, read replica set or VPC, in characters: 1 to 128. */
export const NAME_LENGTH: WholeRange = { min: 1, max: 128 };

/** Length of a password set by updatePassword, in characters: at least 8. */
export const PASSWORD_LENGTH: WholeRange = { min: 8 };

/** True when `n` is a whole number inside `range`. */
export function inRange(n: number, range: WholeRange): boolean {
  return (
    Number.isSafeInteger(n) &&
    n >= range.min &&
    (range.max === undefined || n <= range.max) &&
    (range.step === undefined || (n - range.min) % range.step === 0)
  );
}

/** The rule of a range in words, e.g. `a multiple of 250 from 250 to 64000`. */
export function describeRange(range: WholeRange): string {
  if (range.min === range.max) return `exactly ${range.min}`;
  const span = range.max === undefined ? `at least ${range.min}` : `from ${range.min} to ${range.max}`;
  return range.step === undefined ? `a whole number ${span}` : `a multiple of ${range.step} ${span}`;
}

/**
 * `cpu_millis` and `memory_gbs` in the record of a shared-resource service (one created or forked
 * with `"shared"` sizes): 0, no dedicated allocation. An integer, as the vendor types these fields,
 * so that clients parsing integers read the record (docs/api.md#shared-resources).
 */
export const SHARED_SIZE = 0;

/** True when a service's compute spec is that of a shared-resource service (both sizes 0). */
export function isSharedSpec(spec: { cpu_millis: number; memory_gbs: number }): boolean {
  return spec.cpu_millis === SHARED_SIZE && spec.memory_gbs === SHARED_SIZE;
}
