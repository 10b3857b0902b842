/**
 * Bad input the emulator meets at start or on the way (issue 31), each answered with a clear message
 * naming it, and no service's data lost: a state file another dialect or a newer release wrote, a
 * second emulator on the same state file, a data folder another process holds, a port in use (the
 * API's, a database's the state records), a full disk while copying a fork (test hook
 * `enospc:fork:copying`). Once the cause is gone, a restart brings every service back.
 */
import { spawn, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { CliProcess, ensureBuilt } from "../helpers/cli-process";
import { connect, rows, until } from "./databases-helpers";

jest.setTimeout(120_000);

const AUTH = `Basic ${Buffer.from("mdb-dev-public:mdb-dev-secret").toString("base64")}`;
let dir: string;
let stateFile: string;
const started: CliProcess[] = [];
const others: ChildProcess[] = [];

beforeAll(() => ensureBuilt());

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mdb-bad-input-"));
  chmodSync(dir, 0o711); // as root, the servers run as postgres, which must pass through
  stateFile = path.join(dir, "state.json");
});

afterEach(() => {
  for (const cli of started.splice(0)) cli.child.kill("SIGKILL");
  for (const child of others.splice(0)) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI with `args`, not waited for. */
function spawnCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const cli = CliProcess.spawn(args, { env });
  started.push(cli);
  return cli;
}

/** An emulator with real databases on this test's state file, listening. */
async function emulator(extra: string[] = [], env: Record<string, string> = {}): Promise<CliProcess> {
  const cli = spawnCli(
    ["--port", "0", "--transition-ms", "50", "--databases", "--state-file", stateFile, ...extra],
    env,
  );
  await cli.listening();
  return cli;
}

/** How a start that must be refused ends: its exit code and its last line on stderr. */
async function refused(args: string[]): Promise<{ code: number | null; message: string }> {
  const cli = spawnCli(args);
  const code = await cli.exited;
  expect(cli.stdout).toBe("");
  return { code, message: cli.stderr.trim().split("\n").pop()! };
}

async function api(cli: CliProcess, method: string, route: string, body?: unknown) {
  const response = await fetch(`${cli.url}/projects/proj-dev${route}`, {
    method,
    headers: { authorization: AUTH, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown> & {
      service_id: string;
      status: string;
      initial_password: string;
      endpoint: { host: string; port: number };
      error_message?: string;
    },
  };
}

/** The service's record once it left QUEUED, CONFIGURING and RESUMING. */
async function settled(cli: CliProcess, id: string) {
  return (
    await until(
      () => api(cli, "GET", `/services/${id}`),
      (r) => !["QUEUED", "CONFIGURING", "RESUMING"].includes(r.body.status),
    )
  ).body;
}

/** A READY service with the rows `values` in table t. */
async function service(cli: CliProcess, name: string, values: number[]) {
  const created = (await api(cli, "POST", "/services", { name })).body;
  expect((await settled(cli, created.service_id)).status).toBe("READY");
  const client = await connect(created.endpoint, created.initial_password);
  await client.query("CREATE TABLE t (x int)");
  for (const x of values) await client.query("INSERT INTO t VALUES ($1)", [x]);
  await client.end();
  return { id: created.service_id, password: created.initial_password, endpoint: created.endpoint };
}

async function rowsOf(endpoint: { host: string; port: number }, password: string): Promise<number[]> {
  const client = await connect(endpoint, password);
  try {
    return await rows(client);
  } finally {
    await client.end();
  }
}

test("a state file another dialect wrote is refused, naming the dialect and its ids; nothing in it changes", async () => {
  const seed = spawnCli(["--port", "0", "--state-file", stateFile]);
  await seed.listening();
  const vpcs = await fetch(`${seed.url}/projects/proj-dev/vpcs`, {
    method: "POST",
    headers: { authorization: AUTH, "content-type": "application/json" },
    body: JSON.stringify({ name: "net", cidr: "10.1.0.0/16", region_code: "us-east-1" }),
  });
  const vpc = (await vpcs.json()) as { id: string };
  await seed.stop();
  const before = readFileSync(stateFile, "utf8");
  const { code, message } = await refused(["--port", "0", "--state-file", stateFile, "--dialect", "vendor"]);
  expect(code).toBe(1);
  expect(message).toBe(
    `mdb-emulator: state file ${stateFile} was written by mdb-emulator --dialect seed (ids such as ${vpc.id}), ` +
      "and this one speaks --dialect vendor: start it with --dialect seed, or with another --state-file",
  );
  expect(readFileSync(stateFile, "utf8")).toBe(before);
});

test("a state file a newer release wrote is refused, naming the release and the formats this one reads", async () => {
  writeFileSync(
    stateFile,
    JSON.stringify({ version: 7, written_by: "pulumi-managed-db 9.1.0", dialect: "seed", projects: {} }),
  );
  const { code, message } = await refused(["--port", "0", "--state-file", stateFile]);
  expect(code).toBe(1);
  expect(message).toMatch(
    new RegExp(
      `^mdb-emulator: state file ${stateFile} was written by pulumi-managed-db 9\\.1\\.0 in state format 7; ` +
        "this one \\(pulumi-managed-db \\d+\\.\\d+\\.\\d+\\S*\\) reads formats 1 to 2: upgrade pulumi-managed-db, or start with another --state-file$",
    ),
  );
});

test("the API port in use: refused, naming the port and the process that holds it", async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    const { code, message } = await refused([
      "--port",
      String(port),
      "--databases",
      "--state-file",
      stateFile,
    ]);
    expect(code).toBe(1);
    expect(message).toMatch(
      new RegExp(
        `^mdb-emulator: port ${port} \\(the API's, --port\\) is in use by another process \\(pid ${process.pid}: [^)]*node[^)]*\\): ` +
          "stop it, or pick another --port \\(0 picks a free one\\)$",
      ),
    );
    expect(existsSync(path.join(dir, "state.databases"))).toBe(false); // refused before any server
  } finally {
    holder.close();
  }
});

test("a second emulator on the same state file is refused, naming the first; the first keeps serving", async () => {
  const first = await emulator();
  const kept = await service(first, "kept", [1]);
  const { code, message } = await refused(["--port", "0", "--databases", "--state-file", stateFile]);
  expect(code).toBe(1);
  expect(message).toMatch(
    new RegExp(
      `^mdb-emulator: --databases: state file ${stateFile} is in use by another mdb-emulator \\(pid ${first.child.pid}: [^)]*cli\\.js[^)]*\\); ` +
        "stop it first, or start this one with another --state-file$",
    ),
  );
  expect(await rowsOf(kept.endpoint, kept.password)).toEqual([1]);
});

test("a data folder another process holds: that service is UNSTABLE saying so, the others READY; back once it is free", async () => {
  const first = await emulator();
  const held = await service(first, "held", [1, 2]);
  const free = await service(first, "free", [3]);
  expect(await first.stop()).toBe(0);
  // A live process that is not the emulator's server names itself in the folder's lock file.
  const squatter = spawn("sleep", ["600"]);
  others.push(squatter);
  const dataDir = path.join(dir, "state.databases", held.id, "data");
  writeFileSync(path.join(dataDir, "postmaster.pid"), `${squatter.pid}\n${dataDir}\n`);

  const second = await emulator();
  const unstable = await settled(second, held.id);
  expect(unstable.status).toBe("UNSTABLE");
  expect(unstable.error_message).toBe(
    `restore: data folder ${dataDir} is held by another process (pid ${squatter.pid}: sleep 600), not by this emulator: ` +
      `stop that process, then restart the emulator (if it is no PostgreSQL server, the lock file is stale: remove ${dataDir}/postmaster.pid)`,
  );
  expect((await settled(second, free.id)).status).toBe("READY");
  expect(await rowsOf(free.endpoint, free.password)).toEqual([3]);
  expect(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8")).toContain(String(squatter.pid));
  expect(await second.stop()).toBe(0);

  squatter.kill("SIGKILL");
  await new Promise((resolve) => squatter.once("exit", resolve));
  const third = await emulator();
  const back = await settled(third, held.id);
  expect(back.status).toBe("READY");
  expect(back.error_message).toBeUndefined();
  expect(await rowsOf(held.endpoint, held.password)).toEqual([1, 2]);
});

test("a database port the state records, in use by another process: UNSTABLE naming the port; back once it is free", async () => {
  const first = await emulator();
  const kept = await service(first, "kept", [5]);
  expect(await first.stop()).toBe(0);
  const squatter = net.createServer();
  await new Promise<void>((resolve) => squatter.listen(kept.endpoint.port, "127.0.0.1", resolve));
  try {
    const second = await emulator();
    const unstable = await settled(second, kept.id);
    expect(unstable.status).toBe("UNSTABLE");
    expect(unstable.error_message).toMatch(
      new RegExp(
        `^restore: port ${kept.endpoint.port} \\(the database endpoint of service ${kept.id}\\) is in use by another process \\(pid ${process.pid}: [^)]*\\): stop it, then restart the emulator$`,
      ),
    );
    expect(await second.stop()).toBe(0);
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
  const third = await emulator();
  expect((await settled(third, kept.id)).status).toBe("READY");
  expect(await rowsOf(kept.endpoint, kept.password)).toEqual([5]);
});

test("a full disk while copying a fork: the fork is UNSTABLE saying so, the source untouched, nothing half-made left; a restart makes the fork", async () => {
  const first = await emulator([], { MDB_EMULATOR_TEST_HOOK: "enospc:fork:copying" });
  const source = await service(first, "source", [1, 2]);
  const fork = await api(first, "POST", `/services/${source.id}/forkService`, {
    fork_strategy: "NOW",
    name: "fork",
  });
  expect(fork.status).toBe(202);
  const failed = await settled(first, fork.body.service_id);
  expect(failed.status).toBe("UNSTABLE");
  const forkDir = path.join(dir, "state.databases", fork.body.service_id);
  expect(failed.error_message).toMatch(
    new RegExp(
      `^fork: the disk is full \\(ENOSPC\\) while writing ${forkDir}: ENOSPC: no space left on device, write \\(test hook fork:copying\\); ` +
        "nothing else was changed. Free some space, then restart the emulator \\(it makes the folder again\\) or delete this record$",
    ),
  );
  expect(readdirSync(forkDir).filter((name) => name.startsWith("data"))).toEqual([]);
  expect((await api(first, "GET", `/services/${source.id}`)).body.status).toBe("READY");
  expect(await rowsOf(source.endpoint, source.password)).toEqual([1, 2]);
  expect(await first.stop()).toBe(0);

  const second = await emulator();
  const made = await settled(second, fork.body.service_id);
  expect(made.status).toBe("READY");
  expect(await rowsOf(made.endpoint, fork.body.initial_password)).toEqual([1, 2]);
});
