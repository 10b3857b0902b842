/**
 * The camelCase inputs of the client methods that take more than a value or two, and their mapping
 * to the API's snake_case request bodies. Validation is the request schemas' (api/requests.ts).
 */
import type { RequestOf } from "../../api/operations";
import type * as s from "../../api/schemas";

/** Inputs of `MdbApi.createService`. */
export interface CreateServiceInput {
  /** Name of the service. */
  name: string;
  /** Service type; POSTGRES when absent. Sent as the matching add-on. */
  serviceType?: s.ServiceType;
  /** Region code, e.g. `us-east-1`. */
  regionCode: string;
  /** CPU in milli-cores. */
  cpuMillis: number;
  /** Memory in GB. */
  memoryGbs: number;
  /** Number of HA replicas, 0..2. */
  replicaCount?: number;
  /** Environment tag; DEV when absent. */
  environment?: s.Environment;
}

/** Inputs of `MdbApi.forkService`. */
export interface ForkServiceInput {
  /** How to fork: LAST_SNAPSHOT, NOW or PITR. */
  strategy: s.ForkStrategy;
  /** Point in time to fork at (ISO 8601), required for PITR. */
  targetTime?: string;
  /** Name of the fork. */
  name?: string;
  /** CPU of the fork in milli-cores; the source's when absent. */
  cpuMillis?: number;
  /** Memory of the fork in GB; the source's when absent. */
  memoryGbs?: number;
  /** Environment tag of the fork. */
  environment?: s.Environment;
}

/** Inputs of `MdbApi.setHA`: at least one of the two. */
export interface SetHaInput {
  /** Number of HA replicas, 0..2. */
  replicaCount?: number;
  /** How many of them replicate synchronously. */
  syncReplicaCount?: number;
}

/** Inputs of `MdbApi.createReplicaSet`. */
export interface CreateReplicaSetInput {
  /** Name of the replica set. */
  name: string;
  /** Number of nodes. */
  nodes: number;
  /** CPU per node in milli-cores. */
  cpuMillis: number;
  /** Memory per node in GB. */
  memoryGbs: number;
}

/** Inputs of `MdbApi.resizeReplicaSet`. */
export interface ResizeReplicaSetInput {
  /** CPU per node in milli-cores. */
  cpuMillis: number;
  /** Memory per node in GB. */
  memoryGbs: number;
  /** Number of nodes; unchanged when absent. */
  nodes?: number;
}

/** Inputs of `MdbApi.createVpc`. */
export interface CreateVpcInput {
  /** Name of the VPC. */
  name: string;
  /** Block in CIDR notation (IPv4 or IPv6). */
  cidr: string;
  /** Region code. */
  regionCode: string;
}

/** Inputs of `MdbApi.createPeering`. */
export interface CreatePeeringInput {
  /** Account of the peer. */
  peerAccountId: string;
  /** Region code of the peer. */
  peerRegionCode: string;
  /** VPC id of the peer. */
  peerVpcId: string;
}

/** The add-on that selects each service type (docs/api.md#requests); POSTGRES needs none. */
const ADDONS_OF_TYPE: Record<s.ServiceType, s.Addon[] | undefined> = {
  POSTGRES: undefined,
  TIMESERIESDB: ["time-series"],
  VECTOR: ["ai"],
};

/** Body of create service. */
export function createServiceBody(input: CreateServiceInput): RequestOf<"createService"> {
  return {
    name: input.name,
    addons: input.serviceType ? ADDONS_OF_TYPE[input.serviceType] : undefined,
    region_code: input.regionCode,
    replica_count: input.replicaCount,
    cpu_millis: input.cpuMillis,
    memory_gbs: input.memoryGbs,
    environment_tag: input.environment,
  };
}

/** Body of forkService. */
export function forkServiceBody(input: ForkServiceInput): RequestOf<"forkService"> {
  return {
    fork_strategy: input.strategy,
    target_time: input.targetTime,
    name: input.name,
    cpu_millis: input.cpuMillis,
    memory_gbs: input.memoryGbs,
    environment_tag: input.environment,
  };
}

/** Body of create read replica set. */
export function createReplicaSetBody(input: CreateReplicaSetInput): RequestOf<"createReplicaSet"> {
  return { name: input.name, nodes: input.nodes, cpu_millis: input.cpuMillis, memory_gbs: input.memoryGbs };
}

/** Body of create VPC. */
export function createVpcBody(input: CreateVpcInput): RequestOf<"createVpc"> {
  return { name: input.name, cidr: input.cidr, region_code: input.regionCode };
}

/** Body of create VPC peering. */
export function createPeeringBody(input: CreatePeeringInput): RequestOf<"createPeering"> {
  return {
    peer_account_id: input.peerAccountId,
    peer_region_code: input.peerRegionCode,
    peer_vpc_id: input.peerVpcId,
  };
}
