/** A service record as `Service` outputs (and the `getService` function) show it. */
import type { Service as ServiceRecord } from "../../client/schemas";
import { endpointOf } from "../../kit/outputs";
import type { ServiceInputs, ServiceOutputs } from "./args";

/** What a service's outputs keep that the API never returns (or returns only once). */
export interface ServiceMemory {
  /** The password set through this resource. */
  password?: string;
  /** The password the service was created with (only the create answer carries it). */
  initialPassword?: string;
  /** The fork source as given (the record knows only its source ids). */
  forkFrom?: ServiceInputs["forkFrom"];
  /** The inputs only the stack keeps (see `SERVICE_SETTINGS`). */
  deletionProtection?: boolean;
  /** Database user the connection outputs name. */
  username?: string;
  /** Database the connection outputs name. */
  databaseName?: string;
  /** Whether a delete forks the service first. */
  finalFork?: ServiceOutputs["finalFork"];
}

/** Inputs of a service that only the stack keeps: no record shows them, no call carries them. */
export const SERVICE_SETTINGS = ["deletionProtection", "username", "databaseName", "finalFork"] as const;

/** The outputs a service record shows; `kept` supplies what the API never returns. */
export function serviceOutputs(record: ServiceRecord, kept: ServiceMemory): ServiceOutputs {
  const spec = record.resources?.[0]?.spec;
  const forkedFrom = record.forked_from ?? undefined;
  const env = record.metadata?.environment;
  return {
    serviceId: record.service_id,
    projectId: record.project_id,
    name: record.name,
    serviceType: record.service_type as ServiceInputs["serviceType"],
    regionCode: record.region_code,
    cpuMillis: spec?.cpu_millis ?? 0,
    memoryGbs: spec?.memory_gbs ?? 0,
    replicaCount: record.ha_replicas?.replica_count ?? 0,
    syncReplicaCount: record.ha_replicas?.sync_replica_count ?? 0,
    environment: (env === "PROD" ? "PROD" : "DEV") as ServiceInputs["environment"],
    password: kept.password,
    connectionPooler: !!record.connection_pooler,
    vpcId: record.vpcEndpoint?.vpc_id ?? undefined,
    paused: record.paused ?? record.status === "PAUSED",
    forkFrom:
      kept.forkFrom ??
      (forkedFrom?.service_id
        ? ({
            serviceId: forkedFrom.service_id,
            projectId: forkedFrom.project_id,
          } as ServiceInputs["forkFrom"])
        : undefined),
    status: record.status,
    created: record.created,
    endpoint: endpointOf(record.endpoint),
    poolerEndpoint: endpointOf(record.connection_pooler?.endpoint),
    vpcEndpoint: record.vpcEndpoint
      ? { host: record.vpcEndpoint.host, port: record.vpcEndpoint.port, vpcId: record.vpcEndpoint.vpc_id }
      : undefined,
    resources: (record.resources ?? []).map((r) => ({
      id: r.id,
      cpuMillis: r.spec.cpu_millis,
      memoryGbs: r.spec.memory_gbs,
      volumeType: r.spec.volume_type,
    })),
    haReplicas: record.ha_replicas
      ? {
          replicaCount: record.ha_replicas.replica_count,
          syncReplicaCount: record.ha_replicas.sync_replica_count,
        }
      : undefined,
    forkedFrom: forkedFrom
      ? {
          projectId: forkedFrom.project_id,
          serviceId: forkedFrom.service_id,
          isStandby: forkedFrom.is_standby,
        }
      : undefined,
    readReplicaSets: (record.read_replica_sets ?? []).map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      nodes: r.nodes,
    })),
    initialPassword: kept.initialPassword,
    deletionProtection: kept.deletionProtection,
    finalFork: kept.finalFork,
  };
}
