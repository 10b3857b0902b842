/**
 * New records of the emulated service, and the facts derived from them: compute entries, endpoint
 * hosts, and the password hash the state keeps instead of a password.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Environment, ServiceType } from "../../api/schemas";
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
