/**
 * Ends a provider process whose engine is gone. Pulumi starts its plugins (the dynamic provider
 * host, the `mdb` plugin) in process groups of their own, so a `kill -9` of `pulumi up`, a lost
 * CI runner or a closed terminal takes the engine down and leaves the provider running its waits
 * for minutes, holding connections and the API's attention for nobody. The watch connects to the
 * engine's address every couple of seconds and exits the process once the address has refused
 * (or not answered) a few times in a row. Its timers and sockets are unref'd: it never keeps a
 * process alive that would otherwise end. The dynamic provider host starts it (`host.ts`); the
 * plugin starts it with the engine address it is given.
 */
import * as net from "node:net";

/** Settings of {@link watchEngine}. */
export interface EngineWatchOptions {
  /** How often the engine is looked for, in ms. Default 2 000. */
  everyMs?: number;
  /** How many looks in a row must fail before the engine counts as gone. Default 2. */
  misses?: number;
  /** How long one look waits for the connection, in ms. Default 1 000. */
  connectTimeoutMs?: number;
  /** What happens once the engine is gone; default: a line on stderr, then the process exits. */
  onGone?: (why: string) => void;
}

/** A running watch. */
export interface EngineWatch {
  /** Stops watching. */
  stop(): void;
}

/** Host and port of a gRPC address: `127.0.0.1:41235`, `[::1]:41235`, `localhost:41235`. */
export function parseAddress(address: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(address.trim());
  if (!match) return undefined;
  return { host: match[1] ?? match[2], port: Number(match[3]) };
}

/** Whether something accepts a connection at `host:port` within `timeoutMs`; why not, when not. */
function reachable(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.unref();
    const done = (why: string | undefined) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

/** A failed write to a pipe nobody reads any more: nothing to do (the watch ends the process). */
function ignoreWriteError(): void {}

/** The default end: say so (the engine may still read stderr), then exit. */
function exitGone(why: string): void {
  try {
    process.stderr.write(`[mdb] the Pulumi engine is gone (${why}): this provider process exits\n`);
  } finally {
    process.exit(1);
  }
}

/**
 * Watches the engine at `address` (see the module comment); once it is gone, calls `onGone`.
 * An address it cannot read is not watched.
 */
export function watchEngine(address: string, options: EngineWatchOptions = {}): EngineWatch {
  const target = parseAddress(address);
  if (!target) return { stop: () => undefined };
  // Once the engine is gone, so is the reader of this process's stdout and stderr: a write then
  // fails (EPIPE) and, unhandled, becomes an uncaught error that the host reports by writing to
  // stderr again, a loop that keeps the process busy and its timers (this watch's) from running.
  for (const stream of [process.stdout, process.stderr])
    if (!stream.listeners("error").includes(ignoreWriteError)) stream.on("error", ignoreWriteError);
  const misses = options.misses ?? 2;
  const timeoutMs = options.connectTimeoutMs ?? 1_000;
  const onGone = options.onGone ?? exitGone;
  let missed = 0;
  let looking = false;
  let stopped = false;
  const timer = setInterval(async () => {
    if (looking || stopped) return;
    looking = true;
    const why = await reachable(target.host, target.port, timeoutMs);
    looking = false;
    if (stopped) return;
    missed = why === undefined ? 0 : missed + 1;
    if (why !== undefined && missed >= misses) {
      stopped = true;
      clearInterval(timer);
      onGone(`${address}: ${why}, ${missed} times in a row`);
    }
  }, options.everyMs ?? 2_000);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
