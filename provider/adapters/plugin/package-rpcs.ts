/**
 * The RPCs about the plugin itself: its version and schema, the engine's address when it
 * attaches to a running plugin.
 */
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import type * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { protocol } from "../../pulumi-contract/grpc-protocol";
import type { PluginContext } from "./context";
import { packageVersion, schemaText } from "./package-files";

/** The RPCs about the plugin. */
export function packageRpcs(ctx: PluginContext) {
  const pb = protocol();
  return {
    getPluginInfo(): pluginPb.PluginInfo {
      return new pb.plugin.PluginInfo().setVersion(packageVersion());
    },

    getSchema(): pb.GetSchemaResponse {
      return new pb.provider.GetSchemaResponse().setSchema(schemaText(ctx.schemaFile));
    },

    /** No other ecosystem's names map to this package's: an empty mapping. */
    getMapping(request: pb.GetMappingRequest): pb.GetMappingResponse {
      return new pb.provider.GetMappingResponse().setProvider(request.getProvider());
    },

    getMappings(): pb.GetMappingsResponse {
      return new pb.provider.GetMappingsResponse();
    },

    /** The engine attaches to a plugin it did not start (`PULUMI_DEBUG_PROVIDERS`): its address. */
    attach(request: pluginPb.PluginAttach): Empty {
      ctx.engine.setAddress(request.getAddress());
      return new pb.empty.Empty();
    },
  };
}
