/**
 * The engine's Construct: builds `mdb:index:ProductionDatabase` in the plugin's process for a
 * program in any language (its SDK's class is a remote component), with the request's options,
 * and answers with the component's URN and registered outputs. Its children are the native types,
 * which the engine then hands back to this plugin's resource RPCs like any others. The builder
 * (`build.ts`, with the Node.js SDK it needs) loads on the first Construct, so that a plugin
 * serving only resources never loads the SDK.
 */
import * as grpc from "@grpc/grpc-js";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { PluginContext } from "../context";
import { RpcError } from "../errors";
import { PACKAGE, tokenOf } from "../kinds";

/** The component types the plugin constructs. */
const COMPONENT = tokenOf("ProductionDatabase");

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
      const { buildComponent } = require("./build") as typeof import("./build");
      return buildComponent(request, engineAddress, ctx.provider.reference);
    },
  };
}
