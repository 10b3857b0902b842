/**
 * The plugin's entry: `node main.js [engine flags] <engine address>`, as the engine runs a
 * provider plugin (through the shell script `plugin/pulumi-resource-mdb`, or `plugin/index.js`
 * under the Node.js language host). Starts the server on 127.0.0.1 and prints its port as the
 * first and only line on stdout, which is how the engine finds it.
 */
import { flushCompileCache } from "../../compile-cache";
import { startPlugin } from "./server";

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
  const plugin = await startPlugin({ engineAddress: engineAddressOf(args) });
  process.stdout.write(`${plugin.port}\n`);
  // The engine kills the plugin: what the compile cache gathered is written now or never.
  setImmediate(flushCompileCache);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`pulumi-managed-db plugin: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
