/**
 * The facts of `Service` that the kit reads: its diff rules (which input change replaces it,
 * which is an in-place action; the action of each is planned in `plan.ts`), id, naming and
 * outputs.
 */
import { DiffRule, PROJECT_DIFF_RULE } from "../../kit/diff";
import { DEFAULT_DATABASE_NAME, DEFAULT_USERNAME } from "../../kit/connection";
import { DELETION_PROTECTION_RULE } from "../../kit/settings";
import type { ResourceSpec } from "../../kit/spec";
import { ServiceInputs, ServiceInputsSchema } from "./args";

/** Diff rules of a service: replace, or an in-place action (see `planServiceUpdate`). */
export const SERVICE_DIFF_RULES: Record<keyof ServiceInputs, DiffRule> = {
  projectId: PROJECT_DIFF_RULE,
  name: { change: "replace", why: "the API cannot rename a service" },
  serviceType: { change: "replace" },
  regionCode: { change: "replace" },
  forkFrom: {
    change: "replace",
    // Strategy and time only matter at creation; an imported fork knows only its source.
    equals: (d, o) => {
      const want = d as ServiceInputs["forkFrom"];
      const have = o as ServiceInputs["forkFrom"];
      if (!want || !have) return want === have;
      return (
        want.serviceId === have.serviceId &&
        (have.strategy === undefined || want.strategy === have.strategy) &&
        (have.targetTime === undefined || want.targetTime === have.targetTime)
      );
    },
  },
  cpuMillis: { change: "update" },
  memoryGbs: { change: "update" },
  replicaCount: { change: "update", default: 0 },
  syncReplicaCount: { change: "update", default: 0 },
  environment: { change: "update", default: "DEV" },
  // Removing the input stops managing the password; it does not unset it.
  password: { change: "update", equals: (d, o) => d === undefined || d === o },
  connectionPooler: { change: "update", default: false },
  vpcId: { change: "update" },
  paused: { change: "update", default: false },
  deletionProtection: DELETION_PROTECTION_RULE,
  // Only the connection outputs change: no API call.
  username: { change: "update", default: DEFAULT_USERNAME, stackOnly: true },
  databaseName: { change: "update", default: DEFAULT_DATABASE_NAME, stackOnly: true },
  // Read by delete from the state: recorded with no API call.
  finalFork: { change: "update", default: false, stackOnly: true },
};

/** The facts of `Service`. */
export const SERVICE_SPEC: ResourceSpec<"serviceId"> = {
  kind: "service",
  typeName: "Service",
  label: "service",
  inputs: ServiceInputsSchema,
  diffRules: SERVICE_DIFF_RULES,
  stables: ["serviceId", "projectId", "created"],
  id: { label: "service", parts: ["serviceId"] },
  naming: "generated",
  outputNames: [
    "projectId",
    "status",
    "created",
    "endpoint",
    "poolerEndpoint",
    "vpcEndpoint",
    "resources",
    "haReplicas",
    "forkedFrom",
    "readReplicaSets",
    "initialPassword",
    "replicaCount",
    "syncReplicaCount",
    "environment",
    "connectionPooler",
    "vpcId",
    "paused",
    "password",
    "forkFrom",
    "deletionProtection",
    "username",
    "databaseName",
    "connectionUri",
    "poolerConnectionUri",
    "vpcConnectionUri",
    "pgEnv",
    "finalFork",
  ],
  secretOutputs: [
    "password",
    "initialPassword",
    "connectionUri",
    "poolerConnectionUri",
    "vpcConnectionUri",
    "pgEnv",
  ],
};
