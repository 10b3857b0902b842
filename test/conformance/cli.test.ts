/**
 * The `mdb-emulator` command as users run it (`node dist/emulator/cli.js`): the listening line,
 * the per-request log, credentials from flags and environment, fault flags, a clean exit on
 * SIGTERM, and state that survives a `kill -9` and a restart with `--state-file`.
 *
 * `npm test` builds before jest; when `dist/emulator/cli.js` is missing or older than the
 * emulator's sources (e.g. `npx jest test/conformance` alone), the emulator is compiled first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Service, Vpc } from "../../api/schemas";
import { API_PREFIX, DEFAULT_PUBLIC_KEY, DEFAULT_SECRET_KEY } from "../../emulator";
import { basicAuth, request, waitFor, type TestResponse } from "../helpers/emulator";
import { CLI, ensureBuilt } from "../helpers/cli-process";
import { checkAnswer } from "./helpers";

const DEV_AUTH = basicAuth(DEFAULT_PUBLIC_KEY, DEFAULT_SECRET_KEY);

/** `request`, and the answer checked against the contract (see `checkAnswer`). */
async function checked<T = unknown>(
  url: string,
  method: string,
  authorization: string,
  body?: unknown,
): Promise<TestResponse<T>> {
  const response = await request<T>(url, method, authorization, body);
  checkAnswer(method, new URL(url).pathname.slice(API_PREFIX.length), response);
  return response;
}

/** A running `mdb-emulator` process. */
interface RunningCli {
  child: ChildProcess;
  /** Base URL read from the listening line. */
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const running: ChildProcess[] = [];

/** Spawns the CLI and resolves once it printed its first line. */
function startCli(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return new Promise((resolveStart, rejectStart) => {
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf("\n");
      if (newline >= 0) {
        resolveStart({
          child,
          url: stdout.slice(0, newline).replace(/^listening on /, ""),
          stdout: () => stdout,
          stderr: () => stderr,
          exited,
        });
      }
    });
    exited.then((code) =>
      rejectStart(new Error(`mdb-emulator exited with ${code} before listening: ${stderr}`)),
    );
  });
}

let tmp: string;

beforeAll(() => {
  ensureBuilt();
  tmp = mkdtempSync(join(tmpdir(), "mdb-cli-"));
});

afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it("--port 0: the first line is exactly the listening URL with the real port; requests are logged to stderr; SIGTERM exits 0", async () => {
  const cli = await startCli(["--port", "0", "--transition-ms", "20"]);
  expect(cli.stdout()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/public\/api\/v1\n$/);
  const port = Number(new URL(cli.url).port);
  expect(port).toBeGreaterThan(0);

  const info = await checked(`${cli.url}/auth/info`, "GET", DEV_AUTH);
  expect(info.status).toBe(200);
  await checked(`${cli.url}/auth/info`, "GET", basicAuth(DEFAULT_PUBLIC_KEY, "wrong"));
  await waitFor(cli.stderr, (text) => text.split("\n").length >= 3);
  expect(cli.stderr()).toMatch(
    /^GET \/public\/api\/v1\/auth\/info 200 \d+ms\nGET \/public\/api\/v1\/auth\/info 401 \d+ms\n$/,
  );
  expect(cli.stdout().split("\n")).toHaveLength(2);
  expect(cli.stdout() + cli.stderr()).not.toContain(DEFAULT_SECRET_KEY);

  cli.child.kill("SIGTERM");
  expect(await cli.exited).toBe(0);
});

it("--state-file: state survives kill -9 and a restart, and transitions resume", async () => {
  const stateFile = join(tmp, "state.json");
  const first = await startCli(["--port", "0", "--transition-ms", "200", "--state-file", stateFile]);
  const vpc = await checked<Vpc>(`${first.url}/projects/proj-dev/vpcs`, "POST", DEV_AUTH, {
    name: "kept",
    cidr: "10.5.0.0/16",
    region_code: "us-east-1",
  });
  expect(vpc.status).toBe(201);
  const service = await checked<Service>(`${first.url}/projects/proj-dev/services`, "POST", DEV_AUTH, {
    name: "kept-db",
  });
  expect(service.body.status).toBe("QUEUED");
  first.child.kill("SIGKILL");
  await first.exited;

  const saved = readFileSync(stateFile, "utf8");
  expect(() => JSON.parse(saved)).not.toThrow();
  expect(saved).not.toContain(service.body.initial_password);

  const second = await startCli(["--port", "0", "--state-file", stateFile]);
  const again = await checked<Vpc>(`${second.url}/projects/proj-dev/vpcs/${vpc.body.id}`, "GET", DEV_AUTH);
  expect(again.status).toBe(200);
  expect(again.body).toEqual(vpc.body);
  const ready = await waitFor(
    () =>
      checked<Service>(
        `${second.url}/projects/proj-dev/services/${service.body.service_id}`,
        "GET",
        DEV_AUTH,
      ),
    (r) => r.body.status === "READY",
  );
  expect(ready.body.endpoint?.port).toBe(5432);
});

it("credentials: flags, else MDB_* environment, else the development defaults", async () => {
  const env = { MDB_PUBLIC_KEY: "env-public", MDB_SECRET_KEY: "env-secret", MDB_PROJECT_ID: "proj-env" };
  const fromEnv = await startCli(["--port", "0"], env);
  expect((await checked(`${fromEnv.url}/auth/info`, "GET", DEV_AUTH)).status).toBe(401);
  const info = await checked<{ apiKey: { project: { id: string } } }>(
    `${fromEnv.url}/auth/info`,
    "GET",
    basicAuth("env-public", "env-secret"),
  );
  expect(info.status).toBe(200);
  expect(info.body.apiKey.project.id).toBe("proj-env");

  const fromFlags = await startCli(
    ["--port", "0", "--public-key", "flag-public", "--project-id", "proj-flag"],
    env,
  );
  const flagged = await checked(
    `${fromFlags.url}/projects/proj-flag/vpcs`,
    "GET",
    basicAuth("flag-public", "env-secret"),
  );
  expect(flagged.status).toBe(200);
});

it("fault flags: --fault-rate, --fault-statuses and --retry-after-s", async () => {
  const cli = await startCli([
    "--port",
    "0",
    "--fault-rate",
    "1",
    "--fault-statuses",
    "429",
    "--retry-after-s",
    "3",
  ]);
  const response = await checked(`${cli.url}/projects/proj-dev/vpcs`, "GET", DEV_AUTH);
  expect(response.status).toBe(429);
  expect(response.headers.get("retry-after")).toBe("3");
});

it("an invalid flag value stops it with an error naming the flag", async () => {
  await expect(startCli(["--port", "0", "--fault-rate", "2"])).rejects.toThrow(/--fault-rate/);
});

it("--dialect vendor speaks the current document's words; --no-deprecated-fields drops the aliases; an unknown dialect stops it", async () => {
  const vendor = await startCli(["--port", "0", "--transition-ms", "10", "--dialect", "vendor"]);
  const projects = await request<{ id: string }[]>(`${vendor.url}/projects`, "GET", DEV_AUTH);
  checkAnswer("GET", "/projects", projects, "vendor");
  expect(projects.body).toEqual([{ id: "proj-dev", name: "proj-dev" }]);
  const vpc = await request<Vpc>(`${vendor.url}/projects/proj-dev/vpcs`, "POST", DEV_AUTH, {
    name: "v",
    cidr: "10.5.0.0/16",
    region_code: "us-east-1",
  });
  expect(vpc.body.id).toMatch(/^[0-9]+$/);
  const doc = await request<{ info: { title: string } }>(`${vendor.url}/openapi.json`, "GET", null);
  expect(doc.status).toBe(200);
  expect(doc.body.info.title).toContain("vendor dialect");

  const bare = await startCli(["--port", "0", "--dialect", "vendor", "--no-deprecated-fields"]);
  const info = await request<Record<string, unknown>>(`${bare.url}/auth/info`, "GET", DEV_AUTH);
  expect(Object.keys(info.body).sort()).toEqual(["api_key", "type"]);

  const seed = await startCli(["--port", "0"]);
  expect((await request(`${seed.url}/projects`, "GET", DEV_AUTH)).status).toBe(404);

  await expect(startCli(["--port", "0", "--dialect", "tiger"])).rejects.toThrow(/--dialect.*seed, vendor/s);
});
