/**
 * The functions in their Output form, as Pulumi's own packages give every invoke: each takes
 * `pulumi.Input`s and returns a `pulumi.Output`, so a program can pass a resource's outputs in
 * and use the result as an input elsewhere without `apply`. The call is made once every input
 * is known (during a preview too, like any invoke); while one is unknown the result is unknown.
 * A secret input makes the result secret, and the result depends on the inputs' resources.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getAuthInfo,
  getProjects,
  getService,
  getVpc,
  getVpcPeering,
  identify,
  listReadReplicaSets,
  listServices,
  listVpcPeerings,
  listVpcs,
  track,
} from "./invokes";
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

/** The arguments `A` of a function, each of them a `pulumi.Input`. */
export type OutputArgs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** Arguments of {@link getServiceOutput}: `serviceId` or `name`, and `projectId`, as Inputs. */
export type GetServiceOutputArgs = OutputArgs<GetServiceArgs>;
/** Arguments of {@link getVpcOutput}: `vpcId` or `name`, and `projectId`, as Inputs. */
export type GetVpcOutputArgs = OutputArgs<GetVpcArgs>;
/** Arguments of {@link listServicesOutput} and {@link listVpcsOutput}, as Inputs. */
export type ProjectOutputArgs = OutputArgs<ProjectArgs>;
/** Arguments of {@link listReadReplicaSetsOutput}, as Inputs. */
export type ServiceScopeOutputArgs = OutputArgs<ServiceScopeArgs>;
/** Arguments of {@link listVpcPeeringsOutput}, as Inputs. */
export type VpcScopeOutputArgs = OutputArgs<VpcScopeArgs>;
/** Arguments of {@link getVpcPeeringOutput}, as Inputs. */
export type GetVpcPeeringOutputArgs = OutputArgs<GetVpcPeeringArgs>;
/** Arguments of {@link identifyOutput}, as Inputs. */
export type IdentifyOutputArgs = OutputArgs<IdentifyArgs>;
/** Arguments of {@link trackOutput}, as Inputs. */
export type TrackOutputArgs = OutputArgs<TrackArgs>;

/** Options of the Output forms. */
export interface FunctionOutputOptions {
  /**
   * Resources the call waits for: it is made once they are created or updated (and, during a
   * preview, the result is unknown while one of them is to be created). Default: none beyond
   * the resources whose outputs are among the arguments.
   */
  dependsOn?: pulumi.Resource | pulumi.Resource[];
}

/** An output that is known once every resource of `dependsOn` is done. */
function readiness(dependsOn: FunctionOutputOptions["dependsOn"]): pulumi.Output<unknown> {
  const resources = dependsOn === undefined ? [] : Array.isArray(dependsOn) ? dependsOn : [dependsOn];
  // A custom resource's id is known once it exists; a component has none, its URN stands in.
  return pulumi.all(resources.map((r) => (pulumi.CustomResource.isInstance(r) ? r.id : r.urn)));
}

/** Calls `fn` with the plain values of `args` once they (and `dependsOn`) are known. */
function callWhenKnown<A, R>(
  fn: (args: A) => Promise<R>,
  args: OutputArgs<A>,
  opts: FunctionOutputOptions = {},
): pulumi.Output<R> {
  return pulumi
    .all([pulumi.output(args as pulumi.Input<object>), readiness(opts.dependsOn)])
    .apply(([plain]) => fn(plain as A));
}

/** {@link getAuthInfo} as an Output: who the configured API key belongs to. */
export function getAuthInfoOutput(opts?: FunctionOutputOptions): pulumi.Output<AuthInfoResult> {
  return callWhenKnown(() => getAuthInfo(), {}, opts);
}

/** {@link getProjects} as an Output: the projects the configured API key reaches. */
export function getProjectsOutput(opts?: FunctionOutputOptions): pulumi.Output<ProjectResult[]> {
  return callWhenKnown(() => getProjects(), {}, opts);
}

/**
 * {@link getService} as an Output: one service by `serviceId` or by exact `name` (exactly one;
 * none or several services of that name is an error naming them), without secrets.
 */
export function getServiceOutput(
  args: GetServiceOutputArgs,
  opts?: FunctionOutputOptions,
): pulumi.Output<ServiceResult> {
  return callWhenKnown(getService, args, opts);
}

/** {@link listServices} as an Output: every service of a project. */
export function listServicesOutput(
  args: ProjectOutputArgs = {},
  opts?: FunctionOutputOptions,
): pulumi.Output<ServiceResult[]> {
  return callWhenKnown(listServices, args, opts);
}

/** {@link getVpc} as an Output: one VPC by `vpcId` or by exact `name` (exactly one). */
export function getVpcOutput(args: GetVpcOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<VpcResult> {
  return callWhenKnown(getVpc, args, opts);
}

/** {@link listVpcs} as an Output: every VPC of a project. */
export function listVpcsOutput(
  args: ProjectOutputArgs = {},
  opts?: FunctionOutputOptions,
): pulumi.Output<VpcResult[]> {
  return callWhenKnown(listVpcs, args, opts);
}

/** {@link listReadReplicaSets} as an Output: the read replica sets of a service. */
export function listReadReplicaSetsOutput(
  args: ServiceScopeOutputArgs,
  opts?: FunctionOutputOptions,
): pulumi.Output<ReadReplicaSetResult[]> {
  return callWhenKnown(listReadReplicaSets, args, opts);
}

/** {@link getVpcPeering} as an Output: one peering of a VPC. */
export function getVpcPeeringOutput(
  args: GetVpcPeeringOutputArgs,
  opts?: FunctionOutputOptions,
): pulumi.Output<VpcPeeringResult> {
  return callWhenKnown(getVpcPeering, args, opts);
}

/** {@link listVpcPeerings} as an Output: the peerings of a VPC. */
export function listVpcPeeringsOutput(
  args: VpcScopeOutputArgs,
  opts?: FunctionOutputOptions,
): pulumi.Output<VpcPeeringResult[]> {
  return callWhenKnown(listVpcPeerings, args, opts);
}

/**
 * {@link identify} as an Output. Sent when the program runs, previews included, once its
 * inputs are known.
 */
export function identifyOutput(
  args: IdentifyOutputArgs = {},
  opts?: FunctionOutputOptions,
): pulumi.Output<AnalyticsResult> {
  return callWhenKnown(identify, args, opts);
}

/**
 * {@link track} as an Output. Sent when the program runs, previews included, once its inputs
 * are known; sent once, never retried blindly.
 */
export function trackOutput(
  args: TrackOutputArgs,
  opts?: FunctionOutputOptions,
): pulumi.Output<AnalyticsResult> {
  return callWhenKnown(track, args, opts);
}
