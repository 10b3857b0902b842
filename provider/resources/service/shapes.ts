/**
 * The nested types of a `Service`'s inputs and outputs: the shape of `forkFrom` and of
 * `finalFork`'s object form, and the objects the outputs hold. Each is named for the package
 * schema (`mdb:index:<name>`); its fields' doc comments are their documentation.
 */
import { z } from "zod";
import { FORK_STRATEGIES, RECORD_SERVICE_TYPES } from "../../client/constants";
import {
  cpuMillisField,
  dateTimeWithZone,
  memoryGbsField,
  nonEmpty,
  resourceName,
} from "../../kit/fields/rules";
import { named } from "../../kit/fields/type-facts";

/**
 * `TIMESERIESDB`, `POSTGRES` or `VECTOR`; `TIMESCALEDB` is the vendor's name of `TIMESERIESDB`.
 */
export const serviceTypeField = named("ServiceType", z.enum(RECORD_SERVICE_TYPES));

/** How a fork copies its source: `LAST_SNAPSHOT`, `NOW` or `PITR` (point in time). */
export const forkStrategy = named("ForkStrategy", z.enum(FORK_STRATEGIES));

/**
 * Where a forked service comes from: the service to fork, its project, and which of its states
 * the fork starts from.
 */
export const forkFromField = named(
  "ForkFrom",
  z
    .strictObject({
      /** Id of the service to fork. Required. */
      serviceId: nonEmpty,
      /** Project of that service. Default: the fork's own project. */
      projectId: nonEmpty.optional(),
      /**
       * Which state of the source the fork starts from. Required: `LAST_SNAPSHOT` (its last
       * snapshot, the quickest), `NOW` (its data as of the fork's start) or `PITR` (its data at
       * `targetTime`).
       */
      strategy: forkStrategy,
      /**
       * The point in time to fork at, with `PITR` only (required then): an ISO 8601 date-time
       * with a zone, e.g. `2026-11-01T10:00:00Z` or `2026-11-01T10:00:00+02:00`, between the
       * source's creation and now (checked at preview, allowing the API's clock a minute ahead).
       */
      targetTime: dateTimeWithZone.optional(),
    })
    .superRefine((f, ctx) => {
      if (f.strategy === "PITR" && !f.targetTime)
        ctx.addIssue({ code: "custom", path: ["targetTime"], message: "is required when strategy is PITR" });
      if (f.strategy !== "PITR" && f.targetTime)
        ctx.addIssue({
          code: "custom",
          path: ["targetTime"],
          message: "is only allowed when strategy is PITR",
        });
    }),
);

/** Where a forked service comes from. Changing any of it replaces the service. */
export type ForkFrom = z.output<typeof forkFromField>;

/** The name and sizes of a final fork, each optional. */
export const finalForkOptions = named(
  "FinalFork",
  z.strictObject({
    /** Name of the fork. Default `<service name>-final-<service id>` (cut to 128 characters); `<name>-<service id>` when a service has that name. */
    name: resourceName.optional(),
    /** CPU of the fork in milli-cores, a multiple of 250 from 250 to 64000. Default: the service's. */
    cpuMillis: cpuMillisField.optional(),
    /** Memory of the fork in GiB, 1 to 1024. Default: the service's. */
    memoryGbs: memoryGbsField.optional(),
  }),
);

/** `finalFork`: `false` (default), `true`, or the sizes and name of the fork. */
export const finalForkField = z
  .union([z.boolean(), finalForkOptions], {
    message: "must be true, false or { name?, cpuMillis?, memoryGbs? }",
  })
  .default(false);

/** Sizes and name of a final fork; each defaults as described. */
export type FinalForkOptions = Exclude<z.output<typeof finalForkField>, boolean>;

/** Compute allocated to the service. */
export const resourceShape = named(
  "ServiceResource",
  z.object({
    /** Id of the allocation. */
    id: z.string(),
    /** CPU in milli-cores. */
    cpuMillis: z.int(),
    /** Memory in GiB. */
    memoryGbs: z.int(),
    /** Storage volume type, when the API says. */
    volumeType: z.string().optional(),
  }),
);

/** Compute allocated to the service. */
export type ResourceOutput = z.output<typeof resourceShape>;

/** The VPC endpoint of a service attached to a VPC. */
export const vpcEndpointShape = named(
  "VpcEndpoint",
  z.object({
    /** Host name inside the VPC. */
    host: z.string().optional(),
    /** TCP port. */
    port: z.int().optional(),
    /** Id of the VPC. */
    vpcId: z.string().optional(),
  }),
);

/** HA replicas as the API reports them. */
export const haReplicasShape = named(
  "HaReplicas",
  z.object({
    /** Number of HA replicas. */
    replicaCount: z.int().optional(),
    /** How many of them are synchronous. */
    syncReplicaCount: z.int().optional(),
  }),
);

/**
 * Where a fork came from: its source as the API reports it, and how the program forked it as
 * the stack remembers (the API keeps only the source).
 */
export const forkedFromShape = named(
  "ForkedFrom",
  z.object({
    /** Project of the source service. */
    projectId: z.string().optional(),
    /** Id of the source service. */
    serviceId: z.string().optional(),
    /** Whether the service is a standby (a read replica) of its source, as the API says. */
    isStandby: z.boolean().optional(),
    /** The `forkFrom.strategy` the program forked with; undefined for a fork this stack did not make. */
    strategy: forkStrategy.optional(),
    /** The `forkFrom.targetTime` the program forked at (`PITR` only). */
    targetTime: z.string().optional(),
  }),
);

/** A read replica set of the service, by id and name. */
export const replicaSetRefShape = named(
  "ReplicaSetRef",
  z.object({
    /** Id of the set. */
    id: z.string(),
    /** Name of the set. */
    name: z.string(),
  }),
);
