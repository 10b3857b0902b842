/**
 * The functions in their async form: typed async functions that read the API (and send
 * analytics) from the program's own process, not the provider host. They use the same client
 * and settings as the resources (see `./session.ts`). Records come back camelCase, mapped by
 * the resources' field tables, without secrets.
 */
import { isUnknownRoute } from "../client/errors";
import type { Service as ServiceRecord, Vpc as VpcRecord } from "../client/schemas";
import { recordOutputs } from "../kit/fields/field-table";
import { withoutUndefined } from "../kit/fields/outputs";
import { READ_REPLICA_SET } from "../resources/read-replica-set/fields";
import { SERVICE } from "../resources/service/fields";
import { VPC } from "../resources/vpc/fields";
import { VPC_PEERING } from "../resources/vpc-peering/fields";
import { LookupKind, idOrName, theOneNamed } from "./lookup";
import { functionsApi, resolveFunctionsProjectId } from "./session";
import type {
  AnalyticsResult,
  AuthInfoResult,
  GetServiceArgs,
  GetVpcArgs,
  GetVpcPeeringArgs,
  IdentifyArgs,
  ProjectArgs,
  ProjectResult,
  ReadReplicaSetResult,
  ServiceResult,
  ServiceScopeArgs,
  TrackArgs,
  VpcPeeringResult,
  VpcResult,
  VpcScopeArgs,
} from "./types";

const api = functionsApi;

/** A service record as the functions return it. */
function serviceResult(record: ServiceRecord, projectId: string): ServiceResult {
  return recordOutputs(SERVICE, record, { projectId }) as ServiceResult;
}

/** A VPC record as the functions return it. */
function vpcResult(record: VpcRecord, projectId: string): VpcResult {
  return recordOutputs(VPC, record, { projectId }) as VpcResult;
}

const SERVICES: LookupKind<ServiceRecord> = {
  kind: "service",
  idArg: "serviceId",
  idOf: (s) => s.service_id,
  nameOf: (s) => s.name,
  detailOf: (s) => [s.region_code, s.status, s.created && `created ${s.created}`].filter(Boolean).join(", "),
};

const VPCS: LookupKind<VpcRecord> = {
  kind: "VPC",
  idArg: "vpcId",
  idOf: (v) => v.id,
  nameOf: (v) => v.name,
  detailOf: (v) => `${v.cidr}, ${v.region_code}`,
};

/** Who the configured API key belongs to: its public key, name, project and issuing user. */
export async function getAuthInfo(): Promise<AuthInfoResult> {
  const info = await api().getAuthInfo();
  const key = info.apiKey;
  return withoutUndefined({
    type: info.type,
    publicKey: key.public_key,
    name: key.name,
    created: key.created,
    project: { id: key.project.id, name: key.project.name, planType: key.project.plan_type },
    issuingUser: key.issuing_user
      ? { id: key.issuing_user.id, name: key.issuing_user.name, email: key.issuing_user.email }
      : undefined,
  });
}

/**
 * The projects the configured API key reaches (`GET /projects`): a project key reaches its own
 * project only, a user's credentials every project of the user. A server without that route
 * (an API older than it) is answered with the key's own project, from `GET /auth/info`.
 */
export async function getProjects(): Promise<ProjectResult[]> {
  try {
    const projects = await api().listProjects();
    return projects.map((p) => withoutUndefined({ id: p.id, name: p.name }) as ProjectResult);
  } catch (error) {
    if (!isUnknownRoute(error, "projects", "project")) throw error;
    const { project } = (await api().getAuthInfo()).apiKey;
    return [withoutUndefined({ id: project.id, name: project.name }) as ProjectResult];
  }
}

/**
 * One service, by `serviceId` or by exact `name` (exactly one of the two). `projectId`
 * defaults like the resources' (config, environment, the key's project). Fails with the API's
 * 404 for an unknown id, and with an `MdbLookupError` when no service or several have the name
 * (naming each match with its id).
 */
export async function getService(args: GetServiceArgs): Promise<ServiceResult> {
  const which = idOrName(SERVICES, args.serviceId, args.name);
  const projectId = await resolveFunctionsProjectId(args.projectId);
  if ("id" in which) return serviceResult(await api().getService(projectId, which.id), projectId);
  const all = await api().listServices(projectId);
  return serviceResult(theOneNamed(SERVICES, all, which.name, projectId), projectId);
}

/** Every service of a project (default project as for the resources). */
export async function listServices(args: ProjectArgs = {}): Promise<ServiceResult[]> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return (await api().listServices(projectId)).map((s) => serviceResult(s, projectId));
}

/**
 * One VPC, by `vpcId` or by exact `name` (exactly one of the two). Fails with the API's 404
 * for an unknown id, and with an `MdbLookupError` when no VPC or several have the name.
 */
export async function getVpc(args: GetVpcArgs): Promise<VpcResult> {
  const which = idOrName(VPCS, args.vpcId, args.name);
  const projectId = await resolveFunctionsProjectId(args.projectId);
  if ("id" in which) return vpcResult(await api().getVpc(projectId, which.id), projectId);
  const found = theOneNamed(VPCS, await api().listVpcs(projectId), which.name, projectId);
  return vpcResult(found, projectId);
}

/** Every VPC of a project. */
export async function listVpcs(args: ProjectArgs = {}): Promise<VpcResult[]> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return (await api().listVpcs(projectId)).map((v) => vpcResult(v, projectId));
}

/** The read replica sets of a service (sizes in milli-cores and GiB per node). */
export async function listReadReplicaSets(args: ServiceScopeArgs): Promise<ReadReplicaSetResult[]> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return (await api().listReplicaSets(projectId, args.serviceId)).map(
    (r) =>
      recordOutputs(READ_REPLICA_SET, r, { projectId, serviceId: args.serviceId }) as ReadReplicaSetResult,
  );
}

/** One peering of a VPC. Fails with the API's 404 when there is no such peering. */
export async function getVpcPeering(args: GetVpcPeeringArgs): Promise<VpcPeeringResult> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  const record = await api().getPeering(projectId, args.vpcId, args.peeringId);
  return recordOutputs(VPC_PEERING, record, { projectId, vpcId: args.vpcId }) as VpcPeeringResult;
}

/** The peerings of a VPC. */
export async function listVpcPeerings(args: VpcScopeArgs): Promise<VpcPeeringResult[]> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return (await api().listPeerings(projectId, args.vpcId)).map(
    (p) => recordOutputs(VPC_PEERING, p, { projectId, vpcId: args.vpcId }) as VpcPeeringResult,
  );
}

/** Analytics: associates `properties` with the calling user. */
export async function identify(args: IdentifyArgs = {}): Promise<AnalyticsResult> {
  const result = await api().identify({ properties: args.properties });
  return { status: result.status };
}

/** Analytics: records the event `event` with optional `properties`. Sent once, never retried blindly. */
export async function track(args: TrackArgs): Promise<AnalyticsResult> {
  const result = await api().track({ event: args.event, properties: args.properties });
  return { status: result.status };
}
