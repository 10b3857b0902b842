/**
 * The provider process ends once its engine is gone (`provider/engine-watch.ts`): against a fake
 * engine (a TCP server on loopback), a watch stays quiet while it answers, ends the process a few
 * seconds after it is gone (within 10 s), and never keeps alive a process that would end anyway;
 * the native plugin's process, started as the engine starts it, ends so too.
 * The child processes run the built package (`npm test` builds it first).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { parseAddress, watchEngine } from "../../provider/engine-watch";

const built = path.resolve(__dirname, "../../dist/provider/engine-watch.js");

/** A fake engine: a TCP server on 127.0.0.1 that accepts and drops connections. */
async function fakeEngine() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Runs `script` in a child `node` with `watchEngine` bound; resolves when it exits, with how long it ran. */
function child(script: string) {
  const started = Date.now();
  const proc = spawn(
    process.execPath,
    ["-e", `const { watchEngine } = require(${JSON.stringify(built)}); ${script}`],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; ms: number; stderr: string }>((resolve) =>
    proc.once("exit", (code) => resolve({ code, ms: Date.now() - started, stderr })),
  );
  return { proc, exited };
}

beforeAll(() => {
  if (!fs.existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
});

it("reads the addresses Pulumi hands its plugins", () => {
  expect(parseAddress("127.0.0.1:41235")).toEqual({ host: "127.0.0.1", port: 41235 });
  expect(parseAddress("[::1]:41235")).toEqual({ host: "::1", port: 41235 });
  expect(parseAddress("localhost:41235")).toEqual({ host: "localhost", port: 41235 });
  expect(parseAddress("nowhere")).toBeUndefined();
});

it("says nothing while the engine answers; calls onGone once it has refused twice in a row", async () => {
  const engine = await fakeEngine();
  const gone = jest.fn();
  const watch = watchEngine(engine.address, { everyMs: 100, onGone: gone });
  try {
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(gone).not.toHaveBeenCalled();
    const stopped = Date.now();
    await engine.stop();
    while (gone.mock.calls.length === 0 && Date.now() - stopped < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gone).toHaveBeenCalledTimes(1);
    expect(gone.mock.calls[0][0]).toMatch(/^127\.0\.0\.1:\d+: ECONNREFUSED, 2 times in a row$/);
    // Two looks 100 ms apart, the first within 100 ms of the engine's end.
    expect(Date.now() - stopped).toBeLessThan(400);
  } finally {
    watch.stop();
  }
});

it("with its defaults, ends the provider process within 10 s of its engine's end, saying why", async () => {
  const engine = await fakeEngine();
  // The interval stands for the gRPC server that keeps a provider process alive.
  const { exited } = child(`watchEngine(${JSON.stringify(engine.address)}); setInterval(() => {}, 1000);`);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const stopped = Date.now();
  await engine.stop();
  const { code, stderr } = await exited;
  const afterEngine = Date.now() - stopped;
  expect(code).toBe(1);
  expect(stderr).toMatch(
    /^\[mdb\] the Pulumi engine is gone \(127\.0\.0\.1:\d+: ECONNREFUSED, 2 times in a row\): this provider process exits\n$/,
  );
  // Looks every 2 s, two misses in a row: 2 to 4 s, plus the looks themselves.
  expect(afterEngine).toBeLessThan(10_000);
  process.stderr.write(`engine-watch: the process exited ${afterEngine} ms after its engine\n`);
}, 20_000);

it("the native plugin, started with its engine's address, exits within 10 s of its engine's end", async () => {
  const engine = await fakeEngine();
  const main = path.resolve(__dirname, "../../dist/provider/adapters/plugin/main.js");
  const proc = spawn(process.execPath, [main, engine.address], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  try {
    // Serving: its port is the first line on stdout.
    const port = await new Promise<string>((resolve) =>
      proc.stdout.once("data", (chunk: Buffer) => resolve(String(chunk))),
    );
    expect(port).toMatch(/^\d+\n$/);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(proc.exitCode).toBeNull();
    const stopped = Date.now();
    await engine.stop();
    expect(await exited).toBe(1);
    expect(Date.now() - stopped).toBeLessThan(10_000);
    expect(stderr).toMatch(
      /\[mdb\] the Pulumi engine is gone \(127\.0\.0\.1:\d+: ECONNREFUSED, 2 times in a row\)/,
    );
  } finally {
    proc.kill("SIGKILL");
    await engine.stop();
  }
}, 20_000);

it("never keeps a process alive that would end anyway", async () => {
  const engine = await fakeEngine();
  try {
    const { exited } = child(`watchEngine(${JSON.stringify(engine.address)});`);
    const { code, ms } = await exited;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(2_000);
  } finally {
    await engine.stop();
  }
});
