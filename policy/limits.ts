// The service's own limits on sizes (the package's api/limits.ts). The pack is a package of its
// own, built apart, so it cannot import the package's source: the limits are restated here, and
// test/policy/limits.test.ts proves them equal to the contract's. The configurable team limits
// (config.ts) must lie within them.

/** A range of whole numbers: `min` to `max` inclusive, in steps of `step` counted from `min`. */
export interface ApiRange {
  /** Smallest value the service takes. */
  readonly min: number;
  /** Largest value the service takes. */
  readonly max: number;
  /** Allowed values are `min`, `min + step`, ...; every whole number when absent. */
  readonly step?: number;
}

/** CPU of a service, and of each node of a read replica set, in milli-cores: 250 to 64000 in steps of 250. */
export const API_CPU_MILLIS: ApiRange = { min: 250, max: 64000, step: 250 };

/** Memory of a service, and of each node of a read replica set, in GB: 1 to 1024. */
export const API_MEMORY_GBS: ApiRange = { min: 1, max: 1024 };

/** Nodes of a read replica set: 1 to 10. */
export const API_REPLICA_SET_NODES: ApiRange = { min: 1, max: 10 };
