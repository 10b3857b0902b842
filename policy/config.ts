// Policy configuration: one JSON schema per configurable policy, with defaults.
//
// The Pulumi CLI fills in the `default` of each top-level property, validates the result against the
// schema, then hands it to the pack (`getConfig()`). Policies still merge the defaults here in
// `resolveConfig`, so that they behave the same under an older CLI and in unit tests.
// `enforcementLevel` is not part of these schemas: the CLI adds it to every policy by itself.

import type { PolicyConfigSchema } from "@pulumi/policy";
import { API_CPU_MILLIS, API_MEMORY_GBS, API_REPLICA_SET_NODES, ApiRange } from "./limits";

/** The bounds of a team limit on a size: within what the service itself takes (`limits.ts`). */
function withinApi(range: ApiRange): { minimum: number; maximum: number } {
  return { minimum: range.min, maximum: range.max };
}

/** Regions allowed by default: the regions where the managed database service runs today. */
export const DEFAULT_ALLOWED_REGIONS: readonly string[] = [
  "us-east-1",
  "us-east-2",
  "us-west-2",
  "ca-central-1",
  "sa-east-1",
  "eu-west-1",
  "eu-west-2",
  "eu-central-1",
  "ap-south-1",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-northeast-1",
];

/** Configuration of `mdb-allowed-regions`. */
export interface AllowedRegionsConfig {
  /** Region codes that services and VPCs may use. */
  allowedRegions: string[];
}

/** Schema of {@link AllowedRegionsConfig}. */
export const allowedRegionsSchema: PolicyConfigSchema = {
  properties: {
    allowedRegions: {
      type: "array",
      items: { type: "string", minLength: 1 },
      minItems: 1,
      uniqueItems: true,
      default: [...DEFAULT_ALLOWED_REGIONS],
      description: "Region codes (regionCode) that services and VPCs may use.",
    },
  },
};

/** Configuration of `mdb-service-size-limits`. */
export interface ServiceSizeLimitsConfig {
  /** Largest `cpuMillis` a service may have, in milli-cores. */
  maxCpuMillis: number;
  /** Largest `memoryGbs` a service may have, in GiB. */
  maxMemoryGbs: number;
}

/** Schema of {@link ServiceSizeLimitsConfig}. */
export const serviceSizeLimitsSchema: PolicyConfigSchema = {
  properties: {
    maxCpuMillis: {
      type: "integer",
      ...withinApi(API_CPU_MILLIS),
      default: 8000,
      description:
        "Largest cpuMillis (milli-cores) a service may have; the service itself takes 250 to 64000.",
    },
    maxMemoryGbs: {
      type: "integer",
      ...withinApi(API_MEMORY_GBS),
      default: 32,
      description: "Largest memoryGbs (GiB) a service may have; the service itself takes 1 to 1024.",
    },
  },
};

/** Configuration of `mdb-replica-set-size-limits`. */
export interface ReplicaSetSizeLimitsConfig {
  /** Largest `cpuMillis` of each node of a read replica set, in milli-cores. */
  maxCpuMillis: number;
  /** Largest `memoryGbs` of each node of a read replica set, in GiB. */
  maxMemoryGbs: number;
  /** Largest number of nodes of a read replica set. */
  maxNodes: number;
}

/** Schema of {@link ReplicaSetSizeLimitsConfig}. */
export const replicaSetSizeLimitsSchema: PolicyConfigSchema = {
  properties: {
    maxCpuMillis: {
      type: "integer",
      ...withinApi(API_CPU_MILLIS),
      default: 8000,
      description:
        "Largest cpuMillis (milli-cores) of each node of a read replica set; the service itself takes 250 to 64000.",
    },
    maxMemoryGbs: {
      type: "integer",
      ...withinApi(API_MEMORY_GBS),
      default: 32,
      description:
        "Largest memoryGbs (GiB) of each node of a read replica set; the service itself takes 1 to 1024.",
    },
    maxNodes: {
      type: "integer",
      ...withinApi(API_REPLICA_SET_NODES),
      default: 4,
      description: "Largest number of nodes of a read replica set; the service itself takes 1 to 10.",
    },
  },
};

/** Configuration of `mdb-vpc-cidr`. */
export interface VpcCidrConfig {
  /** Shortest prefix length allowed (largest block), e.g. 16 for /16. */
  minPrefixLength: number;
  /** Longest prefix length allowed (smallest block), e.g. 28 for /28. */
  maxPrefixLength: number;
}

/** Schema of {@link VpcCidrConfig}. */
export const vpcCidrSchema: PolicyConfigSchema = {
  properties: {
    minPrefixLength: {
      type: "integer",
      minimum: 8,
      maximum: 32,
      default: 16,
      description: "Shortest prefix length a VPC CIDR block may have (largest block), e.g. 16 for /16.",
    },
    maxPrefixLength: {
      type: "integer",
      minimum: 8,
      maximum: 32,
      default: 28,
      description: "Longest prefix length a VPC CIDR block may have (smallest block), e.g. 28 for /28.",
    },
  },
};

/**
 * The configuration a policy runs with: the schema's defaults, overridden by every value the user
 * set. `getConfig` is the one of the policy's validation args.
 */
export function resolveConfig<T extends object>(schema: PolicyConfigSchema, getConfig: () => Partial<T>): T {
  const resolved: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    if (typeof property === "object" && property.default !== undefined) {
      resolved[key] = property.default;
    }
  }
  for (const [key, value] of Object.entries(getConfig() ?? {})) {
    if (value !== undefined && value !== null) {
      resolved[key] = value;
    }
  }
  return resolved as T;
}
