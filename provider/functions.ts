/**
 * Invokes for Pulumi programs: typed async functions that read the API (and send analytics)
 * from the program's own process, not the provider host. They use the same client and the same
 * settings as the resources: stack config `mdb:*`, then the `MDB_*` environment variables.
 * Records come back camelCase, mapped by the resource modules' own output functions.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigSource, resolveConfig } from "./config";
import { withoutUndefined } from "./kit/outputs";
import { ReadReplicaSetOutputs, replicaSetOutputs } from "./resources/read-replica-set";
import { ServiceOutputs, serviceOutputs } from "./resources/service";
import { VpcOutputs, vpcOutputs } from "./resources/vpc";
import { VpcPeeringOutputs, peeringOutputs } from "./resources/vpc-peering";
import { ApiSession } from "./runtime";

// ---------------------------------------------------------------------------------------
// Client of the program process
// ---------------------------------------------------------------------------------------

/** The stack config of namespace `mdb`, in the `mdb:key` form {@link resolveConfig} reads. */
function stackConfig(): ConfigSource {
  const config = new pulumi.Config("mdb");
  // `get` returns a secret's plain value, which the client needs; it never reaches an output.
  return { get: (key) => config.get(key.replace(/^mdb:/, "")) };
}

let session: ApiSession | undefined;

function getClient(): ApiSession {
  session ??= new ApiSession(resolveConfig(stackConfig()));
  return session;
}

/**
 * Forgets the client built from the settings, so the next call reads stack config and the
 * environment again (for programs and tests that change them).
 */
export function resetFunctionsClient(): void {
  session = undefined;
}

/**
 * The project a function call is about: `own` when given, else `mdb:projectId` /
 * `MDB_PROJECT_ID`, else the project the API key belongs to (asked once, `GET /auth/info`).
 * The same precedence as the resources.
 */
export function resolveFunctionsProjectId(own?: string): Promise<string> {
  return getClient().projectId(own);
}

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

/** Who the API key belongs to, as `GET /auth/info` tells. */
export interface AuthInfoResult {
  /** Kind of credential, e.g. `apiKey`. */
  type: string;
  /** The public key in use. */
  publicKey: string;
  /** Name of the key. */
  name?: string;
  /** When the key was created (ISO 8601). */
  created?: string;
  /** Project the key belongs to: the default project of every call. */
  project: { id: string; name?: string; planType?: string };
  /** User who issued the key. */
  issuingUser?: { id?: string; name?: string; email?: string };
}

/** A service as {@link getService} and {@link listServices} return it: the `Service` resource's outputs, without secrets. */
export type ServiceResult = Omit<ServiceOutputs, "password" | "initialPassword">;

/** A read replica set, as the `ReadReplicaSet` resource's outputs. */
export type ReadReplicaSetResult = ReadReplicaSetOutputs;

/** A VPC, as the `Vpc` resource's outputs. */
export type VpcResult = VpcOutputs;

/** A VPC peering, as the `VpcPeering` resource's outputs. */
export type VpcPeeringResult = VpcPeeringOutputs;

/** Answer of the analytics calls. */
export interface AnalyticsResult {
  /** Status the API reports, e.g. `success`. */
  status: string;
}

function serviceResult(record: Parameters<typeof serviceOutputs>[0]): ServiceResult {
  const { password: _password, initialPassword: _initial, ...rest } = serviceOutputs(record, {});
  return withoutUndefined(rest);
}

// ---------------------------------------------------------------------------------------
// Functions
// ---------------------------------------------------------------------------------------

/** Who the configured API key belongs to: its public key, name, project and issuing user. */
export async function getAuthInfo(): Promise<AuthInfoResult> {
  const info = await getClient().api.getAuthInfo();
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
 * One service by id. `projectId` defaults like the resources' (config, environment, the
 * key's project). Fails with the API's 404 when there is no such service.
 */
export async function getService(args: { serviceId: string; projectId?: string }): Promise<ServiceResult> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return serviceResult(await getClient().api.getService(projectId, args.serviceId));
}

/** Every service of a project (default project as for the resources). */
export async function listServices(args: { projectId?: string } = {}): Promise<ServiceResult[]> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return (await getClient().api.listServices(projectId)).map(serviceResult);
}

/** One VPC by id. Fails with the API's 404 when there is no such VPC. */
export async function getVpc(args: { vpcId: string; projectId?: string }): Promise<VpcResult> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return vpcOutputs(await getClient().api.getVpc(projectId, args.vpcId), projectId);
}

/** Every VPC of a project. */
export async function listVpcs(args: { projectId?: string } = {}): Promise<VpcResult[]> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return (await getClient().api.listVpcs(projectId)).map((v) => vpcOutputs(v, projectId));
}

/** The read replica sets of a service (sizes in milli-cores and GiB per node). */
export async function listReadReplicaSets(args: {
  serviceId: string;
  projectId?: string;
}): Promise<ReadReplicaSetResult[]> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return (await getClient().api.listReplicaSets(projectId, args.serviceId)).map((r) =>
    withoutUndefined(replicaSetOutputs(r, args.serviceId, projectId)),
  );
}

/** One peering of a VPC. Fails with the API's 404 when there is no such peering. */
export async function getVpcPeering(args: {
  vpcId: string;
  peeringId: string;
  projectId?: string;
}): Promise<VpcPeeringResult> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  const record = await getClient().api.getPeering(projectId, args.vpcId, args.peeringId);
  return withoutUndefined(peeringOutputs(record, args.vpcId, projectId));
}

/** The peerings of a VPC. */
export async function listVpcPeerings(args: {
  vpcId: string;
  projectId?: string;
}): Promise<VpcPeeringResult[]> {
  const projectId = await resolveFunctionsProjectId(args.projectId);
  return (await getClient().api.listPeerings(projectId, args.vpcId)).map((p) =>
    withoutUndefined(peeringOutputs(p, args.vpcId, projectId)),
  );
}

/** Analytics: associates `properties` with the calling user. */
export async function identify(
  args: { properties?: Record<string, unknown> } = {},
): Promise<AnalyticsResult> {
  const result = await getClient().api.identify(args.properties);
  return { status: result.status };
}

/** Analytics: records the event `event` with optional `properties`. Sent once, never retried blindly. */
export async function track(args: {
  event: string;
  properties?: Record<string, unknown>;
}): Promise<AnalyticsResult> {
  const result = await getClient().api.track(args.event, args.properties);
  return { status: result.status };
}
