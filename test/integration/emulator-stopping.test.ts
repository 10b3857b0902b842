/**
 * Stopping the emulator the way the docs start it (issue 31): `npx mdb-emulator …` in a project that
 * installed the package, and `npm run emulator -- …` in this repository. A SIGTERM or SIGINT sent to
 * that process (npm's) ends npm, which does not pass it on (a SIGKILL ends npm alone); the emulator
 * then sees its parent gone and stops too, with every PostgreSQL server it runs, and frees its port. Started by npm, it
 * follows its parent by default; `--no-exit-with-parent` (the demo's background emulator) keeps it.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CLI, CliProcess, ROOT, ensureBuilt } from "../helpers/cli-process";
import { portOpen, postgresUnder, until } from "./databases-helpers";

jest.setTimeout(120_000);

const AUTH = `Basic ${Buffer.from("mdb-dev-public:mdb-dev-secret").toString("base64")}`;
let dir: string;
const started: CliProcess[] = [];
const emulators: number[] = [];

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), "mdb-stopping-"));
  chmodSync(dir, 0o711); // as root, the servers run as postgres, which must pass through
  // A user's project with the package installed: node_modules/pulumi-managed-db and its bin.
  const project = path.join(dir, "project");
  mkdirSync(path.join(project, "node_modules/.bin"), { recursive: true });
  symlinkSync(ROOT, path.join(project, "node_modules/pulumi-managed-db"));
  symlinkSync(
    "../pulumi-managed-db/dist/emulator/cli.js",
    path.join(project, "node_modules/.bin/mdb-emulator"),
  );
  chmodSync(CLI, 0o755); // as npm makes a package's bin executable when it installs it
});

afterEach(() => {
  for (const cli of started.splice(0)) cli.child.kill("SIGKILL");
  for (const pid of emulators.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // ended, as it should
    }
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The emulator processes (node running cli.js, not the shell that runs it) whose parent chain reaches `ancestor`. */
function emulatorsUnder(ancestor: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  return [...parent.keys()].filter((pid) => {
    try {
      const [program, script = ""] = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (path.basename(program) !== "node" || !/emulator\/cli\.js$|\.bin\/mdb-emulator$/.test(script))
        return false;
    } catch {
      return false;
    }
    for (let at = parent.get(pid); at !== undefined && at > 1; at = parent.get(at))
      if (at === ancestor) return true;
    return false;
  });
}

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Starts the emulator through `launcher`, with a READY service (a PostgreSQL server). */
async function launch(name: string, launcher: string[], cwd: string, extra: string[] = [], detached = false) {
  const stateFile = path.join(dir, `${name}.json`);
  const args = ["--port", "0", "--transition-ms", "50", "--databases", "--state-file", stateFile, ...extra];
  const cli = CliProcess.spawn([...launcher.slice(1), ...args], {
    command: launcher[0],
    cwd,
    inheritEnv: true,
    detached,
  });
  started.push(cli);
  const url = await cli.listening();
  const [emulator] = await until(
    async () => emulatorsUnder(cli.child.pid!),
    (pids) => pids.length === 1,
    10_000,
  );
  emulators.push(emulator);
  const created = await fetch(`${url}/projects/proj-dev/services`, {
    method: "POST",
    headers: { authorization: AUTH, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const { service_id: id } = (await created.json()) as { service_id: string };
  // An UNSTABLE service (its server failed) stays so until a restart: the test ends naming its reason.
  const settled = await until(
    async () => {
      const { status, error_message: reason } = (await (
        await fetch(`${url}/projects/proj-dev/services/${id}`, { headers: { authorization: AUTH } })
      ).json()) as { status: string; error_message?: string };
      return reason ? `${status}: ${reason}` : status;
    },
    (status) => status === "READY" || status.startsWith("UNSTABLE"),
  );
  expect(settled).toBe("READY");
  const root = stateFile.replace(/\.json$/, ".databases");
  expect(postgresUnder(root).length).toBeGreaterThan(0);
  return { cli, url, emulator, root, port: Number(new URL(url).port) };
}

const NPX = ["npx", "mdb-emulator"];
const NPM_RUN = ["npm", "run", "emulator", "--"];

describe.each([
  ["npx mdb-emulator", "SIGTERM", "npm", NPX],
  ["npx mdb-emulator", "SIGKILL", "npm", NPX],
  // Ctrl-C: the terminal signals its foreground group. A SIGINT to npm alone reaches npm's shell,
  // which (dash) holds it until its command ends (docs/emulator.md).
  ["npx mdb-emulator", "SIGINT", "its process group", NPX],
  ["npm run emulator --", "SIGTERM", "npm", NPM_RUN],
  ["npm run emulator --", "SIGINT", "npm", NPM_RUN],
  ["npm run emulator --", "SIGKILL", "npm", NPM_RUN],
] as const)("%s, then a %s to %s", (_name, signal, to, launcher) => {
  test("stops the emulator and every server, and frees the port", async () => {
    const { cli, emulator, root, port } = await launch(
      `${launcher[0]}-${signal}`,
      [...launcher],
      launcher === NPX ? path.join(dir, "project") : ROOT,
      [],
      to !== "npm",
    );
    const sentAt = Date.now();
    if (to !== "npm") process.kill(-cli.child.pid!, signal);
    else await cli.stop(signal);
    await until(
      async () => alive(emulator) || postgresUnder(root).length > 0 || (await portOpen(port)),
      (running) => !running,
      15_000,
    );
    expect(Date.now() - sentAt).toBeLessThan(15_000);
  });
});

test("--no-exit-with-parent (the demo's background emulator) outlives its parent, and stops on its own SIGTERM", async () => {
  const { cli, emulator, root } = await launch("kept", ["npx", "mdb-emulator"], path.join(dir, "project"), [
    "--no-exit-with-parent",
  ]);
  await cli.stop("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 1500)); // three checks of the parent
  expect(alive(emulator)).toBe(true);
  process.kill(emulator, "SIGTERM");
  await until(
    async () => alive(emulator) || postgresUnder(root).length > 0,
    (running) => !running,
    15_000,
  );
});
