/**
 * RELIANCE on the protocol modules `@pulumi/pulumi` ships but does not publish as an API: the
 * code generated from Pulumi's `.proto` files (`proto/provider_grpc_pb`, `provider_pb`,
 * `engine_grpc_pb`, `engine_pb`, `plugin_pb`, `status_pb`) and the `google-protobuf` well-known
 * types they are built on (`Struct`, `Empty`, `Any`). The plugin's gRPC server (the
 * ResourceProvider service) and its client of the engine (`Log`) speak through them, so the
 * messages are exactly the engine's. `test/unit/pulumi-contract.test.ts` checks that the
 * installed release still has every method, message and field the plugin uses.
 *
 * Loaded on first use, from the `@pulumi/pulumi` next to this package (a peer dependency), and
 * `google-protobuf` from that package's own place, so both sides use one copy of the message
 * classes whatever npm hoisted.
 */
import * as path from "path";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as PluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";
import type * as AnyPb from "google-protobuf/google/protobuf/any_pb";
import type * as EmptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";

/** One method of a gRPC service as the generated code describes it (what a gRPC server adds). */
export interface MethodDefinition {
  /** `/pulumirpc.ResourceProvider/Check`. */
  path: string;
  /** True for a streaming request. */
  requestStream: boolean;
  /** True for a streaming response. */
  responseStream: boolean;
  /** Encodes a request. */
  requestSerialize(value: unknown): Buffer;
  /** Decodes a request. */
  requestDeserialize(bytes: Buffer): unknown;
  /** Encodes a response. */
  responseSerialize(value: unknown): Buffer;
  /** Decodes a response. */
  responseDeserialize(bytes: Buffer): unknown;
}

/** A gRPC service as the generated code describes it: its methods by (lower camel case) name. */
export type ServiceDefinition = Record<string, MethodDefinition>;

/** The messages and services of Pulumi's protocol that the plugin uses. */
export interface Protocol {
  /** ResourceProvider's messages (`CheckRequest`, `DiffResponse`, `ErrorResourceInitFailed`, ...). */
  provider: typeof ProviderPb;
  /** The ResourceProvider service, which the plugin serves. */
  providerService: ServiceDefinition;
  /** `PluginInfo`. */
  plugin: typeof PluginPb;
  /** The engine's messages (`LogRequest`, `LogSeverity`). */
  engine: typeof EnginePb;
  /** The Engine service, which the plugin calls (`Log`). */
  engineService: ServiceDefinition;
  /** `google.rpc.Status`, which carries an error's details. */
  status: typeof StatusPb;
  /** `google.protobuf.Struct`, the properties of every request and response. */
  struct: typeof StructPb;
  /** `google.protobuf.Empty`. */
  empty: typeof EmptyPb;
  /** `google.protobuf.Any`, an error detail's envelope. */
  any: typeof AnyPb;
}

/** The metadata key under which a gRPC status with details travels (what Go's `status.FromError` reads). */
export const STATUS_DETAILS_KEY = "grpc-status-details-bin";

/** The name a detail of type `ErrorResourceInitFailed` is packed under in its `Any`. */
export const INIT_FAILED_TYPE = "pulumirpc.ErrorResourceInitFailed";

let loaded: Protocol | undefined;

/** Pulumi's protocol modules, loaded once (see above). */
export function protocol(): Protocol {
  if (loaded) return loaded;
  let protoDir: string;
  try {
    protoDir = path.dirname(require.resolve("@pulumi/pulumi/proto/provider_pb"));
  } catch (error) {
    throw new Error(
      "cannot find @pulumi/pulumi beside pulumi-managed-db, which the plugin mdb needs (a peer dependency): " +
        "install it in the same project (`npm install @pulumi/pulumi`)",
      { cause: error },
    );
  }
  const fromPulumi = <T>(id: string): T => require(require.resolve(id, { paths: [protoDir] })) as T;
  const providerGrpc = fromPulumi<{ ResourceProviderService: ServiceDefinition }>(
    "@pulumi/pulumi/proto/provider_grpc_pb",
  );
  const engineGrpc = fromPulumi<{ EngineService: ServiceDefinition }>("@pulumi/pulumi/proto/engine_grpc_pb");
  loaded = {
    provider: fromPulumi("@pulumi/pulumi/proto/provider_pb"),
    providerService: providerGrpc.ResourceProviderService,
    plugin: fromPulumi("@pulumi/pulumi/proto/plugin_pb"),
    engine: fromPulumi("@pulumi/pulumi/proto/engine_pb"),
    engineService: engineGrpc.EngineService,
    status: fromPulumi("@pulumi/pulumi/proto/status_pb"),
    struct: fromPulumi("google-protobuf/google/protobuf/struct_pb"),
    empty: fromPulumi("google-protobuf/google/protobuf/empty_pb"),
    any: fromPulumi("google-protobuf/google/protobuf/any_pb"),
  };
  return loaded;
}
