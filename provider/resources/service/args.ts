/**
 * What a `Service` takes and gives: its args (with the docs users read), the validation of
 * its inputs, and the shape of its outputs.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { FORK_STRATEGIES, SERVICE_TYPES } from "../../client/schemas";
import {
  cpuMillisField,
  environmentField,
  flagField,
  haReplicasField,
  memoryGbsField,
  nonEmpty,
  passwordField,
  projectIdField,
  resourceName,
} from "../../kit/fields";
import { DEFAULT_DATABASE_NAME, DEFAULT_USERNAME } from "../../kit/connection";
import { deletionProtectionField } from "../../kit/settings";
import { type FinalForkOptions, finalForkField } from "./final-fork";

export type { FinalForkOptions } from "./final-fork";
import type { EndpointOutput } from "../../kit/outputs";

export type { EndpointOutput } from "../../kit/outputs";

/** Where a forked service comes from. Changing any of it replaces the service. */
export interface ForkFromArgs {
  /** Id of the service to fork. */
  serviceId: pulumi.Input<string>;
  /** Project of that service; the fork's project when absent. */
  projectId?: pulumi.Input<string>;
  /** `LAST_SNAPSHOT`, `NOW` or `PITR` (point in time, needs `targetTime`). */
  strategy: pulumi.Input<"LAST_SNAPSHOT" | "NOW" | "PITR">;
  /** ISO 8601 date-time to fork at; required with `PITR`, refused otherwise. */
  targetTime?: pulumi.Input<string>;
}

/** Inputs of a {@link Service}. */
export interface ServiceArgs {
  /** Project of the service. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId?: pulumi.Input<string>;
  /**
   * Name of the service, 1 to 128 characters. Default: the Pulumi resource name plus a suffix derived from the
   * project, stack and resource name (stable, so a re-run finds a service an interrupted run
   * created). Change: replace (the API cannot rename a service).
   */
  name?: pulumi.Input<string>;
  /** `TIMESERIESDB`, `POSTGRES` or `VECTOR`. Change: replace. */
  serviceType: pulumi.Input<"TIMESERIESDB" | "POSTGRES" | "VECTOR">;
  /** Region code, e.g. `us-east-1`. Change: replace. */
  regionCode: pulumi.Input<string>;
  /** CPU in milli-cores: a multiple of 250 from 250 to 64000. Change: in place (resize). */
  cpuMillis: pulumi.Input<number>;
  /** Memory in GiB: 1 to 1024. Change: in place (resize). */
  memoryGbs: pulumi.Input<number>;
  /** Number of HA replicas, 0..2. Default 0. Change: in place (setHA). */
  replicaCount?: pulumi.Input<number>;
  /** How many HA replicas are synchronous, 0..replicaCount. Default 0. Change: in place (setHA). */
  syncReplicaCount?: pulumi.Input<number>;
  /** `PROD` or `DEV`. Default `DEV`. Change: in place (setEnvironment). */
  environment?: pulumi.Input<"PROD" | "DEV">;
  /** Password of the service (secret, 8+ characters). Default: keep the initial password. Change: in place (updatePassword). */
  password?: pulumi.Input<string>;
  /** Whether the connection pooler is on. Default false. Change: in place (enable/disablePooler). */
  connectionPooler?: pulumi.Input<boolean>;
  /**
   * VPC to attach the service to, in the service's region. Checked before anything is created
   * (at preview too, when the id is known): a VPC that does not exist or is in another region
   * fails. Change: in place (detach old, attach new).
   */
  vpcId?: pulumi.Input<string>;
  /** Whether the service is paused. Default false. Change: in place (stop/start). */
  paused?: pulumi.Input<boolean>;
  /** Create the service as a fork of another. Change: replace. */
  forkFrom?: pulumi.Input<ForkFromArgs>;
  /**
   * While true, deleting the service (`pulumi destroy`, a replacement, removing it from the
   * program) fails before any API call. Default false. Change: in place, no API call; to
   * delete a protected service, set it false and run `pulumi up` first.
   */
  deletionProtection?: pulumi.Input<boolean>;
  /**
   * Database user the connection outputs name. Default `tsdbadmin`, the user the service is
   * created with. Change: in place, no API call (only the URIs change).
   */
  username?: pulumi.Input<string>;
  /**
   * Database the connection outputs name. Default `tsdb`, the database the service is created
   * with. Change: in place, no API call (only the URIs change).
   */
  databaseName?: pulumi.Input<string>;
  /**
   * Fork the service before deleting it: `true`, or the fork's `{ name?, cpuMillis?, memoryGbs? }`.
   * The delete (`pulumi destroy`, a replacement, removing the service from the program) first
   * forks the last snapshot, waits until the fork is READY and prints its id, then deletes. The
   * fork is left outside the stack, like a final snapshot. Default false. Change: in place, no
   * API call; the value the last `pulumi up` recorded is the one a delete uses.
   */
  finalFork?: pulumi.Input<boolean | FinalForkOptions>;
}

/** Compute allocated to the service. */
export interface ResourceOutput {
  /** Id of the allocation. */
  id: string;
  /** CPU in milli-cores. */
  cpuMillis: number;
  /** Memory in GiB. */
  memoryGbs: number;
  /** Storage volume type, when the API says. */
  volumeType?: string;
}

const ForkFromSchema = z
  .strictObject({
    serviceId: nonEmpty,
    projectId: nonEmpty.optional(),
    strategy: z.enum(FORK_STRATEGIES),
    targetTime: z.iso.datetime({ offset: true }).optional(),
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
  });

const ServiceFieldsSchema = z.object({
  projectId: projectIdField,
  name: resourceName,
  serviceType: z.enum(SERVICE_TYPES),
  regionCode: nonEmpty,
  cpuMillis: cpuMillisField,
  memoryGbs: memoryGbsField,
  replicaCount: haReplicasField,
  syncReplicaCount: haReplicasField,
  environment: environmentField,
  password: passwordField.optional(),
  connectionPooler: flagField(false),
  vpcId: nonEmpty.optional(),
  paused: flagField(false),
  forkFrom: ForkFromSchema.optional(),
  deletionProtection: deletionProtectionField,
  username: nonEmpty.default(DEFAULT_USERNAME),
  databaseName: nonEmpty.default(DEFAULT_DATABASE_NAME),
  finalFork: finalForkField,
});

/** Validation of the inputs, with defaults filled in; hidden inputs pass through. */
export const ServiceInputsSchema = ServiceFieldsSchema.loose().superRefine((s, ctx) => {
  if (s.syncReplicaCount > s.replicaCount)
    ctx.addIssue({
      code: "custom",
      path: ["syncReplicaCount"],
      message: `must not exceed replicaCount (${s.replicaCount})`,
    });
});

/** Inputs after check. */
export type ServiceInputs = z.output<typeof ServiceFieldsSchema>;

/** Outputs of the provider: the observed state, named like the inputs, plus what the API adds. */
export interface ServiceOutputs extends Omit<
  ServiceInputs,
  "forkFrom" | "deletionProtection" | "username" | "databaseName" | "finalFork"
> {
  /** Absent in states written before 0.2.0: false. */
  deletionProtection?: boolean;
  /** Whether a delete forks the service first (see {@link ServiceArgs.finalFork}); absent: false. */
  finalFork?: boolean | FinalForkOptions;
  serviceId: string;
  projectId: string;
  forkFrom?: ServiceInputs["forkFrom"];
  status: string;
  created?: string;
  endpoint?: EndpointOutput;
  poolerEndpoint?: EndpointOutput;
  vpcEndpoint?: { host?: string; port?: number; vpcId?: string };
  resources: ResourceOutput[];
  haReplicas?: { replicaCount?: number; syncReplicaCount?: number };
  forkedFrom?: { projectId?: string; serviceId?: string; isStandby?: boolean };
  readReplicaSets: Array<{ id: string; name: string; status: string; nodes: number }>;
  initialPassword?: string;
}
