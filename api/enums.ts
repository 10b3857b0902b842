/**
 * The enumerations of the API: the values the spec lists, and those docs/api.md fixes where the
 * spec shows none (peering status, fork strategy, add-ons).
 */

/** Service types of the API. */
export const SERVICE_TYPES = ["TIMESERIESDB", "POSTGRES", "VECTOR"] as const;
/** Service type of the API: TIMESERIESDB, POSTGRES or VECTOR. */
export type ServiceType = (typeof SERVICE_TYPES)[number];

/**
 * Other names the API gives a service type: the vendor's documents (spec-era and current) call
 * TIMESERIESDB `TIMESCALEDB`. Same type, another word (docs/api.md#dialects).
 */
export const SERVICE_TYPE_SYNONYMS = { TIMESCALEDB: "TIMESERIESDB" } as const satisfies Record<
  string,
  ServiceType
>;

/** Every service type a record may carry and a reader knows: {@link SERVICE_TYPES} and their synonyms. */
export const RECORD_SERVICE_TYPES = [...SERVICE_TYPES, "TIMESCALEDB"] as const;
/** A service type as records carry it: TIMESERIESDB, TIMESCALEDB (the same type), POSTGRES or VECTOR. */
export type RecordServiceType = (typeof RECORD_SERVICE_TYPES)[number];

/** The seed's name of a service type: TIMESCALEDB gives TIMESERIESDB; any other value is returned as is. */
export function canonicalServiceType(value: string): string {
  return (SERVICE_TYPE_SYNONYMS as Record<string, string>)[value] ?? value;
}

/** True when two service type words name the same type (TIMESCALEDB and TIMESERIESDB do). */
export function sameServiceType(a: string, b: string): boolean {
  return canonicalServiceType(a) === canonicalServiceType(b);
}

/** Every service status the spec lists. */
export const SERVICE_STATUSES = [
  "QUEUED",
  "DELETING",
  "CONFIGURING",
  "READY",
  "DELETED",
  "UNSTABLE",
  "PAUSING",
  "PAUSED",
  "RESUMING",
  "UPGRADING",
  "OPTIMIZING",
] as const;
/** A service status (QUEUED, CONFIGURING, READY, ...). */
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

/** Every read replica set status the spec lists. */
export const REPLICA_SET_STATUSES = ["creating", "active", "resizing", "deleting", "error"] as const;
/** A read replica set status (creating, active, resizing, deleting, error). */
export type ReplicaSetStatus = (typeof REPLICA_SET_STATUSES)[number];

/** VPC peering statuses, as docs/api.md#lifecycle fixes them (the spec does not list them). */
export const PEERING_STATUSES = ["pending", "active", "failed"] as const;
/** A VPC peering status (pending, active, failed). */
export type PeeringStatus = (typeof PEERING_STATUSES)[number];

/** Environments a service or replica set can be tagged with. */
export const ENVIRONMENTS = ["PROD", "DEV"] as const;
/** Environment tag: PROD or DEV. */
export type Environment = (typeof ENVIRONMENTS)[number];

/** Fork strategies of forkService. */
export const FORK_STRATEGIES = ["LAST_SNAPSHOT", "NOW", "PITR"] as const;
/** Fork strategy: LAST_SNAPSHOT, NOW or PITR (point in time, needs `target_time`). */
export type ForkStrategy = (typeof FORK_STRATEGIES)[number];

/** Add-ons of create service: none means POSTGRES, `time-series` TIMESERIESDB, `ai` VECTOR. */
export const ADDONS = ["time-series", "ai"] as const;
/** An add-on of create service. */
export type Addon = (typeof ADDONS)[number];

/** The add-ons of create service that select each service type (docs/api.md#requests); POSTGRES needs none. */
export const ADDONS_OF_TYPE: Readonly<Record<ServiceType, Addon[] | undefined>> = {
  POSTGRES: undefined,
  TIMESERIESDB: ["time-series"],
  VECTOR: ["ai"],
};

/**
 * What create service and fork take for `cpu_millis` and `memory_gbs`, both at once, for a
 * shared-resource service (docs/api.md#shared-resources). Resize does not take it.
 */
export const SHARED = "shared";
/** The `shared` size of create service and fork. */
export type Shared = typeof SHARED;
