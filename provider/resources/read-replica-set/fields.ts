/**
 * `ReadReplicaSet`, declared: its field table and facts. The service and the name replace it;
 * sizes, environment and pooler change in place. Its id is `serviceId/replicaSetId` (the API
 * addresses a set through its service). A set observed in the failed state `error` cannot be
 * repaired in place, so it is replaced, deleting it first (the new set takes the same name).
 */
import { z } from "zod";
import type { ReadReplicaSet as ReplicaSetRecord } from "../../client/schemas";
import { type InputsOf, type OutputsOf, type ResourceDefinition, rowsOf } from "../../kit/fields/field-table";
import { endpointOf, endpointShape } from "../../kit/fields/outputs";
import { DATABASE_NAME_ROW, PROJECT_ID_ROW, USERNAME_ROW } from "../../kit/fields/rows";
import {
  cpuMillisField,
  environmentField,
  flagField,
  memoryGbsField,
  nodesField,
  nonEmpty,
  resourceName,
} from "../../kit/fields/rules";

const { input, name, output, setting } = rowsOf<ReplicaSetRecord>();

/** The field table of {@link ReadReplicaSet}. */
export const READ_REPLICA_SET_FIELDS = {
  /** Id of the set. */
  replicaSetId: output(z.string(), { stable: true, read: (r) => r.id }),
  /** Project of the service. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId: PROJECT_ID_ROW,
  /**
   * Id of the service whose data the set replicates. Checked before anything is created (at
   * preview too, when the id is known): a service that does not exist or is being deleted fails.
   * Change: replace.
   */
  serviceId: input(
    nonEmpty,
    { replace: "a read replica set cannot move to another service" },
    { stable: true, read: (_r, ref) => ref.serviceId },
  ),
  /**
   * Name of the set, unique on its service, 1 to 128 characters. Default: the Pulumi resource name plus a stable
   * suffix (so a re-run finds a set an interrupted run created). Change: replace.
   */
  name: name(resourceName, { replace: "the API cannot rename a read replica set" }, { read: (r) => r.name }),
  /** Number of nodes, 1 to 10. Change: in place (resizeReplicaSet, waits until active). */
  nodes: input(nodesField, { update: ["resizeReplicaSet"] }, { read: (r) => r.nodes }),
  /** CPU per node in milli-cores: a multiple of 250 from 250 to 64000. Change: in place (resizeReplicaSet, waits until active). */
  cpuMillis: input(cpuMillisField, { update: ["resizeReplicaSet"] }, { read: (r) => r.cpu_millis }),
  /** Memory per node in GiB: 1 to 1024. Change: in place (resizeReplicaSet, waits until active). */
  memoryGbs: input(memoryGbsField, { update: ["resizeReplicaSet"] }, { read: (r) => r.memory_gbs }),
  /** `PROD` or `DEV`. Default `DEV`. Change: in place (setReplicaSetEnvironment). */
  environment: input(
    environmentField,
    { update: ["setReplicaSetEnvironment"] },
    { read: (r) => (r.metadata?.environment === "PROD" ? "PROD" : "DEV") },
  ),
  /** Whether the set's connection pooler is on. Default false. Change: in place (enableReplicaSetPooler / disableReplicaSetPooler). */
  connectionPooler: input(
    flagField(false),
    { update: ["enableReplicaSetPooler", "disableReplicaSetPooler"] },
    { read: (r) => !!r.connection_pooler },
  ),
  /**
   * The service's current password (secret), for `connectionUri`: a set has no credentials of
   * its own, and the API never returns a password. Default, with the package's own classes
   * (`pulumi-managed-db`, `pulumi-managed-db/native`) and in a `ProductionDatabase`: when
   * `serviceId` is a `Service` of the same program (`serviceId: db.serviceId`), that service's
   * current password (its `password`, else its initial one), which the set follows as it changes,
   * restated nowhere. Give it here for a service outside the program, and always through an SDK
   * generated from the plugin's schema (any language, `@pulumi/mdb` included): the `password` the
   * program gives the service, else `db.initialPassword`. Without one, `connectionUri` is null.
   * Change: in place, no API call (only the URI changes).
   */
  // Kept as given: a password may start or end with spaces.
  password: setting(z.string({ message: "must be a string" }).min(1, "must not be empty").optional(), {
    secret: true,
  }),
  /** Database user `connectionUri` names. Default `tsdbadmin`. Change: in place, no API call. */
  username: USERNAME_ROW,
  /** Database `connectionUri` names. Default `tsdb`. Change: in place, no API call. */
  databaseName: DATABASE_NAME_ROW,
  /** creating, active, resizing, deleting or error. */
  status: output(z.string(), { read: (r) => r.status }),
  /** Host and port of the set. */
  endpoint: output(endpointShape.optional(), { read: (r) => endpointOf(r.endpoint) }),
  /** Host and port of the connection pooler, while enabled. */
  poolerEndpoint: output(endpointShape.optional(), {
    read: (r) => endpointOf(r.connection_pooler?.endpoint),
  }),
  /**
   * `postgres://USER:PASSWORD@HOST:PORT/DB?sslmode=require` to the set's read-only endpoint
   * (secret), with the service's credentials; null while no password is known (see `password`).
   */
  connectionUri: output(z.string().optional(), { secret: true }),
};

/**
 * A read replica set of a service. Creation waits until the service is READY and the set is
 * active. The Pulumi id is `serviceId/replicaSetId`; import with that id (or
 * `projectId/serviceId/replicaSetId`).
 */
export const READ_REPLICA_SET: ResourceDefinition<
  typeof READ_REPLICA_SET_FIELDS,
  "serviceId" | "replicaSetId"
> = {
  kind: "read-replica-set",
  typeName: "ReadReplicaSet",
  label: "read replica set",
  summary: "A set of read-only replicas of a service.",
  id: { label: "read replica set", parts: ["serviceId", "replicaSetId"], parent: "service" },
  naming: "generated",
  fields: READ_REPLICA_SET_FIELDS,
  failedStatus: "error",
  absentOutputs: (inputs) => (inputs.connectionPooler === false ? ["poolerEndpoint"] : []),
  follows: { password: { via: "serviceId", kind: "service", outputs: ["password", "initialPassword"] } },
};

/** Inputs of a read replica set after check. */
export type ReadReplicaSetInputs = InputsOf<typeof READ_REPLICA_SET_FIELDS>;
/** Outputs of a read replica set, as the provider reports them. */
export type ReadReplicaSetOutputs = OutputsOf<typeof READ_REPLICA_SET_FIELDS>;
