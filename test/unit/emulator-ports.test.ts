/**
 * emulator/databases/ports.ts: the ports the emulator hands to new databases. A port is unbound
 * between the API's answer and its server's start, so it must come from below the kernel's
 * ephemeral range, where no other process's `listen(0)` or outgoing connection can take it.
 */
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import { PortPool, ephemeralRange, pickRange } from "../../emulator/databases/ports";

function listen(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe("the kernel's ephemeral range", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "ports-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is read from Linux's ip_local_port_range", () => {
    fs.writeFileSync(path.join(dir, "range"), "40000\t50000\n");
    expect(ephemeralRange(path.join(dir, "range"))).toEqual([40000, 50000]);
  });

  it("is IANA's 49152-65535 where the kernel does not say", () => {
    expect(ephemeralRange(path.join(dir, "missing"))).toEqual([49152, 65535]);
    fs.writeFileSync(path.join(dir, "range"), "garbage");
    expect(ephemeralRange(path.join(dir, "range"))).toEqual([49152, 65535]);
  });

  it("leaves the reserve the ports from 10000 up to it, or none when it starts too low", () => {
    expect(pickRange([32768, 60999])).toEqual([10000, 32768]);
    expect(pickRange([1024, 65535])).toBeUndefined();
  });
});

describe("PortPool", () => {
  it("hands out distinct ports below this machine's ephemeral range, each free for its new owner", async () => {
    const pool = new PortPool(3);
    await pool.fill();
    const ports = Array.from({ length: 8 }, () => pool.take());
    pool.close();
    expect(new Set(ports).size).toBe(8);
    const [low] = ephemeralRange();
    for (const port of ports) if (pickRange()) expect(port).toBeLessThan(low);
    const owners = await Promise.all(ports.map(listen));
    expect(owners.every(Boolean)).toBe(true);
    await Promise.all(owners.map((owner) => close(owner!)));
  });

  it("skips a port another process listens on, and one a record owns", async () => {
    // Three neighbouring ports, all free now: one is then taken by "another process", one is owned.
    let base = 0;
    let probes: (net.Server | undefined)[] = [undefined];
    for (let tries = 0; tries < 50 && !probes.every(Boolean); tries++) {
      await Promise.all(probes.filter(Boolean).map((probe) => close(probe!)));
      base = 20000 + Math.floor(Math.random() * 10000);
      probes = await Promise.all([0, 1, 2].map((offset) => listen(base + offset)));
    }
    expect(probes.every(Boolean)).toBe(true);
    await close(probes[0]!);
    await close(probes[2]!);
    const other = probes[1]!;
    const pool = new PortPool(1, [base, base + 3]);
    pool.reserve([base + 2]);
    await pool.fill();
    const port = pool.take();
    pool.close();
    await close(other);
    expect(port).toBe(base);
  });
});
