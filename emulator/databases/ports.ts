/**
 * Free local ports, known synchronously: the API answers a create with the endpoint's port at
 * once, so a few ports are held in reserve (bound by idle listeners) and handed out on demand.
 *
 * A port handed out is unbound until its server binds it (a PostgreSQL start takes a second or
 * more), so the reserve takes its ports below the kernel's ephemeral range: a port in that range
 * could meanwhile be given to any other process's `listen(0)` or outgoing connection (a CI run saw
 * a `pulumi` command take one, and the service's database never started).
 */
import { readFileSync } from "node:fs";
import net from "node:net";

/** Where the reserve picks its ports when the ephemeral range leaves room below it. */
const LOWEST = 10_000;
/** Fewest ports below the ephemeral range worth picking from; with fewer, `listen(0)` picks. */
const ROOM = 2_000;
/** The ephemeral range where the kernel does not say (IANA's, as on macOS and Windows). */
const IANA_EPHEMERAL: readonly [number, number] = [49_152, 65_535];

/**
 * The ports the kernel hands to `listen(0)` and outgoing connections: Linux's
 * `ip_local_port_range` (`path`), IANA's 49152-65535 where it cannot be read.
 */
export function ephemeralRange(path = "/proc/sys/net/ipv4/ip_local_port_range"): readonly [number, number] {
  try {
    const [low, high] = readFileSync(path, "utf8").trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && 0 < low && low <= high) return [low, high];
  } catch {
    // not Linux, or not readable
  }
  return IANA_EPHEMERAL;
}

/** The range the reserve picks from ([low, high), below the ephemeral one), or none: use `listen(0)`. */
export function pickRange(
  ephemeral: readonly [number, number] = ephemeralRange(),
): [number, number] | undefined {
  return ephemeral[0] - LOWEST >= ROOM ? [LOWEST, ephemeral[0]] : undefined;
}

/** A reserve of free ports on 127.0.0.1. */
export class PortPool {
  private readonly held: { port: number; server: net.Server }[] = [];
  private filling?: Promise<void>;
  private closed = false;
  /** Ports records of the state already own (a paused server's is not bound, yet taken). */
  private readonly reserved = new Set<number>();

  /**
   * @param size ports held in reserve (default 6)
   * @param range where ports are picked ([low, high)); default below the kernel's ephemeral range
   */
  constructor(
    private readonly size = 6,
    private readonly range: [number, number] | undefined = pickRange(),
  ) {}

  /** Fills the reserve; resolves once it is full. */
  async fill(): Promise<void> {
    this.filling ??= (async () => {
      while (!this.closed && this.held.length < this.size) {
        const candidate = this.range ? this.candidate() : 0;
        const server = net.createServer((socket) => socket.destroy());
        const bound = await new Promise<boolean>((resolve, reject) => {
          server.once("error", (error: NodeJS.ErrnoException) =>
            candidate !== 0 && (error.code === "EADDRINUSE" || error.code === "EACCES")
              ? resolve(false)
              : reject(error),
          );
          server.listen({ port: candidate, host: "127.0.0.1", exclusive: true }, () => resolve(true));
        });
        if (!bound) continue;
        const port = (server.address() as net.AddressInfo).port;
        if (this.reserved.has(port) || this.closed) server.close();
        else this.held.push({ port, server });
      }
    })().finally(() => (this.filling = undefined));
    return this.filling;
  }

  /** Marks `ports` as owned (by records of a saved state): never handed out, released if held. */
  reserve(ports: readonly number[]): void {
    for (const port of ports) this.reserved.add(port);
    for (const entry of this.held.filter(({ port }) => this.reserved.has(port))) {
      this.held.splice(this.held.indexOf(entry), 1);
      entry.server.close();
    }
    void this.fill();
  }

  /** A free port, released for its new owner to bind; the reserve refills behind it. */
  take(): number {
    const next = this.held.shift();
    void this.fill();
    if (next) {
      next.server.close();
      this.reserved.add(next.port);
      return next.port;
    }
    // The reserve ran dry (a burst of creates): a port not known to be taken; a clash fails the start.
    const port = this.candidate();
    this.reserved.add(port);
    return port;
  }

  /** Releases the reserve. */
  close(): void {
    this.closed = true;
    for (const { server } of this.held.splice(0)) server.close();
  }

  /** A random port of the range (or of 20000-59999 without one) that no record owns and none is held. */
  private candidate(): number {
    const [low, high] = this.range ?? [20_000, 60_000];
    let port: number;
    do port = low + Math.floor(Math.random() * (high - low));
    while (this.reserved.has(port) || this.held.some((entry) => entry.port === port));
    return port;
  }
}
