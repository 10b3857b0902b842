/**
 * The connection pooler's endpoint: a TCP proxy in the emulator's process in front of the same
 * server. It pools nothing (each client connection is one server connection), which no client can
 * tell apart except by counting server sessions; on or off is what it plays: off, it is refused.
 */
import net from "node:net";

/** A proxy from one local port to a server's port. */
export class Pooler {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    readonly port: number,
    private readonly targetPort: number,
  ) {}

  /** True while it accepts connections. */
  get listening(): boolean {
    return this.server !== undefined;
  }

  /** Starts accepting on `port`. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, "127.0.0.1");
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => undefined);
      }
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error) => {
        if (this.server === server) this.server = undefined;
        reject(error);
      });
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
  }

  /** Stops accepting and cuts every open connection: the endpoint refuses from now on. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
