/**
 * Free local ports, known synchronously: the API answers a create with the endpoint's port at
 * once, so a few ports are held in reserve (bound by idle listeners) and handed out on demand.
 */
import net from "node:net";

/** A reserve of free ports on 127.0.0.1. */
export class PortPool {
  private readonly held: { port: number; server: net.Server }[] = [];
  private filling?: Promise<void>;
  private closed = false;
  /** Ports records of the state already own (a paused server's is not bound, yet taken). */
  private readonly reserved = new Set<number>();

  constructor(private readonly size = 6) {}

  /** Fills the reserve; resolves once it is full. */
  async fill(): Promise<void> {
    this.filling ??= (async () => {
      while (!this.closed && this.held.length < this.size) {
        const server = net.createServer((socket) => socket.destroy());
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(0, "127.0.0.1", () => resolve());
        });
        const port = (server.address() as net.AddressInfo).port;
        if (this.reserved.has(port)) server.close();
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
    // The reserve ran dry (a burst of creates): an unlikely-to-be-used port; a clash fails the start.
    let port: number;
    do port = 20_000 + Math.floor(Math.random() * 40_000);
    while (this.reserved.has(port));
    return port;
  }

  /** Releases the reserve. */
  close(): void {
    this.closed = true;
    for (const { server } of this.held.splice(0)) server.close();
  }
}
