/**
 * New records of the emulated service, and the facts derived from them: compute entries, endpoint
 * hosts, and the password hash the state keeps instead of a password.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  SHARED,
  SHARED_SIZE,
  isSharedSpec,
  type Environment,
  type ServiceType,
  type Shared,
} from "../../api/schemas";
import { invalidField } from "../errors";
import { DATABASE_PORT, DEFAULT_VOLUME_TYPE, ENDPOINT_DOMAIN } from "../defaults";
import { newPassword, newResourceId, newServiceId } from "../ids";
import type { EndpointData, ReplicaSetData, ServiceData } from "../store";

/** What a new service (created or forked) is made of. */
export interface NewService {
  projectId: string;
  name: string;
  regionCode: string;
  serviceType: ServiceType;
  /** Creation time, epoch milliseconds. */
  createdMs: number;
  cpuMillis: number;
  memoryGbs: number;
  /** Storage type; the default one when absent. */
  volumeType?: string;
  environment: Environment;
  replicaCount: number;
  forkedFrom: ServiceData["forked_from"];
}

/**
 * A new service, QUEUED with no pending steps, and its initial password (kept only hashed). Its
 * endpoint is known from the start: clients save connection details from the first answer.
 */
export function newService(fields: NewService): { service: ServiceData; password: string } {
  const password = newPassword();
  const service: ServiceData = {
    service_id: newServiceId(),
    project_id: fields.projectId,
    name: fields.name,
    region_code: fields.regionCode,
    service_type: fields.serviceType,
    created: new Date(fields.createdMs).toISOString(),
    status: "QUEUED",
    paused: false,
    resources: [resource(fields.cpuMillis, fields.memoryGbs, undefined, fields.volumeType)],
    metadata: { environment: fields.environment },
    endpoint: null,
    vpcEndpoint: null,
    forked_from: fields.forkedFrom,
    ha_replicas: { replica_count: fields.replicaCount, sync_replica_count: 0 },
    connection_pooler: null,
    password_hash: hashPassword(password),
    attached_vpc_id: null,
    read_replica_sets: [],
    steps: [],
  };
  service.endpoint = serviceEndpoint(service);
  return { service, password };
}

/** The compute entry of a service. */
export function resource(
  cpuMillis: number,
  memoryGbs: number,
  id = newResourceId(),
  volumeType = DEFAULT_VOLUME_TYPE,
): ServiceData["resources"][number] {
  return { id, spec: { cpu_millis: cpuMillis, memory_gbs: memoryGbs, volume_type: volumeType } };
}

/** Host of a service's endpoints (database and pooler). */
export function serviceHost(service: ServiceData): string {
  return `${service.service_id}.${service.project_id}.db.${ENDPOINT_DOMAIN}`;
}

/** The database endpoint of a service. */
export function serviceEndpoint(service: ServiceData): EndpointData {
  return { host: serviceHost(service), port: DATABASE_PORT };
}

/** Host of a replica set's endpoints (database and pooler). */
export function replicaSetHost(service: ServiceData, replicaSet: ReplicaSetData): string {
  return `${replicaSet.id}.${service.service_id}.${service.project_id}.db.${ENDPOINT_DOMAIN}`;
}

/** Salted SHA-256, `salt:hex`: the state file never holds a usable password. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16).toString("hex");
  return `${salt}:${createHash("sha256")
    .update(salt + password)
    .digest("hex")}`;
}

/** True when `password` matches a hash made by {@link hashPassword}. */
export function checkPassword(stored: string, password: string): boolean {
  const [salt, digest] = stored.split(":");
  const actual = createHash("sha256")
    .update(salt + password)
    .digest();
  return timingSafeEqual(actual, Buffer.from(digest, "hex"));
}

/** Compute sizes of a service: milli-cores and gigabytes, both SHARED_SIZE for shared resources. */
export interface Sizes {
  cpu_millis: number;
  memory_gbs: number;
}

/**
 * The sizes a create, fork or resize asks for (docs/api.md#shared-resources): `"shared"` (always
 * both, the request schemas see to it) gives shared resources, a size left out keeps `current`'s.
 * A shared service has no dedicated size to keep, so a change that gives one size only is a 400
 * naming the other; `why` ends its message ("to resize a service with shared resources").
 */
export function requestedSizes(
  requested: { cpu_millis?: number | Shared; memory_gbs?: number | Shared },
  current: Sizes,
  why: string,
): Sizes {
  if (requested.cpu_millis === SHARED || requested.memory_gbs === SHARED) {
    return { cpu_millis: SHARED_SIZE, memory_gbs: SHARED_SIZE };
  }
  const { cpu_millis, memory_gbs } = requested;
  if (isSharedSpec(current) && (cpu_millis === undefined) !== (memory_gbs === undefined)) {
    throw invalidField(cpu_millis === undefined ? "cpu_millis" : "memory_gbs", `is required ${why}`);
  }
  return { cpu_millis: cpu_millis ?? current.cpu_millis, memory_gbs: memory_gbs ?? current.memory_gbs };
}
