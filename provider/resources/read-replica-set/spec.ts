/**
 * The facts of `ReadReplicaSet` that the kit reads: diff rules (the service and name replace
 * it, sizes, environment and pooler change in place), its id `serviceId/replicaSetId` (the
 * API addresses a set through its service), naming and outputs. A set observed in the failed
 * state `error` cannot be repaired in place, so it is replaced, deleting it first (the new set
 * takes the same name).
 */
import { DiffRule, PROJECT_DIFF_RULE } from "../../kit/diff";
import { DEFAULT_DATABASE_NAME, DEFAULT_USERNAME } from "../../kit/connection";
import type { ResourceSpec } from "../../kit/spec";
import { ReadReplicaSetInputs, ReadReplicaSetInputsSchema } from "./args";

/** Diff rules of a read replica set: replace, or an in-place action (see `planReplicaSetUpdate`). */
export const READ_REPLICA_SET_DIFF_RULES: Record<keyof ReadReplicaSetInputs, DiffRule> = {
  projectId: PROJECT_DIFF_RULE,
  serviceId: { change: "replace", why: "a read replica set cannot move to another service" },
  name: { change: "replace", why: "the API cannot rename a read replica set" },
  nodes: { change: "update" },
  cpuMillis: { change: "update" },
  memoryGbs: { change: "update" },
  environment: { change: "update", default: "DEV" },
  connectionPooler: { change: "update", default: false },
  // Only `connectionUri` changes: no API call.
  password: { change: "update", stackOnly: true },
  username: { change: "update", default: DEFAULT_USERNAME, stackOnly: true },
  databaseName: { change: "update", default: DEFAULT_DATABASE_NAME, stackOnly: true },
};

/** The facts of `ReadReplicaSet`. */
export const READ_REPLICA_SET_SPEC: ResourceSpec<"serviceId" | "replicaSetId"> = {
  kind: "read-replica-set",
  typeName: "ReadReplicaSet",
  label: "read replica set",
  inputs: ReadReplicaSetInputsSchema,
  diffRules: READ_REPLICA_SET_DIFF_RULES,
  stables: ["replicaSetId", "serviceId", "projectId"],
  failedStatus: "error",
  id: { label: "read replica set", parts: ["serviceId", "replicaSetId"] },
  naming: "generated",
  outputNames: [
    "replicaSetId",
    "projectId",
    "status",
    "environment",
    "connectionPooler",
    "endpoint",
    "poolerEndpoint",
    "password",
    "username",
    "databaseName",
    "connectionUri",
  ],
  secretOutputs: ["password", "connectionUri"],
};
