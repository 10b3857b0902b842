/**
 * `--databases` survives its own crashes (issue 31): the emulator process (`node dist/emulator/cli.js
 * --databases --state-file …`) is held at one step of an operation by its test hook
 * (`MDB_EMULATOR_TEST_HOOK=pause:<point>`, docs/emulator.md#test-only-hooks), killed there with
 * SIGKILL, and started again on the same state file. Then, within 10 s of the restart, every service
 * is in the state its record says, answers its own password (never another's) and holds its own
 * rows; none is UNSTABLE; and no server outlives the emulator's clean stop. Each step of create, fork
 * (NOW, LAST_SNAPSHOT, PITR), the restore at start, resize (also of a service whose password was set
 * inside the database), stop, start, updatePassword, delete and a replica set's create is one case.
 * The times to converge are printed at the end. A kill alone, with no restart, stops the servers
 * (the reaper) and, without a state file, removes their temporary folder.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVICE_USER } from "../../emulator/databases/template";
import { CliProcess, ensureBuilt } from "../helpers/cli-process";
import { connect, connectError, portOpen, postgresUnder, rows, until } from "./databases-helpers";

jest.setTimeout(120_000);

/** Convergence after a restart must take at most this. */
const CONVERGE_MS = 10_000;
const AUTH = `Basic ${Buffer.from("mdb-dev-public:mdb-dev-secret").toString("base64")}`;
const converged: { point: string; ms: number }[] = [];
let dir: string;

beforeAll(() => ensureBuilt());

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mdb-crash-"));
  chmodSync(dir, 0o711); // as root, the servers run as postgres, which must pass through
});

afterEach(() => {
  for (const cli of started.splice(0)) cli.child.kill("SIGKILL");
  if (!process.env.KEEP_DATABASES) rmSync(dir, { recursive: true, force: true });
});

afterAll(() => {
  const ms = converged.map((c) => c.ms).sort((a, b) => a - b);
  if (ms.length === 0) return;
  process.stderr.write(
    `converged after a restart (${ms.length} cases): median ${ms[Math.floor(ms.length / 2)]} ms, max ${ms[ms.length - 1]} ms\n` +
      converged.map((c) => `  ${c.point}: ${c.ms} ms`).join("\n") +
      "\n",
  );
});

const started: CliProcess[] = [];

/** An emulator on this case's state file, armed with `hook` when given. */
async function emulator(hook?: string): Promise<CliProcess> {
  const cli = CliProcess.spawn(
    ["--port", "0", "--transition-ms", "50", "--databases", "--state-file", path.join(dir, "state.json")],
    { env: hook ? { MDB_EMULATOR_TEST_HOOK: hook } : {} },
  );
  started.push(cli);
  await cli.listening();
  return cli;
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { service_id?: string; initial_password?: string; status?: string };
}

/** A call of the API of `cli`, project proj-dev. */
async function api(cli: CliProcess, method: string, route: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${cli.url}/projects/proj-dev${route}`, {
    method,
    headers: { authorization: AUTH, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/** A call whose answer may never come (the emulator is held, then killed): its answer, or undefined. */
function fire(cli: CliProcess, method: string, route: string, body?: unknown): Promise<Answer | undefined> {
  return api(cli, method, route, body).catch(() => undefined);
}

type Endpoint = { host: string; port: number };

interface Service {
  id: string;
  password: string;
  endpoint: Endpoint;
}

/** A READY service named `name` with rows `values` in table t. */
async function service(cli: CliProcess, name: string, values: number[] = []): Promise<Service> {
  const created = await api(cli, "POST", "/services", { name });
  expect(created.status).toBe(202);
  const id = created.body.service_id!;
  await until(
    () => api(cli, "GET", `/services/${id}`),
    (r) => r.body.status === "READY",
  );
  const endpoint = created.body.endpoint as Endpoint;
  const password = created.body.initial_password!;
  const client = await connect(endpoint, password);
  await client.query("CREATE TABLE t (x int)");
  for (const x of values) await client.query("INSERT INTO t VALUES ($1)", [x]);
  await client.end();
  return { id, password, endpoint };
}

async function insert(target: Service, x: number): Promise<void> {
  const client = await connect(target.endpoint, target.password);
  await client.query("INSERT INTO t VALUES ($1)", [x]);
  await client.end();
}

/** What a record must be after the restart. */
interface Expected {
  /** The service's name (a fork whose answer never came is found by it). */
  name: string;
  /** A read replica set of that service, by its name, instead of the service. */
  replicaSet?: string;
  status: "READY" | "PAUSED" | "active" | "gone";
  /** The password that must open it (READY, active). */
  password?: string;
  /** Passwords it must refuse: another service's, the one before a change. */
  refused?: string[];
  /** Its rows of t; null: no table t (a new service's own, empty, data). */
  rows?: number[] | null;
  /** For `gone`: its endpoint, which must be closed. */
  endpoint?: Endpoint;
  /** The pooler endpoint must reach it too. */
  pooler?: boolean;
}

/** A case: what to do before the kill on an emulator held at `point`; what must hold after the restart. */
interface Case {
  point: string;
  title: string;
  /** Work on an emulator started earlier, on the same state file, without a hook. */
  before?: (cli: CliProcess) => Promise<Expected[]>;
  /** Work on the armed emulator, up to the hold (`held` resolves when it is held). */
  act?: (cli: CliProcess, held: () => Promise<void>) => Promise<Expected[]>;
  /** Checks after convergence (not timed). */
  after?: (cli: CliProcess) => Promise<void>;
}

/** Resolves once the record is what `expected` says, or with why not. */
async function check(cli: CliProcess, expected: Expected): Promise<string | undefined> {
  const list = await api(cli, "GET", "/services");
  const records = list.body as unknown as Array<Record<string, unknown>>;
  const owner = records.find((s) => s.name === expected.name);
  let record = owner;
  if (expected.replicaSet && owner) {
    record = (owner.read_replica_sets as Array<Record<string, unknown>>).find(
      (r) => r.name === expected.replicaSet,
    );
  }
  if (expected.status === "gone") {
    if (record) return `${expected.name} is still there (${String(record.status)})`;
    if (expected.endpoint && (await portOpen(expected.endpoint.port))) return "its endpoint still answers";
    return undefined;
  }
  if (!record) return `${expected.name} is missing`;
  if (record.status !== expected.status) return `${expected.name} is ${String(record.status)}`;
  const endpoint = record.endpoint as Endpoint;
  if (expected.status === "PAUSED") {
    const error = await connectError(endpoint, expected.password ?? "x");
    return error?.includes("ECONNREFUSED") ? undefined : `paused, yet: ${error ?? "it connects"}`;
  }
  for (const password of expected.refused ?? []) {
    const error = await connectError(endpoint, password);
    if (!error?.includes("password authentication failed")) return `a wrong password: ${error ?? "accepted"}`;
  }
  const targets = [endpoint];
  if (expected.pooler) targets.push((record.connection_pooler as { endpoint: Endpoint }).endpoint);
  for (const target of targets) {
    if (expected.password === undefined) continue;
    let client;
    try {
      client = await connect(target, expected.password);
    } catch (error) {
      return `its password: ${(error as Error).message}`;
    }
    try {
      const table = await client.query("SELECT to_regclass('t') AS t");
      const found = table.rows[0].t === null ? null : await rows(client);
      if (JSON.stringify(found) !== JSON.stringify(expected.rows ?? found)) {
        return `rows ${JSON.stringify(found)}, not ${JSON.stringify(expected.rows)}`;
      }
    } finally {
      await client.end();
    }
  }
  return undefined;
}

/** Runs a case: before, the armed emulator held and killed, the restart, convergence, the clean stop. */
async function crash(c: Case): Promise<CliProcess> {
  const expected: Expected[] = [];
  if (c.before) {
    const first = await emulator();
    expected.push(...(await c.before(first)));
    await first.stop("SIGKILL");
  }
  const armed = await emulator(`pause:${c.point}`);
  const held = async () => {
    await armed.stderrMatch(new RegExp(`test hook: paused at ${c.point}`));
  };
  if (c.act) expected.push(...(await c.act(armed, held)));
  else await held();
  await armed.stop("SIGKILL");

  const restartedAt = Date.now();
  const again = await emulator();
  let why: (string | undefined)[] = [];
  await until(
    async () => (why = await Promise.all(expected.map((e) => check(again, e)))),
    (reasons) => reasons.every((r) => r === undefined),
    CONVERGE_MS + 5000,
  ).catch(() => undefined);
  const ms = Date.now() - restartedAt;
  expect(why.filter(Boolean)).toEqual([]);
  converged.push({ point: `${c.title} at ${c.point}`, ms });
  expect(ms).toBeLessThanOrEqual(CONVERGE_MS);
  const all = (await api(again, "GET", "/services")).body as unknown as Array<{ status: string }>;
  expect(all.filter((s) => s.status === "UNSTABLE")).toEqual([]);
  await c.after?.(again);
  return again;
}

/** After the case: the emulator stops cleanly and no server is left. */
async function stops(cli: CliProcess): Promise<void> {
  expect(await cli.stop("SIGTERM")).toBe(0);
  expect(postgresUnder(path.join(dir, "state.databases"))).toEqual([]);
}

describe.each(["copying", "copied", "started"])("create, killed at %s", (stage) => {
  test("the service is READY with its own password and empty database", async () => {
    const cli = await crash({
      point: `create:${stage}`,
      title: "create",
      act: async (armed, held) => {
        const created = await api(armed, "POST", "/services", { name: "new" });
        expect(created.status).toBe(202);
        await held();
        return [{ name: "new", status: "READY", password: created.body.initial_password, rows: null }];
      },
    });
    await stops(cli);
  });
});

/** A source with rows 1, 2 (and, for PITR, a target between them), forked with `strategy`. */
function forkCase(strategy: "NOW" | "LAST_SNAPSHOT" | "PITR", stage: string): Case {
  return {
    point: `fork:${stage}`,
    title: `fork ${strategy}`,
    act: async (armed, held) => {
      const source = await service(armed, "source", [1]);
      let target: string | undefined;
      if (strategy === "PITR") {
        await new Promise((resolve) => setTimeout(resolve, 300));
        target = new Date().toISOString();
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      await insert(source, 2);
      const answer = fire(armed, "POST", `/services/${source.id}/forkService`, {
        fork_strategy: strategy,
        name: "fork",
        ...(target ? { target_time: target } : {}),
      });
      await held();
      // Once the copy is taken, the answer comes; then writes to the source stay there.
      const forked = stage === "copying" ? undefined : await answer;
      if (forked) await insert(source, 3);
      const forkRows = strategy === "PITR" ? [1] : [1, 2];
      return [
        { name: "source", status: "READY", password: source.password, rows: forked ? [1, 2, 3] : [1, 2] },
        {
          name: "fork",
          status: "READY",
          password: forked?.body.initial_password,
          refused: [source.password],
          rows: forkRows,
        },
      ];
    },
    // A fork whose answer never came is still its own: a new password opens it, to its copy.
    after: async (cli) => {
      const list = (await api(cli, "GET", "/services")).body as unknown as Array<{
        name: string;
        service_id: string;
        endpoint: Endpoint;
      }>;
      const fork = list.find((s) => s.name === "fork")!;
      expect(
        (await api(cli, "POST", `/services/${fork.service_id}/updatePassword`, { password: "fork-own-pw-1" }))
          .status,
      ).toBe(204);
      const client = await connect(fork.endpoint, "fork-own-pw-1");
      expect(await rows(client)).toEqual(strategy === "PITR" ? [1] : [1, 2]);
      await client.end();
    },
  };
}

describe.each([
  ["NOW", "copying"],
  ["NOW", "copied"],
  ["NOW", "started"],
  ["LAST_SNAPSHOT", "copying"],
  ["LAST_SNAPSHOT", "started"],
  ["PITR", "copying"],
  ["PITR", "copied"],
  ["PITR", "started"],
] as const)("fork %s, killed at %s", (strategy, stage) => {
  test("the fork has the source's rows of its moment and its own password; the source is untouched", async () => {
    await stops(await crash(forkCase(strategy, stage)));
  });
});

describe.each(["begun", "started"])("the restore at start, killed at %s", (stage) => {
  test("running, paused, pooled and replicated services all come back as their records say", async () => {
    const cli = await crash({
      point: `restore:${stage}`,
      title: "restore",
      before: async (first) => {
        const kept = await service(first, "kept", [7]);
        expect((await api(first, "POST", `/services/${kept.id}/enablePooler`)).status).toBe(200);
        const replica = await api(first, "POST", `/services/${kept.id}/replicaSets`, {
          name: "reads",
          nodes: 1,
          cpu_millis: 500,
          memory_gbs: 2,
        });
        expect(replica.status).toBe(202);
        const paused = await service(first, "paused", [8]);
        await api(first, "POST", `/services/${paused.id}/stop`);
        await until(
          () => api(first, "GET", `/services`),
          (r) =>
            (
              r.body as unknown as Array<{ status: string; read_replica_sets: Array<{ status: string }> }>
            ).every(
              (s) =>
                ["READY", "PAUSED"].includes(s.status) &&
                s.read_replica_sets.every((x) => x.status === "active"),
            ),
        );
        return [
          { name: "kept", status: "READY", password: kept.password, rows: [7], pooler: true },
          { name: "kept", replicaSet: "reads", status: "active", password: kept.password, rows: [7] },
          { name: "paused", status: "PAUSED" },
        ];
      },
      after: async (again) => {
        const list = (await api(again, "GET", "/services")).body as unknown as Array<{
          name: string;
          service_id: string;
        }>;
        const paused = list.find((s) => s.name === "paused")!;
        await api(again, "POST", `/services/${paused.service_id}/start`);
        await until(
          () => api(again, "GET", `/services/${paused.service_id}`),
          (r) => r.body.status === "READY",
        );
      },
    });
    await stops(cli);
  });
});

test("resize, killed with the server stopped: READY at the new size, with its rows and password", async () => {
  const cli = await crash({
    point: "restart:stopped",
    title: "resize",
    act: async (armed, held) => {
      const resized = await service(armed, "resized", [5]);
      expect(
        (await api(armed, "POST", `/services/${resized.id}/resize`, { cpu_millis: "1000", memory_gbs: "4" }))
          .status,
      ).toBe(202);
      await held();
      return [{ name: "resized", status: "READY", password: resized.password, rows: [5] }];
    },
    after: async (again) => {
      const list = (await api(again, "GET", "/services")).body as unknown as Array<{
        resources: Array<{ spec: { cpu_millis: number } }>;
      }>;
      expect(list[0].resources[0].spec.cpu_millis).toBe(1000);
    },
  });
  await stops(cli);
});

test("a password set inside the database, then a resize killed with the server stopped: that password opens it, the API's is refused", async () => {
  const cli = await crash({
    point: "restart:stopped",
    title: "resize after ALTER ROLE",
    act: async (armed, held) => {
      const own = await service(armed, "own-password", [8]);
      const client = await connect(own.endpoint, own.password);
      await client.query(`ALTER ROLE ${SERVICE_USER} PASSWORD 'set-in-psql-1'`);
      await client.end();
      expect(
        (await api(armed, "POST", `/services/${own.id}/resize`, { cpu_millis: "1000", memory_gbs: "4" }))
          .status,
      ).toBe(202);
      await held();
      return [
        {
          name: "own-password",
          status: "READY",
          password: "set-in-psql-1",
          refused: [own.password],
          rows: [8],
        },
      ];
    },
  });
  await stops(cli);
});

describe.each(["begun", "stopped"])("stop, killed at %s", (stage) => {
  test("the service is PAUSED (refused), and starts again with its rows", async () => {
    let kept: Service | undefined;
    const cli = await crash({
      point: `stop:${stage}`,
      title: "stop",
      act: async (armed, held) => {
        kept = await service(armed, "stopped", [6]);
        expect((await api(armed, "POST", `/services/${kept.id}/stop`)).status).toBe(202);
        await held();
        return [{ name: "stopped", status: "PAUSED" }];
      },
      after: async (again) => {
        await api(again, "POST", `/services/${kept!.id}/start`);
        await until(
          () => check(again, { name: "stopped", status: "READY", password: kept!.password, rows: [6] }),
          (why) => why === undefined,
        );
      },
    });
    await stops(cli);
  });
});

describe.each(["begun", "started"])("start, killed at %s", (stage) => {
  test("the service is READY with its rows and password", async () => {
    const cli = await crash({
      point: `start:${stage}`,
      title: "start",
      act: async (armed, held) => {
        const resumed = await service(armed, "resumed", [9]);
        await api(armed, "POST", `/services/${resumed.id}/stop`);
        await until(
          () => api(armed, "GET", `/services/${resumed.id}`),
          (r) => r.body.status === "PAUSED",
        );
        expect((await api(armed, "POST", `/services/${resumed.id}/start`)).status).toBe(202);
        await held();
        return [{ name: "resumed", status: "READY", password: resumed.password, rows: [9] }];
      },
    });
    await stops(cli);
  });
});

test("updatePassword, killed before the server took it: the new password works, the old one is refused", async () => {
  const cli = await crash({
    point: "updatePassword:begun",
    title: "updatePassword",
    act: async (armed, held) => {
      const changed = await service(armed, "changed", [3]);
      void fire(armed, "POST", `/services/${changed.id}/updatePassword`, { password: "the-new-password-1" });
      await held();
      return [
        {
          name: "changed",
          status: "READY",
          password: "the-new-password-1",
          refused: [changed.password],
          rows: [3],
        },
      ];
    },
  });
  await stops(cli);
});

describe.each(["stopped", "renamed"])("delete, killed at %s", (stage) => {
  test("the service is gone: no record, no server, no folder", async () => {
    let doomed: Service | undefined;
    const cli = await crash({
      point: `delete:${stage}`,
      title: "delete",
      act: async (armed, held) => {
        doomed = await service(armed, "doomed", [1]);
        expect((await api(armed, "DELETE", `/services/${doomed.id}`)).status).toBe(202);
        await held();
        return [{ name: "doomed", status: "gone", endpoint: doomed.endpoint }];
      },
      after: async () => {
        await until(
          async () => existsSync(path.join(dir, "state.databases", doomed!.id)),
          (present) => !present,
          5000,
        );
      },
    });
    await stops(cli);
  });
});

describe.each(["copying", "started"])("a read replica set's create, killed at %s", (stage) => {
  test("the replica set is active and reads its service's rows", async () => {
    const cli = await crash({
      point: `createReplicaSet:${stage}`,
      title: "createReplicaSet",
      act: async (armed, held) => {
        const primary = await service(armed, "primary", [4]);
        const created = await api(armed, "POST", `/services/${primary.id}/replicaSets`, {
          name: "reads",
          nodes: 1,
          cpu_millis: 500,
          memory_gbs: 2,
        });
        expect(created.status).toBe(202);
        await held();
        return [
          { name: "primary", status: "READY", password: primary.password, rows: [4] },
          { name: "primary", replicaSet: "reads", status: "active", password: primary.password, rows: [4] },
        ];
      },
    });
    await stops(cli);
  });
});

describe("a kill -9 of the emulator alone (not restarted)", () => {
  test("its servers stop within seconds; the next start serves the same rows with the same password", async () => {
    const first = await emulator();
    const kept = await service(first, "reaped", [11]);
    await first.stop("SIGKILL");
    const root = path.join(dir, "state.databases");
    await until(
      async () => postgresUnder(root).length === 0 && !(await portOpen(kept.endpoint.port)),
      (gone) => gone,
      CONVERGE_MS,
    );
    const again = await emulator();
    await until(
      () => check(again, { name: "reaped", status: "READY", password: kept.password, rows: [11] }),
      (why) => why === undefined,
      CONVERGE_MS,
    );
    await stops(again);
  });

  test("without a state file: its servers stop and their temporary folder goes", async () => {
    const cli = CliProcess.spawn(["--port", "0", "--transition-ms", "50", "--databases"], {
      env: { TMPDIR: dir },
    });
    started.push(cli);
    await cli.listening();
    const lost = await service(cli, "temporary", [12]);
    const roots = () => readdirSync(dir).filter((name) => name.startsWith("mdb-emulator-databases-"));
    expect(roots()).toHaveLength(1);
    const root = path.join(dir, roots()[0]);
    expect(await portOpen(lost.endpoint.port)).toBe(true);
    await cli.stop("SIGKILL");
    await until(
      async () =>
        roots().length === 0 && postgresUnder(root).length === 0 && !(await portOpen(lost.endpoint.port)),
      (gone) => gone,
      CONVERGE_MS + 5000,
    );
  });
});

describe("a state file in a private folder (mode 700, as a checkout under /root)", () => {
  test("the emulator starts, and a service killed with it comes back whole with its own password", async () => {
    chmodSync(dir, 0o700);
    const first = await emulator();
    const db = await service(first, "private", [1, 2]);
    const asRoot = process.getuid?.() === 0;
    // As root, postgres cannot pass through dir: the servers live where it can, named after the state file.
    const stand = asRoot
      ? /they live in (\S+) instead/.exec(first.stderr)?.[1]
      : path.join(dir, "state.databases");
    expect(stand).toBeDefined();
    expect(postgresUnder(stand!).length).toBeGreaterThan(0);
    await first.stop("SIGKILL");

    const again = await emulator();
    expect(again.stderr.includes(`they live in ${stand} instead`)).toBe(asRoot);
    let why: string | undefined = "not checked";
    await until(
      async () =>
        (why = await check(again, { name: "private", status: "READY", password: db.password, rows: [1, 2] })),
      (reason) => reason === undefined,
      CONVERGE_MS,
    ).catch(() => undefined);
    expect(why).toBeUndefined();
    expect(await again.stop("SIGTERM")).toBe(0);
    expect(postgresUnder(stand!)).toEqual([]);
    if (asRoot) rmSync(stand!, { recursive: true, force: true });
  });
});
