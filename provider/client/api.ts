/**
 * One typed function per operation of the Managed Database Service Control API (34 in all).
 * Arguments are camelCase and mapped to the API's snake_case here; request bodies are
 * validated strictly before sending; answers are parsed leniently with the zod schemas.
 * Records are returned in the API's own (snake_case) shape.
 */
import { z, ZodType } from "zod";
import { HttpClient, HttpClientOptions, RequestSpec, RetryMode } from "./http";
import { MdbRequestError } from "./errors";
import * as s from "./schemas";

/** Inputs of {@link MdbApi.createService}. */
export interface CreateServiceInput {
  /** Name of the service. */
  name: string;
  /** Service type; POSTGRES when absent. Sent as the matching add-on. */
  serviceType?: s.ServiceType;
  /** Region code, e.g. `us-east-1`. */
  regionCode: string;
  /** CPU in milli-cores. */
  cpuMillis: number;
  /** Memory in GiB. */
  memoryGbs: number;
  /** Number of HA replicas, 0..2. */
  replicaCount?: number;
  /** Environment tag; DEV when absent. */
  environment?: s.Environment;
}

/** Inputs of {@link MdbApi.forkService}. */
export interface ForkServiceInput {
  /** How to fork: LAST_SNAPSHOT, NOW or PITR. */
  strategy: s.ForkStrategy;
  /** Point in time to fork at (ISO 8601), required for PITR. */
  targetTime?: string;
  /** Name of the fork. */
  name?: string;
  /** CPU of the fork in milli-cores; the source's when absent. */
  cpuMillis?: number;
  /** Memory of the fork in GiB; the source's when absent. */
  memoryGbs?: number;
  /** Environment tag of the fork. */
  environment?: s.Environment;
}

/** Inputs of {@link MdbApi.setHA}: at least one of the two. */
export interface SetHaInput {
  /** Number of HA replicas, 0..2. */
  replicaCount?: number;
  /** How many of them replicate synchronously. */
  syncReplicaCount?: number;
}

/** Inputs of {@link MdbApi.createReplicaSet}. */
export interface CreateReplicaSetInput {
  /** Name of the replica set. */
  name: string;
  /** Number of nodes. */
  nodes: number;
  /** CPU per node in milli-cores. */
  cpuMillis: number;
  /** Memory per node in GiB. */
  memoryGbs: number;
}

/** Inputs of {@link MdbApi.resizeReplicaSet}. */
export interface ResizeReplicaSetInput {
  /** CPU per node in milli-cores. */
  cpuMillis: number;
  /** Memory per node in GiB. */
  memoryGbs: number;
  /** Number of nodes; unchanged when absent. */
  nodes?: number;
}

/** Inputs of {@link MdbApi.createVpc}. */
export interface CreateVpcInput {
  /** Name of the VPC. */
  name: string;
  /** IPv4 block in CIDR notation. */
  cidr: string;
  /** Region code. */
  regionCode: string;
}

/** Inputs of {@link MdbApi.createPeering}. */
export interface CreatePeeringInput {
  /** Account of the peer. */
  peerAccountId: string;
  /** Region code of the peer. */
  peerRegionCode: string;
  /** VPC id of the peer. */
  peerVpcId: string;
}

const ADDON_OF_TYPE: Record<s.ServiceType, s.Addon[] | undefined> = {
  POSTGRES: undefined,
  TIMESERIESDB: ["time-series"],
  VECTOR: ["ai"],
};

const seg = encodeURIComponent;
const NoBody = z.unknown();
const ServiceList = z.array(s.ServiceSchema);
const ReplicaSetList = z.array(s.ReadReplicaSetSchema);
const VpcList = z.array(s.VpcSchema);
const PeeringList = z.array(s.VpcPeeringSchema);

/**
 * Validates a request body strictly; throws {@link MdbRequestError} naming each bad field.
 * Callers are `async`, so a bad input rejects the returned promise instead of throwing at the call.
 */
function validated<T>(operation: string, schema: ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new MdbRequestError(operation, s.describeIssues(result.error));
  return result.data;
}

/** Drops keys whose value is undefined, so optional fields are omitted on the wire. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The Managed Database API, one method per operation. Safe actions are retried on
 * transient failures; creates are not (see {@link RetryMode}).
 */
export class MdbApi {
  /** The underlying HTTP client. */
  readonly http: HttpClient;

  constructor(options: HttpClientOptions | HttpClient) {
    this.http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  private call<T>(
    operation: string,
    method: RequestSpec["method"],
    path: string,
    retry: RetryMode,
    schema: ZodType<T>,
    extra: Partial<RequestSpec> = {},
  ): Promise<T> {
    return this.http.request({ operation, method, path, retry, ...extra }, schema);
  }

  private svc(projectId: string, serviceId?: string): string {
    const base = `/projects/${seg(projectId)}/services`;
    return serviceId === undefined ? base : `${base}/${seg(serviceId)}`;
  }

  private rrs(projectId: string, serviceId: string, replicaSetId?: string): string {
    const base = `${this.svc(projectId, serviceId)}/replicaSets`;
    return replicaSetId === undefined ? base : `${base}/${seg(replicaSetId)}`;
  }

  private vpc(projectId: string, vpcId?: string): string {
    const base = `/projects/${seg(projectId)}/vpcs`;
    return vpcId === undefined ? base : `${base}/${seg(vpcId)}`;
  }

  private peering(projectId: string, vpcId: string, peeringId?: string): string {
    const base = `${this.vpc(projectId, vpcId)}/peerings`;
    return peeringId === undefined ? base : `${base}/${seg(peeringId)}`;
  }

  // --- auth and analytics ---------------------------------------------------------------

  /** `GET /auth/info`: who the credentials belong to, and their project. */
  getAuthInfo(): Promise<s.AuthInfo> {
    return this.call("getAuthInfo", "GET", "/auth/info", "idempotent", s.AuthInfoSchema);
  }

  /** `POST /analytics/identify`: associates properties with the calling user. */
  async identify(properties?: Record<string, unknown>): Promise<s.AnalyticsResult> {
    const body = validated("identify", s.IdentifyRequestSchema, compact({ properties }));
    return this.call("identify", "POST", "/analytics/identify", "idempotent", s.AnalyticsResultSchema, {
      body,
    });
  }

  /** `POST /analytics/track`: records an event. Not retried blindly: an event counts once. */
  async track(event: string, properties?: Record<string, unknown>): Promise<s.AnalyticsResult> {
    const body = validated("track", s.TrackRequestSchema, compact({ event, properties }));
    return this.call("track", "POST", "/analytics/track", "create", s.AnalyticsResultSchema, { body });
  }

  // --- services -------------------------------------------------------------------------

  /** `GET /projects/{project_id}/services`: every service of the project. */
  listServices(projectId: string): Promise<s.Service[]> {
    return this.call("listServices", "GET", this.svc(projectId), "idempotent", ServiceList);
  }

  /**
   * `POST /projects/{project_id}/services`: creates a service (202, status QUEUED).
   * The answer is the only one that carries `initial_password`. Not retried on ambiguous
   * failures: look the service up by name before creating again.
   */
  async createService(projectId: string, input: CreateServiceInput): Promise<s.Service> {
    const body = validated(
      "createService",
      s.CreateServiceRequestSchema,
      compact({
        name: input.name,
        addons: input.serviceType ? ADDON_OF_TYPE[input.serviceType] : undefined,
        region_code: input.regionCode,
        replica_count: input.replicaCount,
        cpu_millis: input.cpuMillis,
        memory_gbs: input.memoryGbs,
        environment_tag: input.environment,
      }),
    );
    return this.call("createService", "POST", this.svc(projectId), "create", s.ServiceSchema, { body });
  }

  /** `GET /projects/{project_id}/services/{service_id}`: one service. */
  getService(projectId: string, serviceId: string): Promise<s.Service> {
    return this.call("getService", "GET", this.svc(projectId, serviceId), "idempotent", s.ServiceSchema, {
      resourceId: serviceId,
    });
  }

  /** `DELETE /projects/{project_id}/services/{service_id}`: starts deleting a service (202). */
  async deleteService(projectId: string, serviceId: string): Promise<void> {
    await this.call("deleteService", "DELETE", this.svc(projectId, serviceId), "idempotent", NoBody, {
      resourceId: serviceId,
    });
  }

  /** `POST .../start`: resumes a paused service (PAUSED -> RESUMING -> READY). */
  startService(projectId: string, serviceId: string): Promise<s.Service> {
    return this.call(
      "startService",
      "POST",
      `${this.svc(projectId, serviceId)}/start`,
      "idempotent",
      s.ServiceSchema,
      {
        resourceId: serviceId,
      },
    );
  }

  /** `POST .../stop`: pauses a service (READY -> PAUSING -> PAUSED). */
  stopService(projectId: string, serviceId: string): Promise<s.Service> {
    return this.call(
      "stopService",
      "POST",
      `${this.svc(projectId, serviceId)}/stop`,
      "idempotent",
      s.ServiceSchema,
      {
        resourceId: serviceId,
      },
    );
  }

  /** `POST .../resize`: changes CPU (milli-cores) and memory (GiB) of a service (202). */
  async resizeService(
    projectId: string,
    serviceId: string,
    cpuMillis: number,
    memoryGbs: number,
  ): Promise<void> {
    const body = validated("resizeService", s.ResizeServiceRequestSchema, {
      cpu_millis: cpuMillis,
      memory_gbs: memoryGbs,
    });
    await this.call(
      "resizeService",
      "POST",
      `${this.svc(projectId, serviceId)}/resize`,
      "idempotent",
      NoBody,
      {
        body,
        resourceId: serviceId,
      },
    );
  }

  /** `POST .../updatePassword`: sets the service's password (204). */
  async updatePassword(projectId: string, serviceId: string, password: string): Promise<void> {
    const body = validated("updatePassword", s.UpdatePasswordRequestSchema, { password });
    await this.call(
      "updatePassword",
      "POST",
      `${this.svc(projectId, serviceId)}/updatePassword`,
      "idempotent",
      NoBody,
      { body, resourceId: serviceId, secrets: [password] },
    );
  }

  /** `POST .../setEnvironment`: tags a service PROD or DEV. */
  async setServiceEnvironment(
    projectId: string,
    serviceId: string,
    environment: s.Environment,
  ): Promise<s.ActionResult> {
    const body = validated("setServiceEnvironment", s.SetEnvironmentRequestSchema, { environment });
    return this.call(
      "setServiceEnvironment",
      "POST",
      `${this.svc(projectId, serviceId)}/setEnvironment`,
      "idempotent",
      s.ActionResultSchema,
      { body, resourceId: serviceId },
    );
  }

  /** `POST .../setHA`: changes the number of HA replicas (202, READY -> CONFIGURING -> READY). */
  async setHA(projectId: string, serviceId: string, input: SetHaInput): Promise<s.Service> {
    const body = validated(
      "setHA",
      s.SetHaRequestSchema,
      compact({ replica_count: input.replicaCount, sync_replica_count: input.syncReplicaCount }),
    );
    return this.call(
      "setHA",
      "POST",
      `${this.svc(projectId, serviceId)}/setHA`,
      "idempotent",
      s.ServiceSchema,
      {
        body,
        resourceId: serviceId,
      },
    );
  }

  /** `POST .../enablePooler`: turns the service's connection pooler on. */
  enablePooler(projectId: string, serviceId: string): Promise<s.ActionResult> {
    return this.call(
      "enablePooler",
      "POST",
      `${this.svc(projectId, serviceId)}/enablePooler`,
      "idempotent",
      s.ActionResultSchema,
      { resourceId: serviceId },
    );
  }

  /** `POST .../disablePooler`: turns the service's connection pooler off. */
  disablePooler(projectId: string, serviceId: string): Promise<s.ActionResult> {
    return this.call(
      "disablePooler",
      "POST",
      `${this.svc(projectId, serviceId)}/disablePooler`,
      "idempotent",
      s.ActionResultSchema,
      { resourceId: serviceId },
    );
  }

  /**
   * `POST .../forkService`: creates a new service from this one (202, status QUEUED).
   * Like create, never retried on ambiguous failures.
   */
  async forkService(projectId: string, serviceId: string, input: ForkServiceInput): Promise<s.Service> {
    const body = validated(
      "forkService",
      s.ForkServiceRequestSchema,
      compact({
        fork_strategy: input.strategy,
        target_time: input.targetTime,
        name: input.name,
        cpu_millis: input.cpuMillis,
        memory_gbs: input.memoryGbs,
        environment_tag: input.environment,
      }),
    );
    return this.call(
      "forkService",
      "POST",
      `${this.svc(projectId, serviceId)}/forkService`,
      "create",
      s.ServiceSchema,
      {
        body,
        resourceId: serviceId,
      },
    );
  }

  /** `POST .../attachToVPC`: attaches the service to a VPC (202). */
  async attachToVpc(projectId: string, serviceId: string, vpcId: string): Promise<s.ActionResult> {
    const body = validated("attachToVpc", s.VpcAttachmentRequestSchema, { vpc_id: vpcId });
    return this.call(
      "attachToVpc",
      "POST",
      `${this.svc(projectId, serviceId)}/attachToVPC`,
      "idempotent",
      s.ActionResultSchema,
      { body, resourceId: serviceId },
    );
  }

  /** `POST .../detachFromVPC`: detaches the service from a VPC (202). */
  async detachFromVpc(projectId: string, serviceId: string, vpcId: string): Promise<s.ActionResult> {
    const body = validated("detachFromVpc", s.VpcAttachmentRequestSchema, { vpc_id: vpcId });
    return this.call(
      "detachFromVpc",
      "POST",
      `${this.svc(projectId, serviceId)}/detachFromVPC`,
      "idempotent",
      s.ActionResultSchema,
      { body, resourceId: serviceId },
    );
  }

  // --- read replica sets ----------------------------------------------------------------

  /** `GET .../replicaSets`: the read replica sets of a service. */
  listReplicaSets(projectId: string, serviceId: string): Promise<s.ReadReplicaSet[]> {
    return this.call("listReplicaSets", "GET", this.rrs(projectId, serviceId), "idempotent", ReplicaSetList, {
      resourceId: serviceId,
    });
  }

  /** `POST .../replicaSets`: creates a read replica set (202, status creating). Not retried blindly. */
  async createReplicaSet(
    projectId: string,
    serviceId: string,
    input: CreateReplicaSetInput,
  ): Promise<s.ReadReplicaSet> {
    const body = validated("createReplicaSet", s.CreateReplicaSetRequestSchema, {
      name: input.name,
      nodes: input.nodes,
      cpu_millis: input.cpuMillis,
      memory_gbs: input.memoryGbs,
    });
    return this.call(
      "createReplicaSet",
      "POST",
      this.rrs(projectId, serviceId),
      "create",
      s.ReadReplicaSetSchema,
      {
        body,
        resourceId: serviceId,
      },
    );
  }

  /** `DELETE .../replicaSets/{id}`: starts deleting a replica set (202). */
  async deleteReplicaSet(projectId: string, serviceId: string, replicaSetId: string): Promise<void> {
    await this.call(
      "deleteReplicaSet",
      "DELETE",
      this.rrs(projectId, serviceId, replicaSetId),
      "idempotent",
      NoBody,
      { resourceId: replicaSetId },
    );
  }

  /** `POST .../replicaSets/{id}/resize`: changes size and node count (202, active -> resizing -> active). */
  async resizeReplicaSet(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    input: ResizeReplicaSetInput,
  ): Promise<void> {
    const body = validated(
      "resizeReplicaSet",
      s.ResizeReplicaSetRequestSchema,
      compact({ cpu_millis: input.cpuMillis, memory_gbs: input.memoryGbs, nodes: input.nodes }),
    );
    await this.call(
      "resizeReplicaSet",
      "POST",
      `${this.rrs(projectId, serviceId, replicaSetId)}/resize`,
      "idempotent",
      NoBody,
      { body, resourceId: replicaSetId },
    );
  }

  /** `POST .../replicaSets/{id}/enablePooler`. */
  enableReplicaSetPooler(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
  ): Promise<s.ActionResult> {
    return this.call(
      "enableReplicaSetPooler",
      "POST",
      `${this.rrs(projectId, serviceId, replicaSetId)}/enablePooler`,
      "idempotent",
      s.ActionResultSchema,
      { resourceId: replicaSetId },
    );
  }

  /** `POST .../replicaSets/{id}/disablePooler`. */
  disableReplicaSetPooler(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
  ): Promise<s.ActionResult> {
    return this.call(
      "disableReplicaSetPooler",
      "POST",
      `${this.rrs(projectId, serviceId, replicaSetId)}/disablePooler`,
      "idempotent",
      s.ActionResultSchema,
      { resourceId: replicaSetId },
    );
  }

  /** `POST .../replicaSets/{id}/setEnvironment`: tags a replica set PROD or DEV. */
  async setReplicaSetEnvironment(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    environment: s.Environment,
  ): Promise<s.ActionResult> {
    const body = validated("setReplicaSetEnvironment", s.SetEnvironmentRequestSchema, { environment });
    return this.call(
      "setReplicaSetEnvironment",
      "POST",
      `${this.rrs(projectId, serviceId, replicaSetId)}/setEnvironment`,
      "idempotent",
      s.ActionResultSchema,
      { body, resourceId: replicaSetId },
    );
  }

  // --- VPCs -----------------------------------------------------------------------------

  /** `GET /projects/{project_id}/vpcs`: every VPC of the project. */
  listVpcs(projectId: string): Promise<s.Vpc[]> {
    return this.call("listVpcs", "GET", this.vpc(projectId), "idempotent", VpcList);
  }

  /** `POST /projects/{project_id}/vpcs`: creates a VPC (201). Not retried blindly. */
  async createVpc(projectId: string, input: CreateVpcInput): Promise<s.Vpc> {
    const body = validated("createVpc", s.CreateVpcRequestSchema, {
      name: input.name,
      cidr: input.cidr,
      region_code: input.regionCode,
    });
    return this.call("createVpc", "POST", this.vpc(projectId), "create", s.VpcSchema, { body });
  }

  /** `GET /projects/{project_id}/vpcs/{vpc_id}`: one VPC. */
  getVpc(projectId: string, vpcId: string): Promise<s.Vpc> {
    return this.call("getVpc", "GET", this.vpc(projectId, vpcId), "idempotent", s.VpcSchema, {
      resourceId: vpcId,
    });
  }

  /** `POST .../vpcs/{vpc_id}/rename`: renames a VPC. */
  async renameVpc(projectId: string, vpcId: string, name: string): Promise<s.Vpc> {
    const body = validated("renameVpc", s.RenameVpcRequestSchema, { name });
    return this.call("renameVpc", "POST", `${this.vpc(projectId, vpcId)}/rename`, "idempotent", s.VpcSchema, {
      body,
      resourceId: vpcId,
    });
  }

  /** `DELETE .../vpcs/{vpc_id}`: deletes a VPC (204). 409 while services or peerings use it. */
  async deleteVpc(projectId: string, vpcId: string): Promise<void> {
    await this.call("deleteVpc", "DELETE", this.vpc(projectId, vpcId), "idempotent", NoBody, {
      resourceId: vpcId,
    });
  }

  // --- VPC peerings ---------------------------------------------------------------------

  /** `GET .../vpcs/{vpc_id}/peerings`: the peerings of a VPC. */
  listPeerings(projectId: string, vpcId: string): Promise<s.VpcPeering[]> {
    return this.call("listPeerings", "GET", this.peering(projectId, vpcId), "idempotent", PeeringList, {
      resourceId: vpcId,
    });
  }

  /** `POST .../vpcs/{vpc_id}/peerings`: requests a peering (201, status pending). Not retried blindly. */
  async createPeering(projectId: string, vpcId: string, input: CreatePeeringInput): Promise<s.VpcPeering> {
    const body = validated("createPeering", s.CreatePeeringRequestSchema, {
      peer_account_id: input.peerAccountId,
      peer_region_code: input.peerRegionCode,
      peer_vpc_id: input.peerVpcId,
    });
    return this.call("createPeering", "POST", this.peering(projectId, vpcId), "create", s.VpcPeeringSchema, {
      body,
      resourceId: vpcId,
    });
  }

  /** `GET .../vpcs/{vpc_id}/peerings/{peering_id}`: one peering. */
  getPeering(projectId: string, vpcId: string, peeringId: string): Promise<s.VpcPeering> {
    return this.call(
      "getPeering",
      "GET",
      this.peering(projectId, vpcId, peeringId),
      "idempotent",
      s.VpcPeeringSchema,
      {
        resourceId: peeringId,
      },
    );
  }

  /** `DELETE .../vpcs/{vpc_id}/peerings/{peering_id}`: deletes a peering (204). */
  async deletePeering(projectId: string, vpcId: string, peeringId: string): Promise<void> {
    await this.call(
      "deletePeering",
      "DELETE",
      this.peering(projectId, vpcId, peeringId),
      "idempotent",
      NoBody,
      {
        resourceId: peeringId,
      },
    );
  }
}
