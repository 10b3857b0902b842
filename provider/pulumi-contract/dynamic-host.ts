/**
 * RELIANCE on Pulumi's dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`) and the
 * `@grpc/grpc-js` it serves the engine with, which Pulumi does not document:
 * - the host is the process's main module, `…/@pulumi/pulumi/cmd/dynamic-provider/index.js`,
 *   started with the engine's address as its first argument (`main(process.argv.slice(2))`);
 * - it serves the engine with `new grpc.Server(…)` of the `@grpc/grpc-js` its own module resolves
 *   (`require("@grpc/grpc-js")`), whose `Server.prototype._retrieveHandler(path)` (grpc-js's
 *   `server.js`) is called with the method's path for every incoming call, before its handler;
 * - at the first Ctrl-C the engine calls `/pulumirpc.ResourceProvider/Cancel`, and the host's
 *   handler of it does nothing: the operations in flight run to their end (a 40 s create did).
 *
 * So the package watches the calls the host receives and tells the runtime of a Cancel, which
 * ends the waits (`kit/lifecycle/cancel.ts`). `test/unit/pulumi-contract.test.ts` checks each fact
 * on the installed release, and runs the host itself to see a Cancel reach the watcher.
 */

/** The path of the engine's Cancel call to a resource provider. */
export const CANCEL_PATH = "/pulumirpc.ResourceProvider/Cancel";

/** Where the dynamic provider host's own main module lives, from the package's root. */
const HOST_MAIN = /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/;

/** This process as Pulumi's dynamic provider host: the engine's address, and the host's `require`. */
export interface DynamicHost {
  /** The engine's gRPC address (`127.0.0.1:port`), the host's first argument. */
  engine: string;
  /** `require` as the host's own module resolves (its `@grpc/grpc-js`). */
  require: NodeRequire;
}

/**
 * This process as Pulumi's dynamic provider host, or undefined when it is not (a program, a test,
 * the plugin): the main module is the host's and its first argument is an address.
 */
export function dynamicHost(
  main: NodeModule | undefined = mainModule(),
  argv: readonly string[] = process.argv,
): DynamicHost | undefined {
  if (!main || !HOST_MAIN.test(main.filename) || !argv[2]) return undefined;
  return { engine: argv[2], require: main.require.bind(main) as NodeRequire };
}

/**
 * The process's main module: `require.main`, or (for a module loaded before it, with `node -r`)
 * the module the cache holds under the main module's id, `.`.
 */
function mainModule(): NodeModule | undefined {
  return require.main ?? Object.values(require.cache).find((m) => m?.id === ".");
}

/** What the watcher needs of grpc-js's `Server`. */
interface GrpcServerClass {
  prototype: { _retrieveHandler?: (this: unknown, path: string) => unknown };
}

/** Callbacks of Cancel, per patched prototype (one per grpc-js copy). */
const WATCHERS = new WeakMap<object, Array<() => void>>();

/**
 * Calls `onCancel` when the gRPC server of `grpc` (the host's `@grpc/grpc-js`, by default the one
 * the host's module resolves) receives the engine's Cancel; the call goes on to its handler as
 * before. Returns false, changing nothing, when that grpc-js has no `Server.prototype._retrieveHandler`
 * (a release where this reliance broke) or this process is not the host.
 */
export function onEngineCancel(
  onCancel: () => void,
  grpc: { Server: GrpcServerClass } | undefined = hostGrpc(),
): boolean {
  const proto = grpc?.Server?.prototype;
  const original = proto?._retrieveHandler;
  if (!proto || typeof original !== "function") return false;
  let callbacks = WATCHERS.get(proto);
  if (!callbacks) {
    const watchers: Array<() => void> = [];
    callbacks = watchers;
    WATCHERS.set(proto, watchers);
    proto._retrieveHandler = function (this: unknown, path: string) {
      if (path === CANCEL_PATH) for (const callback of watchers) callback();
      return original.call(this, path);
    };
  }
  callbacks.push(onCancel);
  return true;
}

/** The host's `@grpc/grpc-js`, or undefined outside the host. */
function hostGrpc(): { Server: GrpcServerClass } | undefined {
  const host = dynamicHost();
  return host ? (host.require("@grpc/grpc-js") as { Server: GrpcServerClass }) : undefined;
}
