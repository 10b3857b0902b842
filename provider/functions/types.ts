/**
 * What the functions take and give: their arguments (plain, for the async forms) and their
 * results, which are the resources' own outputs (camelCase, without secrets).
 */
import type { ReadReplicaSetOutputs } from "../resources/read-replica-set/fields";
import type { ServiceOutputs } from "../resources/service/fields";
import type { VpcOutputs } from "../resources/vpc/fields";
import type { VpcPeeringOutputs } from "../resources/vpc-peering/fields";

// ---------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------

/** The project of a call. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. */
export interface ProjectArgs {
  /** Project to look in. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. */
  projectId?: string;
}

/**
 * Which service {@link getService} returns: by `serviceId`, or by `name` (exactly one of the
 * two; a name must match exactly one service of the project).
 */
export type GetServiceArgs = ProjectArgs &
  (
    | { /** Id of the service. */ serviceId: string; name?: undefined }
    | { /** Exact name of the service. */ name: string; serviceId?: undefined }
  );

/**
 * Which VPC {@link getVpc} returns: by `vpcId`, or by `name` (exactly one of the two; a name
 * must match exactly one VPC of the project).
 */
export type GetVpcArgs = ProjectArgs &
  (
    | { /** Id of the VPC. */ vpcId: string; name?: undefined }
    | { /** Exact name of the VPC. */ name: string; vpcId?: undefined }
  );

/** A service, for the functions about its replica sets. */
export interface ServiceScopeArgs extends ProjectArgs {
  /** Id of the service. */
  serviceId: string;
}

/** A VPC, for the functions about its peerings. */
export interface VpcScopeArgs extends ProjectArgs {
  /** Id of the VPC. */
  vpcId: string;
}

/** One peering of a VPC. */
export interface GetVpcPeeringArgs extends VpcScopeArgs {
  /** Id of the peering. */
  peeringId: string;
}

/** What {@link identify} sends. */
export interface IdentifyArgs {
  /** Properties to associate with the calling user. */
  properties?: Record<string, unknown>;
}

/** What {@link track} sends. */
export interface TrackArgs {
  /** Name of the event. */
  event: string;
  /** Properties of the event. */
  properties?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

/** Who the API key belongs to, as `GET /auth/info` tells. */
export interface AuthInfoResult {
  /** Kind of credential, e.g. `apiKey`. */
  type: string;
  /** The public key in use. */
  publicKey: string;
  /** Name of the key. */
  name?: string;
  /** When the key was created (ISO 8601). */
  created?: string;
  /** Project the key belongs to: the default project of every call. */
  project: { id: string; name?: string; planType?: string };
  /** User who issued the key. */
  issuingUser?: { id?: string; name?: string; email?: string };
}

/** A project the API key reaches, as {@link getProjects} returns it. */
export interface ProjectResult {
  /** Id of the project: a `projectId` for the resources and the other functions. */
  id: string;
  /** Name of the project, when the API says. */
  name?: string;
}

/** A service as {@link getService} and {@link listServices} return it: the `Service` resource's outputs, without secrets. */
export type ServiceResult = Omit<
  ServiceOutputs,
  "password" | "initialPassword" | "connectionUri" | "poolerConnectionUri" | "vpcConnectionUri" | "pgEnv"
>;

/** A read replica set, as the `ReadReplicaSet` resource's outputs. */
export type ReadReplicaSetResult = Omit<ReadReplicaSetOutputs, "password" | "connectionUri">;

/** A VPC, as the `Vpc` resource's outputs. */
export type VpcResult = VpcOutputs;

/** A VPC peering, as the `VpcPeering` resource's outputs. */
export type VpcPeeringResult = VpcPeeringOutputs;

/** Answer of the analytics calls. */
export interface AnalyticsResult {
  /** Status the API reports, e.g. `success`. */
  status: string;
}
