/**
 * What a `ReadReplicaSet` takes and gives: its args (with the docs users read), the validation
 * of its inputs, and the shape of its outputs.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  cpuMillisField,
  environmentField,
  flagField,
  memoryGbsField,
  nodesField,
  nonEmpty,
  projectIdField,
  resourceName,
} from "../../kit/fields";
import { DEFAULT_DATABASE_NAME, DEFAULT_USERNAME } from "../../kit/connection";
import type { EndpointOutput } from "../../kit/outputs";

/** Inputs of a {@link ReadReplicaSet}. */
export interface ReadReplicaSetArgs {
  /** Project of the service. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId?: pulumi.Input<string>;
  /** Id of the service whose data the set replicates. Change: replace. */
  serviceId: pulumi.Input<string>;
  /**
   * Name of the set, unique on its service, 1 to 128 characters. Default: the Pulumi resource name plus a stable
   * suffix (so a re-run finds a set an interrupted run created). Change: replace.
   */
  name?: pulumi.Input<string>;
  /** Number of nodes, 1 to 10. Change: in place (resize, waits until active). */
  nodes: pulumi.Input<number>;
  /** CPU per node in milli-cores: a multiple of 250 from 250 to 64000. Change: in place (resize, waits until active). */
  cpuMillis: pulumi.Input<number>;
  /** Memory per node in GiB: 1 to 1024. Change: in place (resize, waits until active). */
  memoryGbs: pulumi.Input<number>;
  /** `PROD` or `DEV`. Default `DEV`. Change: in place (setEnvironment). */
  environment?: pulumi.Input<"PROD" | "DEV">;
  /** Whether the set's connection pooler is on. Default false. Change: in place (enable/disablePooler). */
  connectionPooler?: pulumi.Input<boolean>;
  /**
   * The service's current password (secret), for `connectionUri`: a set has no credentials
   * of its own, and the API never returns a password. Pass what the service was given, e.g.
   * the secret config value of its `password`, or `service.initialPassword`. Without it,
   * `connectionUri` is undefined. Change: in place, no API call (only the URI changes).
   */
  password?: pulumi.Input<string>;
  /** Database user `connectionUri` names. Default `tsdbadmin`. Change: in place, no API call. */
  username?: pulumi.Input<string>;
  /** Database `connectionUri` names. Default `tsdb`. Change: in place, no API call. */
  databaseName?: pulumi.Input<string>;
}

const ReadReplicaSetFieldsSchema = z.object({
  projectId: projectIdField,
  serviceId: nonEmpty,
  name: resourceName,
  nodes: nodesField,
  cpuMillis: cpuMillisField,
  memoryGbs: memoryGbsField,
  environment: environmentField,
  connectionPooler: flagField(false),
  // Kept as given: a password may start or end with spaces.
  password: z.string({ message: "must be a string" }).min(1, "must not be empty").optional(),
  username: nonEmpty.default(DEFAULT_USERNAME),
  databaseName: nonEmpty.default(DEFAULT_DATABASE_NAME),
});

/** Validation of the inputs, with defaults filled in; hidden inputs pass through. */
export const ReadReplicaSetInputsSchema = ReadReplicaSetFieldsSchema.loose();

/** Inputs after check. */
export type ReadReplicaSetInputs = z.output<typeof ReadReplicaSetFieldsSchema>;

/** Outputs of the provider: the observed set, named like the inputs, plus what the API adds. */
export interface ReadReplicaSetOutputs extends Omit<
  ReadReplicaSetInputs,
  "password" | "username" | "databaseName"
> {
  /** The service's password as given (secret); absent when none was given. */
  password?: string;
  /** Database user `connectionUri` names. */
  username?: string;
  /** Database `connectionUri` names. */
  databaseName?: string;
  /** `postgres://...?sslmode=require` to the set's read-only endpoint (secret), when `password` is given. */
  connectionUri?: string;
  /** Id of the set (the API's `id`). */
  replicaSetId: string;
  /** Project of the service, resolved. */
  projectId: string;
  /** creating, active, resizing, deleting or error. */
  status: string;
  /** Host and port of the set. */
  endpoint?: EndpointOutput;
  /** Host and port of the set's connection pooler, while enabled. */
  poolerEndpoint?: EndpointOutput;
}
