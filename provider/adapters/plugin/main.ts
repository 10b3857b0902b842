/**
 * The plugin's entry: `node main.js [engine flags] <engine address>`, as the engine runs a
 * provider plugin (through the shell script `plugin/pulumi-resource-mdb`, or `plugin/index.js`
 * under the Node.js language host). Starts the server on 127.0.0.1 and prints its port as the
 * first and only line on stdout, which is how the engine finds it; then watches that engine, and
 * exits once it is gone (`engine-watch.ts`: the engine starts its plugins in process groups of
 * their own, so a `kill -9` of `pulumi up` would leave this one running its waits). A plugin
 * started without an engine address (one the engine attaches to) is not watched.
 */
import { flushCompileCache } from "../../compile-cache";
import { watchEngine } from "../../engine-watch";

/** The engine's address among the plugin's arguments: the one that is not a flag the engine adds. */
export function engineAddressOf(args: readonly string[]): string | undefined {
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) positional.push(args[i]);
  }
  return positional[0];
}

/** Runs the plugin with the process's arguments `args` (those after the script). */
export async function main(args: readonly string[]): Promise<void> {
  // Loaded here, so that a module missing from the installation fails the start as any error does.
  const { startPlugin } = require("./server") as typeof import("./server");
  const engineAddress = engineAddressOf(args);
  const plugin = await startPlugin({ engineAddress });
  process.stdout.write(`${plugin.port}\n`);
  if (engineAddress) watchEngine(engineAddress);
  // The engine kills the plugin: what the compile cache gathered is written now or never.
  setImmediate(flushCompileCache);
}

/**
 * Ends a plugin that could not start: one line on stdout, where the engine expects the port and
 * quotes whatever it finds instead (it hides a plugin's stderr), the details on stderr.
 */
export function failedStart(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(
    `pulumi-managed-db: the plugin mdb could not start: ${message.replace(/\s+/g, " ")}\n`,
  );
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
}

if (require.main === module) main(process.argv.slice(2)).catch(failedStart);
