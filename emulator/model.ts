/**
 * The emulated service's behaviour, apart from HTTP (moto's "models"): one method per operation of
 * the API, taking validated request bodies and returning wire records. It looks records up
 * (404), applies the state-dependent rules (400, 409 through `lifecycle.ts`), changes the store and
 * commits it. Every method first advances all lifecycles to the present.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import type {
  Addon,
  CreatePeeringRequest,
  CreateReplicaSetRequest,
  CreateVpcRequest,
  Environment,
  ForkServiceRequest,
  ReadReplicaSet,
  RenameVpcRequest,
  ResizeReplicaSetRequest,
  ResizeServiceRequest,
  Service,
  ServiceType,
  SetHaRequest,
  Vpc,
  VpcPeering,
} from "../provider/client/schemas";
import {
  DATABASE_PORT,
  DEFAULT_CPU_MILLIS,
  DEFAULT_MEMORY_GBS,
  DEFAULT_REGION_CODE,
  DEFAULT_VOLUME_TYPE,
  ENDPOINT_DOMAIN,
  POOLER_PORT,
} from "./defaults";
import { ApiError, conflict, invalidField, notFound } from "./errors";
import {
  newPassword,
  newPeeringId,
  newProvisionedId,
  newReplicaSetId,
  newResourceId,
  newServiceId,
  newVpcId,
} from "./ids";
import {
  advance,
  beginPausing,
  beginPeering,
  beginProvisioning,
  beginReconfiguring,
  beginReplicaSetCreation,
  beginReplicaSetDeletion,
  beginReplicaSetResize,
  beginResuming,
  beginServiceDeletion,
  checkReplicaSetAction,
  checkServiceAction,
  failReplicaSet,
} from "./lifecycle";
import type { PeeringData, ProjectData, ReplicaSetData, ServiceData, Store, VpcData } from "./store";
import type { CreateServiceBody } from "./validation";
import { peeringView, replicaSetView, serviceView, vpcView } from "./views";

/** Create service body after validation (sizes may still be strings of digits). */
export type CreateServiceInput = z.output<typeof CreateServiceBody>;

/** Options of the model. */
export interface ModelOptions {
  /** Where the records live. */
  store: Store;
  /** Duration of each lifecycle step, in milliseconds. */
  transitionMs: number;
  /** Clock in epoch milliseconds; `Date.now` by default (tests may pass a fake one). */
  now?: () => number;
}

/** Peers whose VPC id starts with this cannot be reached: their peerings end `failed`. */
export const UNREACHABLE_PEER_PREFIX = "unreachable";

/** The emulated service. */
export class Model {
  /** Duration of each lifecycle step, in milliseconds; applies to actions accepted from now on. */
  transitionMs: number;
  private readonly store: Store;
  private readonly now: () => number;

  constructor(options: ModelOptions) {
    this.store = options.store;
    this.transitionMs = options.transitionMs;
    this.now = options.now ?? Date.now;
  }

  // -------------------------------------------------------------------------------------------
  // Services
  // -------------------------------------------------------------------------------------------

  /** Every service of the project, oldest first. */
  listServices(projectId: string): Service[] {
    return this.settled(projectId).services.map((s) => serviceView(s));
  }

  /** Creates a service (QUEUED); the answer is the only one besides fork with `initial_password`. */
  createService(projectId: string, body: CreateServiceInput): Service {
    const project = this.settled(projectId);
    const now = this.now();
    const password = newPassword();
    const service: ServiceData = {
      service_id: newServiceId(),
      project_id: projectId,
      name: body.name,
      region_code: body.region_code ?? DEFAULT_REGION_CODE,
      service_type: serviceTypeOf(body.addons),
      created: new Date(now).toISOString(),
      status: "QUEUED",
      paused: false,
      resources: [resource(body.cpu_millis ?? DEFAULT_CPU_MILLIS, body.memory_gbs ?? DEFAULT_MEMORY_GBS)],
      metadata: { environment: body.environment_tag ?? "DEV" },
      endpoint: null,
      vpcEndpoint: null,
      forked_from: null,
      ha_replicas: { replica_count: body.replica_count ?? 0, sync_replica_count: 0 },
      connection_pooler: null,
      password_hash: hashPassword(password),
      attached_vpc_id: null,
      read_replica_sets: [],
      steps: [],
    };
    beginProvisioning(service, now, this.transitionMs, { endpoint: serviceEndpoint(service) });
    project.services.push(service);
    this.store.commit();
    return serviceView(service, password);
  }

  /** One service. */
  getService(projectId: string, serviceId: string): Service {
    return serviceView(this.service(projectId, serviceId));
  }

  /** Deletes a service and its replica sets: DELETING, then gone. A repeat is accepted. */
  deleteService(projectId: string, serviceId: string): void {
    const service = this.service(projectId, serviceId);
    if (checkServiceAction(service, "delete") === "noop") return;
    beginServiceDeletion(service, this.now(), this.transitionMs);
    this.store.commit();
  }

  /** Stops a READY service (PAUSING, then PAUSED); a paused or pausing one is left as it is. */
  stopService(projectId: string, serviceId: string): Service {
    const service = this.service(projectId, serviceId);
    if (checkServiceAction(service, "stop") === "run") {
      beginPausing(service, this.now(), this.transitionMs);
      this.store.commit();
    }
    return serviceView(service);
  }

  /** Starts a PAUSED service (RESUMING, then READY); a running or resuming one is left as it is. */
  startService(projectId: string, serviceId: string): Service {
    const service = this.service(projectId, serviceId);
    if (checkServiceAction(service, "start") === "run") {
      beginResuming(service, this.now(), this.transitionMs);
      this.store.commit();
    }
    return serviceView(service);
  }

  /** Resizes a READY service; the new size shows in `resources` once READY again. */
  resizeService(projectId: string, serviceId: string, body: ResizeServiceRequest): void {
    const service = this.service(projectId, serviceId);
    checkServiceAction(service, "resize");
    const [current] = service.resources;
    const resized = resource(body.cpu_millis, body.memory_gbs, current?.id, current?.spec.volume_type);
    beginReconfiguring(service, this.now(), this.transitionMs, { resources: [resized] });
    this.store.commit();
  }

  /** Replaces the password of a READY or PAUSED service (kept hashed, never returned). */
  updatePassword(projectId: string, serviceId: string, password: string): void {
    const service = this.service(projectId, serviceId);
    checkServiceAction(service, "updatePassword");
    service.password_hash = hashPassword(password);
    this.store.commit();
  }

  /** True when `password` is the service's current password (for in-process tests). */
  verifyPassword(projectId: string, serviceId: string, password: string): boolean {
    return checkPassword(this.service(projectId, serviceId).password_hash, password);
  }

  /** Sets `metadata.environment` at once, in any state but DELETING. */
  setServiceEnvironment(projectId: string, serviceId: string, environment: Environment): string {
    const service = this.service(projectId, serviceId);
    checkServiceAction(service, "setEnvironment");
    service.metadata.environment = environment;
    this.store.commit();
    return `environment of service ${serviceId} set to ${environment}`;
  }

  /**
   * Changes the HA replicas of a READY service; a count left out keeps its current value, and the
   * synchronous replicas cannot outnumber the replicas. Takes effect once READY again.
   */
  setHA(projectId: string, serviceId: string, body: SetHaRequest): Service {
    const service = this.service(projectId, serviceId);
    const replicaCount = body.replica_count ?? service.ha_replicas.replica_count;
    const syncReplicaCount = body.sync_replica_count ?? service.ha_replicas.sync_replica_count;
    if (syncReplicaCount > replicaCount) {
      throw invalidField(
        "sync_replica_count",
        `must not exceed replica_count (${syncReplicaCount} > ${replicaCount})`,
      );
    }
    checkServiceAction(service, "setHA");
    beginReconfiguring(service, this.now(), this.transitionMs, {
      ha_replicas: { replica_count: replicaCount, sync_replica_count: syncReplicaCount },
    });
    this.store.commit();
    return serviceView(service);
  }

  /** Enables the connection pooler (port 6432) of a READY or PAUSED service, at once. */
  enableServicePooler(projectId: string, serviceId: string): string {
    const service = this.service(projectId, serviceId);
    checkServiceAction(service, "enablePooler");
    service.connection_pooler = { endpoint: { host: serviceHost(service), port: POOLER_PORT } };
    this.store.commit();
    return `connection pooler of service ${serviceId} enabled`;
  }

  /** Disables the connection pooler of a READY or PAUSED service, at once. */
  disableServicePooler(projectId: string, serviceId: string): string {
    const service = this.service(projectId, serviceId);
    checkServiceAction(service, "disablePooler");
    service.connection_pooler = null;
    this.store.commit();
    return `connection pooler of service ${serviceId} disabled`;
  }

  /**
   * Forks a READY service into a new one (QUEUED) of the same type, region and storage, with no
   * HA replicas. PITR needs a `target_time` between the source's creation and now.
   */
  forkService(projectId: string, serviceId: string, body: ForkServiceRequest): Service {
    const project = this.settled(projectId);
    const source = this.service(projectId, serviceId);
    const now = this.now();
    if (body.fork_strategy === "PITR" && body.target_time !== undefined) {
      const target = Date.parse(body.target_time);
      if (target > now) throw invalidField("target_time", "must not be in the future");
      if (target < Date.parse(source.created)) {
        throw invalidField("target_time", `must not be before the source was created (${source.created})`);
      }
    }
    checkServiceAction(source, "fork");
    const [sourceResource] = source.resources;
    const password = newPassword();
    const fork: ServiceData = {
      service_id: newServiceId(),
      project_id: projectId,
      name: body.name ?? `${source.name}-fork`,
      region_code: source.region_code,
      service_type: source.service_type,
      created: new Date(now).toISOString(),
      status: "QUEUED",
      paused: false,
      resources: [
        resource(
          body.cpu_millis ?? sourceResource?.spec.cpu_millis ?? DEFAULT_CPU_MILLIS,
          body.memory_gbs ?? sourceResource?.spec.memory_gbs ?? DEFAULT_MEMORY_GBS,
          undefined,
          sourceResource?.spec.volume_type,
        ),
      ],
      metadata: { environment: body.environment_tag ?? "DEV" },
      endpoint: null,
      vpcEndpoint: null,
      forked_from: { project_id: projectId, service_id: source.service_id, is_standby: false },
      ha_replicas: { replica_count: 0, sync_replica_count: 0 },
      connection_pooler: null,
      password_hash: hashPassword(password),
      attached_vpc_id: null,
      read_replica_sets: [],
      steps: [],
    };
    beginProvisioning(fork, now, this.transitionMs, { endpoint: serviceEndpoint(fork) });
    project.services.push(fork);
    this.store.commit();
    return serviceView(fork, password);
  }

  /**
   * Attaches a READY service to a VPC of its region; `vpcEndpoint` appears once READY again.
   * Attaching again to the same VPC changes nothing; another VPC needs a detach first.
   */
  attachToVpc(projectId: string, serviceId: string, vpcId: string): string {
    const service = this.service(projectId, serviceId);
    const vpc = this.findVpc(projectId, vpcId, "vpc_id: ");
    if (vpc.region_code !== service.region_code) {
      throw invalidField(
        "vpc_id",
        `VPC ${vpcId} is in region ${vpc.region_code}, service ${serviceId} in ${service.region_code}`,
      );
    }
    if (service.attached_vpc_id === vpcId) return `service ${serviceId} is already attached to VPC ${vpcId}`;
    if (service.attached_vpc_id !== null) {
      throw conflict(`service ${serviceId} is attached to VPC ${service.attached_vpc_id}; detach it first`);
    }
    checkServiceAction(service, "attachToVPC");
    service.attached_vpc_id = vpcId;
    beginReconfiguring(service, this.now(), this.transitionMs, {
      vpcEndpoint: {
        host: `${service.service_id}.${vpcId}.vpc.${ENDPOINT_DOMAIN}`,
        port: DATABASE_PORT,
        vpc_id: vpcId,
      },
    });
    this.store.commit();
    return `service ${serviceId} is being attached to VPC ${vpcId}`;
  }

  /** Detaches a READY service from the VPC it is attached to; `vpcEndpoint` goes once READY again. */
  detachFromVpc(projectId: string, serviceId: string, vpcId: string): string {
    const service = this.service(projectId, serviceId);
    this.findVpc(projectId, vpcId, "vpc_id: ");
    if (service.attached_vpc_id !== vpcId) {
      throw conflict(`service ${serviceId} is not attached to VPC ${vpcId}`);
    }
    checkServiceAction(service, "detachFromVPC");
    service.attached_vpc_id = null;
    beginReconfiguring(service, this.now(), this.transitionMs, { vpcEndpoint: null });
    this.store.commit();
    return `service ${serviceId} is being detached from VPC ${vpcId}`;
  }

  // -------------------------------------------------------------------------------------------
  // Read replica sets
  // -------------------------------------------------------------------------------------------

  /** The replica sets of a service. */
  listReplicaSets(projectId: string, serviceId: string): ReadReplicaSet[] {
    return this.service(projectId, serviceId).read_replica_sets.map(replicaSetView);
  }

  /** Creates a replica set of a READY service: creating, then active with an endpoint. */
  createReplicaSet(projectId: string, serviceId: string, body: CreateReplicaSetRequest): ReadReplicaSet {
    const service = this.service(projectId, serviceId);
    checkServiceAction(service, "createReplicaSet");
    const replicaSet: ReplicaSetData = {
      id: newReplicaSetId(),
      name: body.name,
      status: "creating",
      nodes: body.nodes,
      cpu_millis: body.cpu_millis,
      memory_gbs: body.memory_gbs,
      metadata: { environment: service.metadata.environment },
      endpoint: null,
      connection_pooler: null,
      error_message: null,
      steps: [],
    };
    beginReplicaSetCreation(replicaSet, this.now(), this.transitionMs, {
      endpoint: { host: replicaSetHost(service, replicaSet), port: DATABASE_PORT },
    });
    service.read_replica_sets.push(replicaSet);
    this.store.commit();
    return replicaSetView(replicaSet);
  }

  /** Deletes a replica set: deleting, then gone. A repeat is accepted. Returns the message. */
  deleteReplicaSet(projectId: string, serviceId: string, replicaSetId: string): string {
    const replicaSet = this.replicaSet(projectId, serviceId, replicaSetId);
    if (checkReplicaSetAction(replicaSet, "delete") === "run") {
      beginReplicaSetDeletion(replicaSet, this.now(), this.transitionMs);
      this.store.commit();
    }
    return `replica set ${replicaSetId} is being deleted`;
  }

  /** Resizes an active replica set: resizing, then active with the new sizes. */
  resizeReplicaSet(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    body: ResizeReplicaSetRequest,
  ): void {
    const replicaSet = this.replicaSet(projectId, serviceId, replicaSetId);
    checkReplicaSetAction(replicaSet, "resize");
    beginReplicaSetResize(replicaSet, this.now(), this.transitionMs, {
      cpu_millis: body.cpu_millis,
      memory_gbs: body.memory_gbs,
      nodes: body.nodes ?? replicaSet.nodes,
    });
    this.store.commit();
  }

  /** Enables the connection pooler of an active replica set, at once. */
  enableReplicaSetPooler(projectId: string, serviceId: string, replicaSetId: string): string {
    const service = this.service(projectId, serviceId);
    const replicaSet = this.replicaSet(projectId, serviceId, replicaSetId);
    checkReplicaSetAction(replicaSet, "enablePooler");
    replicaSet.connection_pooler = {
      endpoint: { host: replicaSetHost(service, replicaSet), port: POOLER_PORT },
    };
    this.store.commit();
    return `connection pooler of replica set ${replicaSetId} enabled`;
  }

  /** Disables the connection pooler of an active replica set, at once. */
  disableReplicaSetPooler(projectId: string, serviceId: string, replicaSetId: string): string {
    const replicaSet = this.replicaSet(projectId, serviceId, replicaSetId);
    checkReplicaSetAction(replicaSet, "disablePooler");
    replicaSet.connection_pooler = null;
    this.store.commit();
    return `connection pooler of replica set ${replicaSetId} disabled`;
  }

  /** Sets a replica set's `metadata.environment` at once, in any state but deleting. */
  setReplicaSetEnvironment(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    environment: Environment,
  ): string {
    const replicaSet = this.replicaSet(projectId, serviceId, replicaSetId);
    checkReplicaSetAction(replicaSet, "setEnvironment");
    replicaSet.metadata.environment = environment;
    this.store.commit();
    return `environment of replica set ${replicaSetId} set to ${environment}`;
  }

  /** Puts a replica set, found by id in any service of the project, into `error` (admin API). */
  failReplicaSet(projectId: string, replicaSetId: string, message: string): ReadReplicaSet {
    for (const service of this.settled(projectId).services) {
      const replicaSet = service.read_replica_sets.find((r) => r.id === replicaSetId);
      if (replicaSet) {
        failReplicaSet(replicaSet, message);
        this.store.commit();
        return replicaSetView(replicaSet);
      }
    }
    throw notFound("replica set", replicaSetId);
  }

  // -------------------------------------------------------------------------------------------
  // VPCs and peerings
  // -------------------------------------------------------------------------------------------

  /** Every VPC of the project, oldest first. */
  listVpcs(projectId: string): Vpc[] {
    return this.settled(projectId).vpcs.map(vpcView);
  }

  /** Creates a VPC; it is usable at once. */
  createVpc(projectId: string, body: CreateVpcRequest): Vpc {
    const vpc: VpcData = {
      id: newVpcId(),
      name: body.name,
      cidr: body.cidr,
      region_code: body.region_code,
      peerings: [],
    };
    this.settled(projectId).vpcs.push(vpc);
    this.store.commit();
    return vpcView(vpc);
  }

  /** One VPC. */
  getVpc(projectId: string, vpcId: string): Vpc {
    return vpcView(this.findVpc(projectId, vpcId));
  }

  /** Renames a VPC. */
  renameVpc(projectId: string, vpcId: string, body: RenameVpcRequest): Vpc {
    const vpc = this.findVpc(projectId, vpcId);
    vpc.name = body.name;
    this.store.commit();
    return vpcView(vpc);
  }

  /** Deletes a VPC that no service uses (attached, attaching or detaching) and that has no peerings. */
  deleteVpc(projectId: string, vpcId: string): void {
    const project = this.settled(projectId);
    const vpc = this.findVpc(projectId, vpcId);
    const users = project.services.filter(
      (s) => s.attached_vpc_id === vpcId || s.vpcEndpoint?.vpc_id === vpcId,
    );
    if (users.length > 0) {
      throw conflict(`VPC ${vpcId} is in use by service ${users.map((s) => s.service_id).join(", ")}`);
    }
    if (vpc.peerings.length > 0) {
      throw conflict(
        `VPC ${vpcId} has peerings ${vpc.peerings.map((p) => p.id).join(", ")}; delete them first`,
      );
    }
    project.vpcs = project.vpcs.filter((v) => v !== vpc);
    this.store.commit();
  }

  /** The peerings of a VPC. */
  listPeerings(projectId: string, vpcId: string): VpcPeering[] {
    return this.findVpc(projectId, vpcId).peerings.map(peeringView);
  }

  /**
   * Requests a peering: pending, then active with a `provisioned_id`, or failed with an
   * `error_message` when the peer VPC id starts with `unreachable`.
   */
  createPeering(projectId: string, vpcId: string, body: CreatePeeringRequest): VpcPeering {
    const vpc = this.findVpc(projectId, vpcId);
    const peering: PeeringData = {
      id: newPeeringId(),
      peer_account_id: body.peer_account_id,
      peer_region_code: body.peer_region_code,
      peer_vpc_id: body.peer_vpc_id,
      status: "pending",
      provisioned_id: null,
      error_message: null,
      steps: [],
    };
    const outcome = body.peer_vpc_id.startsWith(UNREACHABLE_PEER_PREFIX)
      ? {
          error_message:
            `peer VPC ${body.peer_vpc_id} of account ${body.peer_account_id} in ${body.peer_region_code}` +
            " cannot be reached",
        }
      : { provisioned_id: newProvisionedId() };
    beginPeering(peering, this.now(), this.transitionMs, outcome);
    vpc.peerings.push(peering);
    this.store.commit();
    return peeringView(peering);
  }

  /** One peering of a VPC. */
  getPeering(projectId: string, vpcId: string, peeringId: string): VpcPeering {
    return peeringView(this.peering(projectId, vpcId, peeringId));
  }

  /** Deletes a peering, at once, whatever its status. */
  deletePeering(projectId: string, vpcId: string, peeringId: string): void {
    const vpc = this.findVpc(projectId, vpcId);
    const peering = this.peering(projectId, vpcId, peeringId);
    vpc.peerings = vpc.peerings.filter((p) => p !== peering);
    this.store.commit();
  }

  // -------------------------------------------------------------------------------------------
  // Lookups
  // -------------------------------------------------------------------------------------------

  /** Drops every record of every project. */
  reset(): void {
    this.store.clear();
  }

  /** The project's records, every lifecycle advanced to now (gone records removed). */
  private settled(projectId: string): ProjectData {
    const now = this.now();
    const project = this.store.project(projectId);
    project.services = project.services.filter((service) => {
      if (!advance(service, now)) return false;
      service.read_replica_sets = service.read_replica_sets.filter((r) => advance(r, now));
      return true;
    });
    for (const vpc of project.vpcs) for (const peering of vpc.peerings) advance(peering, now);
    return project;
  }

  private service(projectId: string, serviceId: string): ServiceData {
    const service = this.settled(projectId).services.find((s) => s.service_id === serviceId);
    if (!service) throw notFound("service", serviceId);
    return service;
  }

  private replicaSet(projectId: string, serviceId: string, replicaSetId: string): ReplicaSetData {
    const replicaSet = this.service(projectId, serviceId).read_replica_sets.find(
      (r) => r.id === replicaSetId,
    );
    if (!replicaSet) throw notFound(`replica set`, `${replicaSetId} of service ${serviceId}`);
    return replicaSet;
  }

  /** A VPC; `fieldPrefix` names the body field when the id comes from a request body. */
  private findVpc(projectId: string, vpcId: string, fieldPrefix = ""): VpcData {
    const vpc = this.settled(projectId).vpcs.find((v) => v.id === vpcId);
    if (!vpc) throw new ApiError(404, "NOT_FOUND", `${fieldPrefix}VPC ${vpcId} not found`);
    return vpc;
  }

  private peering(projectId: string, vpcId: string, peeringId: string): PeeringData {
    const peering = this.findVpc(projectId, vpcId).peerings.find((p) => p.id === peeringId);
    if (!peering) throw notFound("peering", `${peeringId} of VPC ${vpcId}`);
    return peering;
  }
}

/** No add-on means POSTGRES, `time-series` TIMESERIESDB, `ai` VECTOR. */
function serviceTypeOf(addons: Addon[] | undefined): ServiceType {
  if (addons?.includes("time-series")) return "TIMESERIESDB";
  if (addons?.includes("ai")) return "VECTOR";
  return "POSTGRES";
}

/** The compute entry of a service; sizes may arrive as strings of digits. */
function resource(
  cpuMillis: number | string,
  memoryGbs: number | string,
  id = newResourceId(),
  volumeType = DEFAULT_VOLUME_TYPE,
): ServiceData["resources"][number] {
  return {
    id,
    spec: { cpu_millis: Number(cpuMillis), memory_gbs: Number(memoryGbs), volume_type: volumeType },
  };
}

function serviceHost(service: ServiceData): string {
  return `${service.service_id}.${service.project_id}.db.${ENDPOINT_DOMAIN}`;
}

function serviceEndpoint(service: ServiceData): { host: string; port: number } {
  return { host: serviceHost(service), port: DATABASE_PORT };
}

function replicaSetHost(service: ServiceData, replicaSet: ReplicaSetData): string {
  return `${replicaSet.id}.${service.service_id}.${service.project_id}.db.${ENDPOINT_DOMAIN}`;
}

/** Salted SHA-256, `salt:hex`: the state file never holds a usable password. */
function hashPassword(password: string): string {
  const salt = randomBytes(16).toString("hex");
  return `${salt}:${createHash("sha256")
    .update(salt + password)
    .digest("hex")}`;
}

function checkPassword(stored: string, password: string): boolean {
  const [salt, digest] = stored.split(":");
  const actual = createHash("sha256")
    .update(salt + password)
    .digest();
  return timingSafeEqual(actual, Buffer.from(digest, "hex"));
}
