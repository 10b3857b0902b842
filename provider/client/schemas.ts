/**
 * Zod schemas for every shape of the Managed Database Service Control API.
 *
 * Responses are parsed leniently: unknown fields are kept and unknown enum strings are
 * accepted, so a newer API does not break an older provider. Request bodies are
 * validated strictly, so a bad input fails here, before any call, naming the field.
 * These schemas describe the wire format (snake_case), shared by the client and the emulator.
 */
import { z } from "zod";

/** Accepts one of the known values, or any other string the API may add later. */
function lenientEnum<T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]);
}

/** Service types of the API. */
export const SERVICE_TYPES = ["TIMESERIESDB", "POSTGRES", "VECTOR"] as const;
/** Service type of the API: TIMESERIESDB, POSTGRES or VECTOR. */
export type ServiceType = (typeof SERVICE_TYPES)[number];

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

/** VPC peering statuses, as DESIGN.md fixes them (the spec does not list them). */
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

// ---------------------------------------------------------------------------------------
// Response shapes (lenient)
// ---------------------------------------------------------------------------------------

/** Host and port of a service, pooler or replica set. */
export const EndpointSchema = z.looseObject({
  host: z.string(),
  port: z.number().int(),
});
/** Host and port of a service, pooler or replica set. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** Element of a service's `resources`: the compute allocated to it. */
export const ResourceSchema = z.looseObject({
  id: z.string(),
  spec: z.looseObject({
    cpu_millis: z.number().int(),
    memory_gbs: z.number().int(),
    volume_type: z.string().optional(),
  }),
});
/** Element of a service's `resources`. */
export type Resource = z.infer<typeof ResourceSchema>;

/** `connection_pooler` of a service or replica set, present while the pooler is enabled. */
export const ConnectionPoolerSchema = z.looseObject({
  endpoint: EndpointSchema.optional(),
});

/** Environment metadata of a service or replica set. */
export const MetadataSchema = z.looseObject({
  environment: z.string().optional(),
});

/** A read replica set record. */
export const ReadReplicaSetSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: lenientEnum(REPLICA_SET_STATUSES),
  nodes: z.number().int(),
  cpu_millis: z.number().int(),
  memory_gbs: z.number().int(),
  metadata: MetadataSchema.optional(),
  endpoint: EndpointSchema.optional(),
  connection_pooler: ConnectionPoolerSchema.optional(),
});
/** A read replica set record. */
export type ReadReplicaSet = z.infer<typeof ReadReplicaSetSchema>;

/** `vpcEndpoint` of a service attached to a VPC (its fields are not shown by the spec). */
export const VpcEndpointSchema = z.looseObject({
  host: z.string().optional(),
  port: z.number().int().optional(),
  vpc_id: z.string().optional(),
});

/** `forked_from` of a forked service. */
export const ForkedFromSchema = z.looseObject({
  project_id: z.string().optional(),
  service_id: z.string().optional(),
  is_standby: z.boolean().optional(),
});

/** `ha_replicas` of a service. */
export const HaReplicasSchema = z.looseObject({
  sync_replica_count: z.number().int().optional(),
  replica_count: z.number().int().optional(),
});

/** A service record. */
export const ServiceSchema = z.looseObject({
  service_id: z.string(),
  project_id: z.string(),
  name: z.string(),
  region_code: z.string(),
  service_type: lenientEnum(SERVICE_TYPES),
  created: z.string().optional(),
  initial_password: z.string().optional(),
  paused: z.boolean().optional(),
  status: lenientEnum(SERVICE_STATUSES),
  resources: z.array(ResourceSchema).optional(),
  metadata: MetadataSchema.optional(),
  endpoint: EndpointSchema.optional(),
  vpcEndpoint: VpcEndpointSchema.nullable().optional(),
  forked_from: ForkedFromSchema.nullable().optional(),
  ha_replicas: HaReplicasSchema.nullable().optional(),
  connection_pooler: ConnectionPoolerSchema.nullable().optional(),
  read_replica_sets: z.array(ReadReplicaSetSchema).nullable().optional(),
});
/** A service record. */
export type Service = z.infer<typeof ServiceSchema>;

/** A VPC record. */
export const VpcSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  cidr: z.string(),
  region_code: z.string(),
});
/** A VPC record. */
export type Vpc = z.infer<typeof VpcSchema>;

/** A VPC peering record. */
export const VpcPeeringSchema = z.looseObject({
  id: z.string(),
  peer_account_id: z.string(),
  peer_region_code: z.string(),
  peer_vpc_id: z.string(),
  provisioned_id: z.string().nullable().optional(),
  status: lenientEnum(PEERING_STATUSES),
  error_message: z.string().nullable().optional(),
});
/** A VPC peering record. */
export type VpcPeering = z.infer<typeof VpcPeeringSchema>;

/** Answer of the asynchronous actions that report a message (attach, pooler, environment). */
export const ActionResultSchema = z.looseObject({
  message: z.string(),
});
/** Answer of an action that reports a message. */
export type ActionResult = z.infer<typeof ActionResultSchema>;

/** Answer of analytics identify and track. */
export const AnalyticsResultSchema = z.looseObject({
  status: z.string(),
});
/** Answer of analytics identify and track. */
export type AnalyticsResult = z.infer<typeof AnalyticsResultSchema>;

/** Body of every 4xx/5xx answer, and of delete replica set. */
export const ErrorBodySchema = z.looseObject({
  code: z.string(),
  message: z.string(),
});
/** Body of every error answer. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Answer of `GET /auth/info`: who the credentials belong to. */
export const AuthInfoSchema = z.looseObject({
  type: z.string(),
  apiKey: z.looseObject({
    public_key: z.string(),
    name: z.string().optional(),
    created: z.string().optional(),
    project: z.looseObject({
      id: z.string(),
      name: z.string().optional(),
      plan_type: z.string().optional(),
    }),
    issuing_user: z
      .looseObject({
        id: z.string().optional(),
        name: z.string().optional(),
        email: z.string().optional(),
      })
      .optional(),
  }),
});
/** Answer of `GET /auth/info`. */
export type AuthInfo = z.infer<typeof AuthInfoSchema>;

// ---------------------------------------------------------------------------------------
// Request bodies (strict)
// ---------------------------------------------------------------------------------------

/** A positive whole number (sizes, counts). */
const positiveInt = z.number().int().positive();
/** The service takes sizes as strings of digits; integers are accepted too. */
const sizeInput = z.union([positiveInt, z.string().regex(/^[1-9][0-9]*$/, "must be a string of digits")]);
/** A non-empty name without leading or trailing blanks. */
const nameInput = z
  .string()
  .min(1, "must not be empty")
  .max(128, "must be at most 128 characters")
  .refine((s) => s.trim() === s, "must not start or end with white space");
/** A non-empty identifier. */
const idInput = z.string().min(1, "must not be empty");

/** Body of create service. */
export const CreateServiceRequestSchema = z.strictObject({
  name: nameInput,
  addons: z.array(z.enum(ADDONS)).max(1, "at most one add-on").optional(),
  region_code: idInput,
  replica_count: z.number().int().min(0).max(2).optional(),
  cpu_millis: sizeInput,
  memory_gbs: sizeInput,
  environment_tag: z.enum(ENVIRONMENTS).optional(),
});
/** Body of create service. */
export type CreateServiceRequest = z.infer<typeof CreateServiceRequestSchema>;

/** Body of resize service. */
export const ResizeServiceRequestSchema = z.strictObject({
  cpu_millis: positiveInt,
  memory_gbs: positiveInt,
});
/** Body of resize service. */
export type ResizeServiceRequest = z.infer<typeof ResizeServiceRequestSchema>;

/** Body of setHA: at least one of the two counts. */
export const SetHaRequestSchema = z
  .strictObject({
    replica_count: z.number().int().min(0).max(2).optional(),
    sync_replica_count: z.number().int().min(0).max(2).optional(),
  })
  .refine((b) => b.replica_count !== undefined || b.sync_replica_count !== undefined, {
    message: "at least one of replica_count and sync_replica_count is required",
    path: ["replica_count"],
  });
/** Body of setHA. */
export type SetHaRequest = z.infer<typeof SetHaRequestSchema>;

/** Body of updatePassword. */
export const UpdatePasswordRequestSchema = z.strictObject({
  password: z.string().min(8, "must be at least 8 characters"),
});
/** Body of updatePassword. */
export type UpdatePasswordRequest = z.infer<typeof UpdatePasswordRequestSchema>;

/** Body of setEnvironment, for a service and for a replica set. */
export const SetEnvironmentRequestSchema = z.strictObject({
  environment: z.enum(ENVIRONMENTS),
});
/** Body of setEnvironment. */
export type SetEnvironmentRequest = z.infer<typeof SetEnvironmentRequestSchema>;

/** Body of attachToVPC and detachFromVPC. */
export const VpcAttachmentRequestSchema = z.strictObject({
  vpc_id: idInput,
});
/** Body of attachToVPC and detachFromVPC. */
export type VpcAttachmentRequest = z.infer<typeof VpcAttachmentRequestSchema>;

/** Body of forkService; `target_time` is required for PITR. */
export const ForkServiceRequestSchema = z
  .strictObject({
    fork_strategy: z.enum(FORK_STRATEGIES),
    target_time: z.iso.datetime({ offset: true }).optional(),
    name: nameInput.optional(),
    cpu_millis: sizeInput.optional(),
    memory_gbs: sizeInput.optional(),
    environment_tag: z.enum(ENVIRONMENTS).optional(),
  })
  .refine((b) => b.fork_strategy !== "PITR" || b.target_time !== undefined, {
    message: "is required when fork_strategy is PITR",
    path: ["target_time"],
  });
/** Body of forkService. */
export type ForkServiceRequest = z.infer<typeof ForkServiceRequestSchema>;

/** Body of create read replica set. */
export const CreateReplicaSetRequestSchema = z.strictObject({
  name: nameInput,
  nodes: positiveInt,
  cpu_millis: positiveInt,
  memory_gbs: positiveInt,
});
/** Body of create read replica set. */
export type CreateReplicaSetRequest = z.infer<typeof CreateReplicaSetRequestSchema>;

/** Body of resize read replica set. */
export const ResizeReplicaSetRequestSchema = z.strictObject({
  cpu_millis: positiveInt,
  memory_gbs: positiveInt,
  nodes: positiveInt.optional(),
});
/** Body of resize read replica set. */
export type ResizeReplicaSetRequest = z.infer<typeof ResizeReplicaSetRequestSchema>;

/** Body of create VPC. `cidr` must be an IPv4 block in CIDR notation. */
export const CreateVpcRequestSchema = z.strictObject({
  name: nameInput,
  cidr: z.cidrv4(),
  region_code: idInput,
});
/** Body of create VPC. */
export type CreateVpcRequest = z.infer<typeof CreateVpcRequestSchema>;

/** Body of rename VPC. */
export const RenameVpcRequestSchema = z.strictObject({
  name: nameInput,
});
/** Body of rename VPC. */
export type RenameVpcRequest = z.infer<typeof RenameVpcRequestSchema>;

/** Body of create VPC peering. */
export const CreatePeeringRequestSchema = z.strictObject({
  peer_account_id: idInput,
  peer_region_code: idInput,
  peer_vpc_id: idInput,
});
/** Body of create VPC peering. */
export type CreatePeeringRequest = z.infer<typeof CreatePeeringRequestSchema>;

/** Body of analytics identify. */
export const IdentifyRequestSchema = z.strictObject({
  properties: z.record(z.string(), z.unknown()).optional(),
});
/** Body of analytics identify. */
export type IdentifyRequest = z.infer<typeof IdentifyRequestSchema>;

/** Body of analytics track. */
export const TrackRequestSchema = z.strictObject({
  event: z.string().min(1, "must not be empty"),
  properties: z.record(z.string(), z.unknown()).optional(),
});
/** Body of analytics track. */
export type TrackRequest = z.infer<typeof TrackRequestSchema>;

/**
 * Formats zod issues as `field: message` lines, the form used by 400 answers and by
 * the client's request validation, so every failure names the offending field.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(body)"}: ${issue.message}`)
    .join("; ");
}
