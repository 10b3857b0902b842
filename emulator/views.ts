/**
 * Wire views of the stored records: the fields of the spec, in its order, without the emulator's
 * internals (pending steps, password hash) and without absent optional fields.
 */
import type { ServiceStatus } from "../api/enums";
import type { ReadReplicaSet, Service, Vpc, VpcPeering } from "../api/schemas";
import type { PeeringData, ReplicaSetData, ServiceData, VpcData } from "./store";

/** A read replica set as the API returns it; `error_message` says why a set is in `error`. */
export function replicaSetView(replicaSet: ReplicaSetData): ReadReplicaSet {
  return {
    id: replicaSet.id,
    name: replicaSet.name,
    status: replicaSet.status,
    nodes: replicaSet.nodes,
    cpu_millis: replicaSet.cpu_millis,
    memory_gbs: replicaSet.memory_gbs,
    metadata: { ...replicaSet.metadata },
    ...(replicaSet.endpoint ? { endpoint: { ...replicaSet.endpoint } } : {}),
    ...(replicaSet.connection_pooler
      ? { connection_pooler: structuredClone(replicaSet.connection_pooler) }
      : {}),
    ...(replicaSet.error_message ? { error_message: replicaSet.error_message } : {}),
  };
}

/**
 * A service as the API returns it. `initialPassword` is given only by create and fork, the only
 * answers that carry `initial_password`. An UNSTABLE service says why in `error_message` (an
 * extension, docs/api.md#extensions).
 */
export function serviceView(service: ServiceData, initialPassword?: string): Service {
  return {
    service_id: service.service_id,
    project_id: service.project_id,
    name: service.name,
    region_code: service.region_code,
    service_type: service.service_type,
    created: service.created,
    ...(initialPassword !== undefined ? { initial_password: initialPassword } : {}),
    paused: service.paused,
    status: service.status,
    resources: structuredClone(service.resources),
    metadata: { ...service.metadata },
    ...(service.endpoint ? { endpoint: { ...service.endpoint } } : {}),
    ...(service.vpcEndpoint ? { vpcEndpoint: { ...service.vpcEndpoint } } : {}),
    ...(service.forked_from ? { forked_from: { ...service.forked_from } } : {}),
    ha_replicas: { ...service.ha_replicas },
    ...(service.connection_pooler ? { connection_pooler: structuredClone(service.connection_pooler) } : {}),
    read_replica_sets: service.read_replica_sets.map(replicaSetView),
    ...(service.status === "UNSTABLE" && service.error_message
      ? { error_message: service.error_message }
      : {}),
  };
}

/** The service status a read replica set's status reads as, when the set is read as a Service. */
const STANDBY_STATUS: Record<ReplicaSetData["status"], ServiceStatus> = {
  creating: "QUEUED",
  active: "READY",
  resizing: "CONFIGURING",
  deleting: "DELETING",
  error: "UNSTABLE",
};

/**
 * A read replica set read as a Service, as the vendor's current API answers `GET
 * /services/{replica set id}` (docs/api.md#dialects): the set's id, name, sizes, endpoint and pooler,
 * `forked_from` naming its service with `is_standby: true`, and the service's region and type.
 * `created` is the service's: the emulator keeps no creation time of a replica set.
 */
export function standbyServiceView(service: ServiceData, replicaSet: ReplicaSetData): Service {
  return {
    service_id: replicaSet.id,
    project_id: service.project_id,
    name: replicaSet.name,
    region_code: service.region_code,
    service_type: service.service_type,
    created: service.created,
    paused: false,
    status: STANDBY_STATUS[replicaSet.status],
    resources: [
      {
        id: replicaSet.id,
        spec: { cpu_millis: replicaSet.cpu_millis, memory_gbs: replicaSet.memory_gbs },
      },
    ],
    metadata: { ...replicaSet.metadata },
    ...(replicaSet.endpoint ? { endpoint: { ...replicaSet.endpoint } } : {}),
    forked_from: { project_id: service.project_id, service_id: service.service_id, is_standby: true },
    ...(replicaSet.connection_pooler
      ? { connection_pooler: structuredClone(replicaSet.connection_pooler) }
      : {}),
  };
}

/** A VPC as the API returns it. */
export function vpcView(vpc: VpcData): Vpc {
  return { id: vpc.id, name: vpc.name, cidr: vpc.cidr, region_code: vpc.region_code };
}

/** A VPC peering as the API returns it; `provisioned_id` once active, `error_message` once failed. */
export function peeringView(peering: PeeringData): VpcPeering {
  return {
    id: peering.id,
    peer_account_id: peering.peer_account_id,
    peer_region_code: peering.peer_region_code,
    peer_vpc_id: peering.peer_vpc_id,
    ...(peering.provisioned_id ? { provisioned_id: peering.provisioned_id } : {}),
    status: peering.status,
    ...(peering.error_message ? { error_message: peering.error_message } : {}),
  };
}
