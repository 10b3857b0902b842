/**
 * The engine's Construct: builds `mdb:index:ProductionDatabase` in the plugin's process for a
 * program in any language (its SDK's class is a remote component), with the request's options,
 * and answers with the component's URN and registered outputs. Its children are the native types,
 * which the engine then hands back to this plugin's resource RPCs like any others.
 */
import * as grpc from "@grpc/grpc-js";
import * as pulumi from "@pulumi/pulumi";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { ProductionDatabaseArgs } from "../../../components/production-database-args";
import { constructInProcess } from "../../../pulumi-contract/construct-runtime";
import { protocol } from "../../../pulumi-contract/grpc-protocol";
import type { PluginContext } from "../context";
import { RpcError } from "../errors";
import { PACKAGE, tokenOf } from "../kinds";
import { NativeProductionDatabase } from "./component";

/** The component types the plugin constructs. */
const COMPONENT = tokenOf("ProductionDatabase");

/** The component's options, as the engine's request gives them. */
function optionsOf(request: pb.ConstructRequest): pulumi.ComponentResourceOptions {
  const providers: Record<string, pulumi.ProviderResource> = {};
  for (const [pkg, ref] of request.getProvidersMap().entries())
    providers[pkg] = new pulumi.DependencyProviderResource(ref);
  const aliases: Array<string | pulumi.Alias> = request.getAliasesList().map((alias) => {
    if (alias.hasUrn()) return alias.getUrn();
    const spec = alias.getSpec();
    return {
      ...(spec?.getName() ? { name: spec.getName() } : {}),
      ...(spec?.getProject() ? { project: spec.getProject() } : {}),
      ...(spec?.getStack() ? { stack: spec.getStack() } : {}),
      ...(spec?.hasParenturn() ? { parent: spec.getParenturn() } : {}),
      ...(spec?.getNoparent() ? { parent: pulumi.rootStackResource } : {}),
    };
  });
  const timeouts = request.getCustomtimeouts();
  return {
    ...(request.getParent() ? { parent: new pulumi.DependencyResource(request.getParent()) } : {}),
    providers,
    aliases,
    dependsOn: request.getDependenciesList().map((urn) => new pulumi.DependencyResource(urn)),
    protect: request.getProtect(),
    ignoreChanges: request.getIgnorechangesList(),
    replaceOnChanges: request.getReplaceonchangesList(),
    retainOnDelete: request.getRetainondelete(),
    ...(request.getDeletedwith()
      ? { deletedWith: new pulumi.DependencyResource(request.getDeletedwith()) }
      : {}),
    ...(timeouts
      ? {
          customTimeouts: {
            ...(timeouts.getCreate() ? { create: timeouts.getCreate() } : {}),
            ...(timeouts.getUpdate() ? { update: timeouts.getUpdate() } : {}),
            ...(timeouts.getDelete() ? { delete: timeouts.getDelete() } : {}),
          },
        }
      : {}),
  };
}

/** The Construct RPC. */
export function constructRpcs(ctx: PluginContext) {
  return {
    async construct(request: pb.ConstructRequest): Promise<pb.ConstructResponse> {
      const type = request.getType();
      if (type !== COMPONENT)
        throw new RpcError(
          grpc.status.INVALID_ARGUMENT,
          `the ${PACKAGE} plugin has no component "${type}" (its component: ${COMPONENT})`,
        );
      const engineAddress = ctx.engine.engineAddress;
      if (!engineAddress)
        throw new RpcError(
          grpc.status.FAILED_PRECONDITION,
          `${COMPONENT}: the engine's address is not known yet`,
        );
      const pbs = protocol();
      const built = await constructInProcess(
        {
          project: request.getProject(),
          stack: request.getStack(),
          organization: request.getOrganization(),
          parallel: request.getParallel(),
          engineAddress,
          monitorAddress: request.getMonitorendpoint(),
          dryRun: request.getDryrun(),
          config: Object.fromEntries(request.getConfigMap().entries()),
          secretKeys: request.getConfigsecretkeysList(),
        },
        request.getInputs() ?? new pbs.struct.Struct(),
        request.getInputdependenciesMap(),
        (inputs) => {
          const component = new NativeProductionDatabase(
            request.getName(),
            inputs as unknown as ProductionDatabaseArgs,
            optionsOf(request),
          );
          return { urn: component.urn, state: { ...component.outputs } };
        },
      );
      const response = new pbs.provider.ConstructResponse();
      response.setUrn(built.urn);
      response.setState(pbs.struct.Struct.fromJavaScript(built.state as never));
      const dependencies = response.getStatedependenciesMap();
      for (const [key, urns] of built.dependencies)
        dependencies.set(key, new pbs.provider.ConstructResponse.PropertyDependencies().setUrnsList(urns));
      return response;
    },
  };
}
