/**
 * Builds `mdb:index:ProductionDatabase` for a Construct request (see `rpc.ts`): the SDK's runtime
 * set up for the request, the component made with the request's options, its URN, outputs and
 * their dependencies. Loaded only by a Construct: it needs the whole Node.js SDK
 * (`@pulumi/pulumi`), which no other RPC of the plugin does, and loading it would make every
 * plugin process start slower and larger.
 */
import * as pulumi from "@pulumi/pulumi";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { ProductionDatabaseArgs } from "../../../components/production-database-args";
import { constructInProcess } from "../../../pulumi-contract/construct-runtime";
import { protocol } from "../../../pulumi-contract/grpc-protocol";
import { NATIVE_PACKAGE as PACKAGE } from "../../../type-tokens";
import { NativeProductionDatabase } from "./component";

/** An alias of the request, as newer protocol releases give it. */
interface AliasMessage {
  hasUrn(): boolean;
  getUrn(): string;
  getSpec():
    | {
        getName(): string;
        getProject(): string;
        getStack(): string;
        hasParenturn(): boolean;
        getParenturn(): string;
        getNoparent(): boolean;
      }
    | undefined;
}

/**
 * The component's options, as the engine's request gives them. Its children use the provider the
 * program named for `mdb`, else `self` (the provider the engine registered the component with, so
 * children and component share one: the engine gives a remote component's children none of its
 * own, and a default one they ask for would be a second provider, `default` beside the SDK's
 * versioned `default_0_1_0`, which the next run would move them off).
 */
function optionsOf(request: pb.ConstructRequest, self: string | undefined): pulumi.ComponentResourceOptions {
  const providers: Record<string, pulumi.ProviderResource> = {};
  for (const [pkg, ref] of request.getProvidersMap().entries())
    providers[pkg] = new pulumi.DependencyProviderResource(ref);
  if (self && !(PACKAGE in providers)) providers[PACKAGE] = new pulumi.DependencyProviderResource(self);
  // A URN each (the protocol of @pulumi/pulumi before 3.2xx), or an Alias message each.
  const aliases: Array<string | pulumi.Alias> = (request.getAliasesList() as unknown[]).map((alias) => {
    if (typeof alias === "string") return alias;
    const message = alias as AliasMessage;
    if (message.hasUrn()) return message.getUrn();
    const spec = message.getSpec();
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

/** The component of `request`, built in this process, as the engine's answer. */
export async function buildComponent(
  request: pb.ConstructRequest,
  engineAddress: string,
  self?: string,
): Promise<pb.ConstructResponse> {
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
        optionsOf(request, self),
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
}
