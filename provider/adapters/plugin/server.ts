/**
 * The plugin's gRPC server: Pulumi's ResourceProvider service, each RPC answered by the module
 * of its group (`config-rpcs.ts`, `resource-rpcs.ts`, `invoke.ts`, `package-rpcs.ts`) over one
 * {@link PluginContext}. An answer waits until the progress lines of its call reached the
 * engine; an error becomes the gRPC status the engine reads (`errors.ts`). Listens on loopback
 * only.
 */
import * as grpc from "@grpc/grpc-js";
import { protocol } from "../../pulumi-contract/grpc-protocol";
import { ConfigRuntime } from "../../runtime";
import { configRpcs } from "./config-rpcs";
import { constructRpcs } from "./construct/rpc";
import type { PluginContext } from "./context";
import { EngineLog } from "./engine-log";
import { RpcError, statusOf } from "./errors";
import { invokeRpcs } from "./invoke";
import { Kinds, PACKAGE } from "./kinds";
import { schemaPath } from "./package-files";
import { packageRpcs } from "./package-rpcs";
import { resourceRpcs } from "./resource-rpcs";
import { progressLine } from "../../runtime";

/** Messages up to this size either way (a schema, a large state). */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** RPCs the plugin does not serve, with what it says to a caller of each. */
const NOT_SERVED: Record<string, string> = {
  call: "methods of components",
  parameterize: "parameterization",
};

/** A running plugin. */
export interface PluginServer {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** Its state (tests read and drive it). */
  context: PluginContext;
  /** Stops serving. */
  stop(): Promise<void>;
}

/** A handler of a unary RPC from a function of its request. */
function unary(ctx: PluginContext, fn: (request: never) => unknown): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => fn(call.request as never))
      .then(
        async (response) => {
          await ctx.engine.flushed();
          callback(null, response);
        },
        async (error: unknown) => {
          await ctx.engine.flushed();
          callback(statusOf(error));
        },
      );
  };
}

/** Where a plugin's engine listens, and (tests) another schema file than the package's. */
export interface PluginOptions {
  /** The engine's address, from the plugin's arguments (Handshake gives it again). */
  engineAddress?: string;
  /** The package schema GetSchema reads; default `plugin/schema.json` of the package. */
  schemaFile?: string;
}

/** The context of a new plugin process. */
export function newContext(options: PluginOptions = {}): PluginContext {
  const engine = new EngineLog(options.engineAddress);
  const runtime = new ConfigRuntime((message) => engine.info(progressLine(message)));
  const schemaFile = options.schemaFile ?? schemaPath();
  return { runtime, kinds: new Kinds(runtime), engine, handshake: { done: false }, provider: {}, schemaFile };
}

/** Starts serving on 127.0.0.1 at a free port. */
export async function startPlugin(options: PluginOptions = {}): Promise<PluginServer> {
  const ctx = newContext(options);
  const rpcs: Record<string, (request: never) => unknown> = {
    ...configRpcs(ctx),
    ...resourceRpcs(ctx),
    ...invokeRpcs(ctx),
    ...packageRpcs(ctx),
    ...constructRpcs(ctx),
  };
  for (const [name, what] of Object.entries(NOT_SERVED))
    rpcs[name] = () => {
      throw new RpcError(grpc.status.UNIMPLEMENTED, `the ${PACKAGE} plugin does not serve ${what}`);
    };
  const service = protocol().providerService;
  const handlers: grpc.UntypedServiceImplementation = {};
  for (const name of Object.keys(service)) if (rpcs[name]) handlers[name] = unary(ctx, rpcs[name]);
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });
  server.addService(service as unknown as grpc.ServiceDefinition, handlers);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    port,
    context: ctx,
    stop: () =>
      new Promise<void>((resolve) => {
        ctx.engine.close();
        server.tryShutdown(() => resolve());
      }),
  };
}
