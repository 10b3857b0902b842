/**
 * The services of the emulated service, apart from HTTP (moto's "models"): one method per service
 * operation, named like it in api/operations.ts, taking parsed request bodies and returning wire
 * records. Which state allows what, and the states an action goes through, are lifecycle.ts's.
 */
import type {
  Addon,
  CreateServiceRequest,
  Environment,
  ForkServiceRequest,
  ResizeServiceRequest,
  Service,
  ServiceType,
  SetHaRequest,
} from "../../api/schemas";
import {
  DATABASE_PORT,
  DEFAULT_CPU_MILLIS,
  DEFAULT_MEMORY_GBS,
  DEFAULT_REGION_CODE,
  ENDPOINT_DOMAIN,
  POOLER_PORT,
} from "../defaults";
import { conflict, invalidField, notFound } from "../errors";
import {
  beginPausing,
  beginProvisioning,
  beginReconfiguring,
  beginResuming,
  beginServiceDeletion,
  checkServiceAction,
} from "../lifecycle";
import { serviceView, standbyServiceView } from "../views";
import { checkPassword, hashPassword, newService, requestedSizes, resource, serviceHost } from "./records";
import type { State } from "./state";

/** The service operations of the emulated service. */
export class ServiceModel {
  constructor(private readonly state: State) {}

  /** Every service of the project, oldest first. */
  listServices(projectId: string): Service[] {
    return this.state.project(projectId).services.map((s) => serviceView(s));
  }

  /** Creates a service (QUEUED); the answer is the only one besides fork with `initial_password`. */
  createService(projectId: string, body: CreateServiceRequest): Service {
    const project = this.state.project(projectId);
    const now = this.state.now();
    const sizes = requestedSizes(
      body,
      { cpu_millis: DEFAULT_CPU_MILLIS, memory_gbs: DEFAULT_MEMORY_GBS },
      "to create a service",
    );
    const { service, password } = newService({
      projectId,
      name: body.name,
      regionCode: body.region_code ?? DEFAULT_REGION_CODE,
      serviceType: serviceTypeOf(body.addons),
      createdMs: now,
      cpuMillis: sizes.cpu_millis,
      memoryGbs: sizes.memory_gbs,
      environment: body.environment_tag ?? "DEV",
      replicaCount: body.replica_count ?? 0,
      forkedFrom: null,
    });
    beginProvisioning(service, now, this.state.transitionMs);
    this.state.databases?.serviceCreated(service, password);
    project.services.push(service);
    this.state.commit();
    return serviceView(service, password);
  }

  /**
   * One service. The `vendor` dialect also reads a read replica set by its id here, as a Service
   * whose `forked_from` names its service with `is_standby: true` (the current vendor CLI reads
   * replica sets so); the seed's answer for such an id stays a 404.
   */
  getService(projectId: string, serviceId: string): Service {
    const service = this.state.project(projectId).services.find((s) => s.service_id === serviceId);
    if (service || this.state.dialect !== "vendor")
      return serviceView(this.state.service(projectId, serviceId));
    for (const parent of this.state.project(projectId).services) {
      const standby = parent.read_replica_sets.find((r) => r.id === serviceId);
      if (standby) return standbyServiceView(parent, standby);
    }
    throw notFound("service", serviceId);
  }

  /** Deletes a service and its replica sets: DELETING, then gone. A repeat is accepted. */
  deleteService(projectId: string, serviceId: string): void {
    const service = this.state.service(projectId, serviceId);
    if (checkServiceAction(service, "deleteService") === "noop") return;
    beginServiceDeletion(service, this.state.now(), this.state.transitionMs);
    this.state.databases?.serviceDeleted(service);
    this.state.commit();
  }

  /** Stops a READY service (PAUSING, then PAUSED); a paused or pausing one is left as it is. */
  stopService(projectId: string, serviceId: string): Service {
    const service = this.state.service(projectId, serviceId);
    if (checkServiceAction(service, "stopService") === "run") {
      beginPausing(service, this.state.now(), this.state.transitionMs);
      this.state.databases?.serviceStopped(service);
      this.state.commit();
    }
    return serviceView(service);
  }

  /** Starts a PAUSED service (RESUMING, then READY); a running or resuming one is left as it is. */
  startService(projectId: string, serviceId: string): Service {
    const service = this.state.service(projectId, serviceId);
    if (checkServiceAction(service, "startService") === "run") {
      beginResuming(service, this.state.now(), this.state.transitionMs);
      this.state.databases?.serviceStarted(service);
      this.state.commit();
    }
    return serviceView(service);
  }

  /**
   * Resizes a READY service; a size left out keeps its current value, and a shared service takes
   * both sizes at once (it has none to keep). The new size shows in `resources` once READY again;
   * the answer is the service, CONFIGURING. `nodes` can only restate the service's one node, so
   * it changes nothing.
   */
  resizeService(projectId: string, serviceId: string, body: ResizeServiceRequest): Service {
    const service = this.state.service(projectId, serviceId);
    const [current] = service.resources;
    const sizes = requestedSizes(
      body,
      current?.spec ?? { cpu_millis: DEFAULT_CPU_MILLIS, memory_gbs: DEFAULT_MEMORY_GBS },
      "to resize a service with shared resources (it has no dedicated size to keep)",
    );
    checkServiceAction(service, "resizeService");
    const resized = resource(sizes.cpu_millis, sizes.memory_gbs, current?.id, current?.spec.volume_type);
    beginReconfiguring(service, this.state.now(), this.state.transitionMs, { resources: [resized] });
    this.state.databases?.serviceRestarted(service);
    this.state.commit();
    return serviceView(service);
  }

  /**
   * Renames a service at once, in any state but DELETING: same id, same data, same endpoints (the
   * vendor's addition, served in both dialects). The answer is the service with its new name.
   */
  renameService(projectId: string, serviceId: string, name: string): Service {
    const service = this.state.service(projectId, serviceId);
    checkServiceAction(service, "renameService");
    service.name = name;
    this.state.commit();
    return serviceView(service);
  }

  /** Replaces the password of a READY or PAUSED service (kept hashed, never returned). */
  updatePassword(projectId: string, serviceId: string, password: string): void {
    const service = this.state.service(projectId, serviceId);
    checkServiceAction(service, "updatePassword");
    service.password_hash = hashPassword(password);
    this.state.databases?.passwordChanged(service, password);
    this.state.commit();
  }

  /** True when `password` is the service's current password (for in-process tests). */
  verifyPassword(projectId: string, serviceId: string, password: string): boolean {
    return checkPassword(this.state.service(projectId, serviceId).password_hash, password);
  }

  /** Sets `metadata.environment` at once, in any state but DELETING. Returns the message. */
  setServiceEnvironment(projectId: string, serviceId: string, environment: Environment): string {
    const service = this.state.service(projectId, serviceId);
    checkServiceAction(service, "setServiceEnvironment");
    service.metadata.environment = environment;
    this.state.commit();
    return `environment of service ${serviceId} set to ${environment}`;
  }

  /**
   * Changes the HA replicas of a READY service; a count left out keeps its current value, and the
   * synchronous replicas cannot outnumber the replicas. Takes effect once READY again.
   */
  setHA(projectId: string, serviceId: string, body: SetHaRequest): Service {
    const service = this.state.service(projectId, serviceId);
    const replicaCount = body.replica_count ?? service.ha_replicas.replica_count;
    const syncReplicaCount = body.sync_replica_count ?? service.ha_replicas.sync_replica_count;
    if (syncReplicaCount > replicaCount) {
      throw invalidField(
        "sync_replica_count",
        `must not exceed replica_count (${syncReplicaCount} > ${replicaCount})`,
      );
    }
    checkServiceAction(service, "setHA");
    beginReconfiguring(service, this.state.now(), this.state.transitionMs, {
      ha_replicas: { replica_count: replicaCount, sync_replica_count: syncReplicaCount },
    });
    this.state.databases?.serviceRestarted(service);
    this.state.commit();
    return serviceView(service);
  }

  /** Enables the connection pooler (port 6432) of a READY or PAUSED service, at once. */
  enablePooler(projectId: string, serviceId: string): string {
    const service = this.state.service(projectId, serviceId);
    checkServiceAction(service, "enablePooler");
    const endpoint = this.state.databases?.servicePooler(service, true);
    service.connection_pooler = { endpoint: endpoint ?? { host: serviceHost(service), port: POOLER_PORT } };
    this.state.commit();
    return `connection pooler of service ${serviceId} enabled`;
  }

  /** Disables the connection pooler of a READY or PAUSED service, at once. */
  disablePooler(projectId: string, serviceId: string): string {
    const service = this.state.service(projectId, serviceId);
    checkServiceAction(service, "disablePooler");
    service.connection_pooler = null;
    this.state.databases?.servicePooler(service, false);
    this.state.commit();
    return `connection pooler of service ${serviceId} disabled`;
  }

  /**
   * Forks a READY service into a new one (QUEUED) of the same type, region and storage, with no
   * HA replicas. PITR needs a `target_time` between the source's creation and now.
   */
  forkService(projectId: string, serviceId: string, body: ForkServiceRequest): Service {
    const project = this.state.project(projectId);
    const source = this.state.service(projectId, serviceId);
    const now = this.state.now();
    if (body.fork_strategy === "PITR" && body.target_time !== undefined) {
      const target = Date.parse(body.target_time);
      if (target > now) throw invalidField("target_time", "must not be in the future");
      if (target < Date.parse(source.created)) {
        throw invalidField("target_time", `must not be before the source was created (${source.created})`);
      }
    }
    const [sourceResource] = source.resources;
    const sizes = requestedSizes(
      body,
      sourceResource?.spec ?? { cpu_millis: DEFAULT_CPU_MILLIS, memory_gbs: DEFAULT_MEMORY_GBS },
      "to fork a service with shared resources with a dedicated size (it has none to inherit)",
    );
    checkServiceAction(source, "forkService");
    const { service: fork, password } = newService({
      projectId,
      name: body.name ?? `${source.name}-fork`,
      regionCode: source.region_code,
      serviceType: source.service_type,
      createdMs: now,
      cpuMillis: sizes.cpu_millis,
      memoryGbs: sizes.memory_gbs,
      volumeType: sourceResource?.spec.volume_type,
      environment: body.environment_tag ?? "DEV",
      replicaCount: 0,
      forkedFrom: { project_id: projectId, service_id: source.service_id, is_standby: false },
    });
    beginProvisioning(fork, now, this.state.transitionMs);
    this.state.databases?.serviceCreated(fork, password, {
      source,
      strategy: body.fork_strategy ?? "NOW",
      targetMs: body.target_time === undefined ? undefined : Date.parse(body.target_time),
    });
    project.services.push(fork);
    this.state.commit();
    return serviceView(fork, password);
  }

  /**
   * Attaches a READY service to a VPC of its region; `vpcEndpoint` appears once READY again.
   * Attaching again to the same VPC changes nothing; another VPC needs a detach first.
   */
  attachToVpc(projectId: string, serviceId: string, vpcId: string): string {
    const service = this.state.service(projectId, serviceId);
    const vpc = this.state.vpc(projectId, vpcId, "vpc_id: ");
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
    checkServiceAction(service, "attachToVpc");
    service.attached_vpc_id = vpcId;
    beginReconfiguring(service, this.state.now(), this.state.transitionMs, {
      vpcEndpoint: {
        host: `${service.service_id}.${vpcId}.vpc.${ENDPOINT_DOMAIN}`,
        port: DATABASE_PORT,
        vpc_id: vpcId,
      },
    });
    this.state.databases?.serviceRestarted(service);
    this.state.commit();
    return `service ${serviceId} is being attached to VPC ${vpcId}`;
  }

  /** Detaches a READY service from the VPC it is attached to; `vpcEndpoint` goes once READY again. */
  detachFromVpc(projectId: string, serviceId: string, vpcId: string): string {
    const service = this.state.service(projectId, serviceId);
    this.state.vpc(projectId, vpcId, "vpc_id: ");
    if (service.attached_vpc_id !== vpcId) {
      throw conflict(`service ${serviceId} is not attached to VPC ${vpcId}`);
    }
    checkServiceAction(service, "detachFromVpc");
    service.attached_vpc_id = null;
    beginReconfiguring(service, this.state.now(), this.state.transitionMs, { vpcEndpoint: null });
    this.state.databases?.serviceRestarted(service);
    this.state.commit();
    return `service ${serviceId} is being detached from VPC ${vpcId}`;
  }
}

/** `time-series` (with or without `ai`) means TIMESERIESDB, `ai` alone VECTOR, none POSTGRES. */
function serviceTypeOf(addons: readonly Addon[] | undefined): ServiceType {
  if (addons?.includes("time-series")) return "TIMESERIESDB";
  if (addons?.includes("ai")) return "VECTOR";
  return "POSTGRES";
}
