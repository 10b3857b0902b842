/**
 * What the functions take and give, declared once as data (zod, each field with its doc
 * comment): their arguments (plain, for the async forms) and their results, which are the
 * resources' own outputs (camelCase, without secrets, made from the field tables). The
 * TypeScript types are inferred from these; the package schema is generated from them.
 */
import { z } from "zod";
import { publicOutputs } from "../kit/fields/public-outputs";
import { named } from "../kit/fields/type-facts";
import { READ_REPLICA_SET } from "../resources/read-replica-set/fields";
import { SERVICE } from "../resources/service/fields";
import { VPC } from "../resources/vpc/fields";
import { VPC_PEERING } from "../resources/vpc-peering/fields";

// ---------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------

/** The project of a call. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. */
export const projectArgs = z.object({
  /** Project to look in. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. */
  projectId: z.string().optional(),
});

/** The project of a call. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. */
export type ProjectArgs = z.output<typeof projectArgs>;

/**
 * Which service {@link getService} returns: by `serviceId`, or by `name` (exactly one of the
 * two; a name must match exactly one service of the project).
 */
export const getServiceArgs = z.union([
  projectArgs.extend({
    /** Id of the service. Give it or `name`, not both. */
    serviceId: z.string(),
    /** Exact name of the service. Give it or `serviceId`, not both. */
    name: z.undefined().optional(),
  }),
  projectArgs.extend({
    /** Exact name of the service. Give it or `serviceId`, not both. */
    name: z.string(),
    /** Id of the service. Give it or `name`, not both. */
    serviceId: z.undefined().optional(),
  }),
]);

/**
 * Which service {@link getService} returns: by `serviceId`, or by `name` (exactly one of the
 * two; a name must match exactly one service of the project).
 */
export type GetServiceArgs = z.output<typeof getServiceArgs>;

/**
 * Which VPC {@link getVpc} returns: by `vpcId`, or by `name` (exactly one of the two; a name
 * must match exactly one VPC of the project).
 */
export const getVpcArgs = z.union([
  projectArgs.extend({
    /** Id of the VPC. Give it or `name`, not both. */
    vpcId: z.string(),
    /** Exact name of the VPC. Give it or `vpcId`, not both. */
    name: z.undefined().optional(),
  }),
  projectArgs.extend({
    /** Exact name of the VPC. Give it or `vpcId`, not both. */
    name: z.string(),
    /** Id of the VPC. Give it or `name`, not both. */
    vpcId: z.undefined().optional(),
  }),
]);

/**
 * Which VPC {@link getVpc} returns: by `vpcId`, or by `name` (exactly one of the two; a name
 * must match exactly one VPC of the project).
 */
export type GetVpcArgs = z.output<typeof getVpcArgs>;

/** A service, for the functions about its replica sets. */
export const serviceScopeArgs = projectArgs.extend({
  /** Id of the service. */
  serviceId: z.string(),
});

/** A service, for the functions about its replica sets. */
export type ServiceScopeArgs = z.output<typeof serviceScopeArgs>;

/** A VPC, for the functions about its peerings. */
export const vpcScopeArgs = projectArgs.extend({
  /** Id of the VPC. */
  vpcId: z.string(),
});

/** A VPC, for the functions about its peerings. */
export type VpcScopeArgs = z.output<typeof vpcScopeArgs>;

/** One peering of a VPC. */
export const getVpcPeeringArgs = vpcScopeArgs.extend({
  /** Id of the peering. */
  peeringId: z.string(),
});

/** One peering of a VPC. */
export type GetVpcPeeringArgs = z.output<typeof getVpcPeeringArgs>;

/** What {@link identify} sends. */
export const identifyArgs = z.object({
  /** Properties to associate with the calling user. */
  properties: z.record(z.string(), z.unknown()).optional(),
});

/** What {@link identify} sends. */
export type IdentifyArgs = z.output<typeof identifyArgs>;

/** What {@link track} sends. */
export const trackArgs = z.object({
  /** Name of the event. */
  event: z.string(),
  /** Properties of the event. */
  properties: z.record(z.string(), z.unknown()).optional(),
});

/** What {@link track} sends. */
export type TrackArgs = z.output<typeof trackArgs>;

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

/** The project an API key belongs to. */
export const authInfoProject = named(
  "AuthInfoProject",
  z.object({
    /** Id of the project. */
    id: z.string(),
    /** Name of the project. */
    name: z.string().optional(),
    /** The project's plan. */
    planType: z.string().optional(),
  }),
);

/** The user who issued an API key. */
export const authInfoUser = named(
  "AuthInfoUser",
  z.object({
    /** Id of the user. */
    id: z.string().optional(),
    /** Name of the user. */
    name: z.string().optional(),
    /** Email address of the user. */
    email: z.string().optional(),
  }),
);

/** Who the API key belongs to, as `GET /auth/info` tells. */
export const authInfoResult = named(
  "AuthInfo",
  z.object({
    /** Kind of credential, e.g. `apiKey`. */
    type: z.string(),
    /** The public key in use. */
    publicKey: z.string(),
    /** Name of the key. */
    name: z.string().optional(),
    /** When the key was created (ISO 8601). */
    created: z.string().optional(),
    /** Project the key belongs to: the default project of every call. */
    project: authInfoProject,
    /** User who issued the key. */
    issuingUser: authInfoUser.optional(),
  }),
);

/** Who the API key belongs to, as `GET /auth/info` tells. */
export type AuthInfoResult = z.output<typeof authInfoResult>;

/** A project the API key reaches, as {@link getProjects} returns it. */
export const projectResult = named(
  "Project",
  z.object({
    /** Id of the project: a `projectId` for the resources and the other functions. */
    id: z.string(),
    /** Name of the project, when the API says. */
    name: z.string().optional(),
  }),
);

/** A project the API key reaches, as {@link getProjects} returns it. */
export type ProjectResult = z.output<typeof projectResult>;

/** A service as {@link getService} and {@link listServices} return it: the `Service` resource's outputs, without secrets. */
export const serviceResult = publicOutputs("ServiceResult", SERVICE);

/** A service as {@link getService} and {@link listServices} return it: the `Service` resource's outputs, without secrets. */
export type ServiceResult = z.output<typeof serviceResult>;

/** A read replica set, as the `ReadReplicaSet` resource's outputs, without secrets. */
export const readReplicaSetResult = publicOutputs("ReadReplicaSetResult", READ_REPLICA_SET);

/** A read replica set, as the `ReadReplicaSet` resource's outputs, without secrets. */
export type ReadReplicaSetResult = z.output<typeof readReplicaSetResult>;

/** A VPC, as the `Vpc` resource's outputs. */
export const vpcResult = publicOutputs("VpcResult", VPC);

/** A VPC, as the `Vpc` resource's outputs. */
export type VpcResult = z.output<typeof vpcResult>;

/** A VPC peering, as the `VpcPeering` resource's outputs. */
export const vpcPeeringResult = publicOutputs("VpcPeeringResult", VPC_PEERING);

/** A VPC peering, as the `VpcPeering` resource's outputs. */
export type VpcPeeringResult = z.output<typeof vpcPeeringResult>;

/** Answer of the analytics calls. */
export const analyticsResult = named(
  "AnalyticsResult",
  z.object({
    /** Status the API reports, e.g. `success`. */
    status: z.string(),
  }),
);

/** Answer of the analytics calls. */
export type AnalyticsResult = z.output<typeof analyticsResult>;
