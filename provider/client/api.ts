/**
 * The Managed Database API, one typed method per operation (34 in all), each driven by its row of
 * `api/operations.ts`: method, path, request schema, success body and retry class come from there.
 * Arguments are camelCase and mapped to the API's snake_case here; request bodies are validated
 * strictly before sending; answers are parsed leniently. Records keep the API's snake_case shape.
 */
import {
  OPERATIONS,
  fillPath,
  responseSchema,
  type OperationId,
  type PathArgs,
  type RequestOf,
  type ResponseOf,
} from "../../api/operations";
import { describeIssues } from "../../api/requests";
import type * as s from "../../api/schemas";
import { MdbRequestError } from "./errors";
import { HttpClient, type HttpClientOptions } from "./http";
import {
  createPeeringBody,
  createReplicaSetBody,
  createServiceBody,
  createVpcBody,
  forkServiceBody,
  type CreatePeeringInput,
  type CreateReplicaSetInput,
  type CreateServiceInput,
  type CreateVpcInput,
  type ForkServiceInput,
  type ResizeReplicaSetInput,
  type SetHaInput,
} from "./inputs";

export type {
  CreatePeeringInput,
  CreateReplicaSetInput,
  CreateServiceInput,
  CreateVpcInput,
  ForkServiceInput,
  ResizeReplicaSetInput,
  SetHaInput,
} from "./inputs";

/** Extra settings of one call. */
interface CallOptions {
  /** Secrets the request carries (a password), removed from any error text. */
  secrets?: string[];
}

/**
 * The Managed Database API, one method per operation. Reads, deletes and actions are retried on
 * transient failures; creates are not (see `RetryClass` in api/operations.ts).
 */
export class MdbApi {
  /** The underlying HTTP client. */
  readonly http: HttpClient;

  constructor(options: HttpClientOptions | HttpClient) {
    this.http = options instanceof HttpClient ? options : new HttpClient(options);
  }

  /**
   * Sends operation `id` with its path parameters in template order and its body. The body is
   * validated first (a bad one rejects with {@link MdbRequestError} naming each field, before any
   * request); errors name the last parameter other than the project as the resource concerned.
   */
  private async call<Id extends OperationId>(
    id: Id,
    args: PathArgs<Id>,
    body?: RequestOf<Id>,
    options: CallOptions = {},
  ): Promise<ResponseOf<Id>> {
    const op = OPERATIONS[id];
    const values = args as readonly string[];
    let sent: unknown;
    if ("request" in op) {
      const parsed = op.request.safeParse(body ?? {});
      if (!parsed.success) throw new MdbRequestError(id, describeIssues(parsed.error));
      sent = parsed.data;
    }
    const named = op.params.flatMap((param, i) => (param === "project_id" ? [] : [values[i]]));
    return this.http.request(
      {
        operation: id,
        method: op.method,
        path: fillPath(op.path, values),
        body: sent,
        retry: op.retry,
        resourceId: named.at(-1),
        secrets: options.secrets,
      },
      responseSchema(id, "lenient"),
    ) as Promise<ResponseOf<Id>>;
  }

  // --- auth and analytics ---------------------------------------------------------------

  /** `GET /auth/info`: who the credentials belong to, and their project. */
  getAuthInfo(): Promise<s.AuthInfo> {
    return this.call("getAuthInfo", []);
  }

  /** `POST /analytics/identify`: associates properties with the calling user. */
  identify(properties?: Record<string, unknown>): Promise<s.AnalyticsResult> {
    return this.call("identify", [], { properties });
  }

  /** `POST /analytics/track`: records an event. Not retried blindly: an event counts once. */
  track(event: string, properties?: Record<string, unknown>): Promise<s.AnalyticsResult> {
    return this.call("track", [], { event, properties });
  }

  // --- services -------------------------------------------------------------------------

  /** `GET /projects/{project_id}/services`: every service of the project. */
  listServices(projectId: string): Promise<s.Service[]> {
    return this.call("listServices", [projectId]);
  }

  /**
   * `POST /projects/{project_id}/services`: creates a service (202, status QUEUED).
   * The answer is the only one that carries `initial_password`. Not retried on ambiguous
   * failures: look the service up by name before creating again.
   */
  createService(projectId: string, input: CreateServiceInput): Promise<s.Service> {
    return this.call("createService", [projectId], createServiceBody(input));
  }

  /** `GET /projects/{project_id}/services/{service_id}`: one service. */
  getService(projectId: string, serviceId: string): Promise<s.Service> {
    return this.call("getService", [projectId, serviceId]);
  }

  /** `DELETE /projects/{project_id}/services/{service_id}`: starts deleting a service (202). */
  async deleteService(projectId: string, serviceId: string): Promise<void> {
    await this.call("deleteService", [projectId, serviceId]);
  }

  /** `POST .../start`: resumes a paused service (PAUSED -> RESUMING -> READY). */
  startService(projectId: string, serviceId: string): Promise<s.Service> {
    return this.call("startService", [projectId, serviceId]);
  }

  /** `POST .../stop`: pauses a service (READY -> PAUSING -> PAUSED). */
  stopService(projectId: string, serviceId: string): Promise<s.Service> {
    return this.call("stopService", [projectId, serviceId]);
  }

  /** `POST .../resize`: changes CPU (milli-cores) and memory (GB) of a service (202). */
  async resizeService(
    projectId: string,
    serviceId: string,
    cpuMillis: number,
    memoryGbs: number,
  ): Promise<void> {
    await this.call("resizeService", [projectId, serviceId], {
      cpu_millis: cpuMillis,
      memory_gbs: memoryGbs,
    });
  }

  /** `POST .../updatePassword`: sets the service's password (204). */
  async updatePassword(projectId: string, serviceId: string, password: string): Promise<void> {
    await this.call("updatePassword", [projectId, serviceId], { password }, { secrets: [password] });
  }

  /** `POST .../setEnvironment`: tags a service PROD or DEV. */
  setServiceEnvironment(
    projectId: string,
    serviceId: string,
    environment: s.Environment,
  ): Promise<s.ActionResult> {
    return this.call("setServiceEnvironment", [projectId, serviceId], { environment });
  }

  /** `POST .../setHA`: changes the number of HA replicas (202, READY -> CONFIGURING -> READY). */
  setHA(projectId: string, serviceId: string, input: SetHaInput): Promise<s.Service> {
    return this.call("setHA", [projectId, serviceId], {
      replica_count: input.replicaCount,
      sync_replica_count: input.syncReplicaCount,
    });
  }

  /** `POST .../enablePooler`: turns the service's connection pooler on. */
  enablePooler(projectId: string, serviceId: string): Promise<s.ActionResult> {
    return this.call("enablePooler", [projectId, serviceId]);
  }

  /** `POST .../disablePooler`: turns the service's connection pooler off. */
  disablePooler(projectId: string, serviceId: string): Promise<s.ActionResult> {
    return this.call("disablePooler", [projectId, serviceId]);
  }

  /**
   * `POST .../forkService`: creates a new service from this one (202, status QUEUED).
   * Like create, never retried on ambiguous failures.
   */
  forkService(projectId: string, serviceId: string, input: ForkServiceInput): Promise<s.Service> {
    return this.call("forkService", [projectId, serviceId], forkServiceBody(input));
  }

  /** `POST .../attachToVPC`: attaches the service to a VPC (202). */
  attachToVpc(projectId: string, serviceId: string, vpcId: string): Promise<s.ActionResult> {
    return this.call("attachToVpc", [projectId, serviceId], { vpc_id: vpcId });
  }

  /** `POST .../detachFromVPC`: detaches the service from a VPC (202). */
  detachFromVpc(projectId: string, serviceId: string, vpcId: string): Promise<s.ActionResult> {
    return this.call("detachFromVpc", [projectId, serviceId], { vpc_id: vpcId });
  }

  // --- read replica sets ----------------------------------------------------------------

  /** `GET .../replicaSets`: the read replica sets of a service. */
  listReplicaSets(projectId: string, serviceId: string): Promise<s.ReadReplicaSet[]> {
    return this.call("listReplicaSets", [projectId, serviceId]);
  }

  /** `POST .../replicaSets`: creates a read replica set (202, status creating). Not retried blindly. */
  createReplicaSet(
    projectId: string,
    serviceId: string,
    input: CreateReplicaSetInput,
  ): Promise<s.ReadReplicaSet> {
    return this.call("createReplicaSet", [projectId, serviceId], createReplicaSetBody(input));
  }

  /** `DELETE .../replicaSets/{id}`: starts deleting a replica set (202). */
  async deleteReplicaSet(projectId: string, serviceId: string, replicaSetId: string): Promise<void> {
    await this.call("deleteReplicaSet", [projectId, serviceId, replicaSetId]);
  }

  /** `POST .../replicaSets/{id}/resize`: changes size and node count (202, active -> resizing -> active). */
  async resizeReplicaSet(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    input: ResizeReplicaSetInput,
  ): Promise<void> {
    await this.call("resizeReplicaSet", [projectId, serviceId, replicaSetId], {
      cpu_millis: input.cpuMillis,
      memory_gbs: input.memoryGbs,
      nodes: input.nodes,
    });
  }

  /** `POST .../replicaSets/{id}/enablePooler`. */
  enableReplicaSetPooler(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
  ): Promise<s.ActionResult> {
    return this.call("enableReplicaSetPooler", [projectId, serviceId, replicaSetId]);
  }

  /** `POST .../replicaSets/{id}/disablePooler`. */
  disableReplicaSetPooler(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
  ): Promise<s.ActionResult> {
    return this.call("disableReplicaSetPooler", [projectId, serviceId, replicaSetId]);
  }

  /** `POST .../replicaSets/{id}/setEnvironment`: tags a replica set PROD or DEV. */
  setReplicaSetEnvironment(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    environment: s.Environment,
  ): Promise<s.ActionResult> {
    return this.call("setReplicaSetEnvironment", [projectId, serviceId, replicaSetId], { environment });
  }

  // --- VPCs -----------------------------------------------------------------------------

  /** `GET /projects/{project_id}/vpcs`: every VPC of the project. */
  listVpcs(projectId: string): Promise<s.Vpc[]> {
    return this.call("listVpcs", [projectId]);
  }

  /** `POST /projects/{project_id}/vpcs`: creates a VPC (201). Not retried blindly. */
  createVpc(projectId: string, input: CreateVpcInput): Promise<s.Vpc> {
    return this.call("createVpc", [projectId], createVpcBody(input));
  }

  /** `GET /projects/{project_id}/vpcs/{vpc_id}`: one VPC. */
  getVpc(projectId: string, vpcId: string): Promise<s.Vpc> {
    return this.call("getVpc", [projectId, vpcId]);
  }

  /** `POST .../vpcs/{vpc_id}/rename`: renames a VPC. */
  renameVpc(projectId: string, vpcId: string, name: string): Promise<s.Vpc> {
    return this.call("renameVpc", [projectId, vpcId], { name });
  }

  /** `DELETE .../vpcs/{vpc_id}`: deletes a VPC (204). 409 while services or peerings use it. */
  async deleteVpc(projectId: string, vpcId: string): Promise<void> {
    await this.call("deleteVpc", [projectId, vpcId]);
  }

  // --- VPC peerings ---------------------------------------------------------------------

  /** `GET .../vpcs/{vpc_id}/peerings`: the peerings of a VPC. */
  listPeerings(projectId: string, vpcId: string): Promise<s.VpcPeering[]> {
    return this.call("listPeerings", [projectId, vpcId]);
  }

  /** `POST .../vpcs/{vpc_id}/peerings`: requests a peering (201, status pending). Not retried blindly. */
  createPeering(projectId: string, vpcId: string, input: CreatePeeringInput): Promise<s.VpcPeering> {
    return this.call("createPeering", [projectId, vpcId], createPeeringBody(input));
  }

  /** `GET .../vpcs/{vpc_id}/peerings/{peering_id}`: one peering. */
  getPeering(projectId: string, vpcId: string, peeringId: string): Promise<s.VpcPeering> {
    return this.call("getPeering", [projectId, vpcId, peeringId]);
  }

  /** `DELETE .../vpcs/{vpc_id}/peerings/{peering_id}`: deletes a peering (204). */
  async deletePeering(projectId: string, vpcId: string, peeringId: string): Promise<void> {
    await this.call("deletePeering", [projectId, vpcId, peeringId]);
  }
}
