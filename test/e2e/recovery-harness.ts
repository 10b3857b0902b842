/**
 * What the recovery tests share: their program (groups of a VPC, a service attached to it with
 * the pooler, a read replica set and a peering), a `pulumi` command killed with SIGKILL the
 * moment the emulator logs a given request, the documented recovery (docs/recovery.md), and
 * the check that the API and the stack hold every resource exactly once. On either face of the
 * package: the dynamic classes (the default) or the native plugin `mdb` through its generated SDK.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { CommandResult, EmulatorProcess, type Face, LoggedCall, Workspace } from "./workspace";

/** The program of the recovery tests; stack config `groups` (default 1) and `named` (default false). */
export const RECOVERY_PROGRAM = path.join(__dirname, "recovery-program");

/** `MDB_ADOPT_EXISTING=true`: the switch the recovering `pulumi up` runs with. */
export const ADOPT = { MDB_ADOPT_EXISTING: "true" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The processes `pid` started, their children included, from one `ps` listing (Linux and macOS). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" }).split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!child) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const below = (p: number): number[] => (children.get(p) ?? []).flatMap((c) => [c, ...below(c)]);
  return below(pid);
}

/**
 * The command line of a provider process of the package: Pulumi's dynamic provider host, or the
 * native plugin `mdb` (its `pulumi-resource-mdb` runs `node .../adapters/plugin/main.js`; under the
 * Node.js language host, `plugin/index.js`).
 */
const PROVIDER_COMMAND =
  /dynamic-provider|pulumi-resource-mdb|adapters\/plugin\/main\.js|pulumi-managed-db\/plugin/;

/**
 * The provider processes (Pulumi's dynamic provider host, the plugin `mdb`) among those `pid`
 * started, their children included.
 */
export function providerProcesses(pid: number): number[] {
  const below = new Set(descendants(pid));
  return execFileSync("ps", ["-A", "-o", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && below.has(Number(m[1])) && PROVIDER_COMMAND.test(m[2]))
    .map((m) => Number(m[1]));
}

/** True while process `pid` runs (a zombie, dead but not yet reaped by its new parent, counts as gone). */
export function running(pid: number): boolean {
  try {
    const state = execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).trim();
    return state !== "" && !state.startsWith("Z");
  } catch {
    return false;
  }
}

/**
 * Sends `signal` to a process and to every process it started. Pulumi starts its plugins in
 * process groups of their own, and a plugin left behind by a killed CLI keeps working: a CI
 * job that is killed takes them all down, and so does this.
 */
export function killTree(pid: number, signal: NodeJS.Signals): void {
  for (const target of [pid, ...descendants(pid)]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

/** An emulator and a stack of the recovery program, of one test. */
export interface Fixture {
  /** The emulator, alone with this stack. */
  emulator: EmulatorProcess;
  /** The program's folder, its stack selected. */
  ws: Workspace;
}

/**
 * Runs `body` with a fresh emulator (300 ms lifecycle steps) and a workspace of the recovery
 * program on `face` whose stack `stack` has the config `config`; removes both afterwards.
 */
export async function withFixture(
  stack: string,
  config: Record<string, string>,
  body: (fixture: Fixture) => Promise<void>,
  face: Face = "dynamic",
): Promise<void> {
  const emulator = await EmulatorProcess.start(300);
  const ws = Workspace.create(RECOVERY_PROGRAM, emulator.url, face);
  try {
    await ws.stack(stack);
    for (const [key, value] of Object.entries(config)) await ws.config(key, value);
    await body({ emulator, ws });
  } finally {
    await emulator.stop();
    ws.remove();
  }
}

/** Lines of a suite's summary, printed sorted once every test has added its own. */
export class Summary {
  private readonly lines: string[] = [];

  constructor(private readonly title: string) {}

  /** Adds a line. */
  add(line: string): void {
    this.lines.push(line);
  }

  /** Writes the title and the lines to stderr, when there are any. */
  print(): void {
    if (this.lines.length)
      process.stderr.write(`\n${this.title}:\n  ${[...this.lines].sort().join("\n  ")}\n`);
  }
}

/** A `pulumi` command that was stopped by a signal. */
export interface Interrupted {
  /** The request whose log entry triggered the signal. */
  request: LoggedCall;
  /** Exit code, or the signal that ended it. */
  exit: number | NodeJS.Signals;
  /** What the command printed. */
  output: string;
}

/** A `pulumi` command under way, stopped at the request it was awaited for. */
export interface Running {
  /** The request whose log entry was awaited. */
  request: LoggedCall;
  /** The CLI's process id. */
  pid: number;
  /** Resolves when the command has ended: its exit code or the signal that ended it, and its output. */
  ended: Promise<{ exit: number | NodeJS.Signals; output: string }>;
}

/**
 * Starts `pulumi <args>` and resolves as soon as the emulator logs a request `trigger`
 * accepts, the command still running. Watches the request log every 20 ms rather than
 * guessing a delay.
 */
export async function runUntil(
  ws: Workspace,
  emulator: EmulatorProcess,
  args: string[],
  trigger: (request: LoggedCall) => boolean,
): Promise<Running> {
  await emulator.clearCalls();
  const { child, output } = ws.spawn(args);
  let exit: number | NodeJS.Signals | undefined;
  const ended = new Promise<{ exit: number | NodeJS.Signals; output: string }>((resolve) =>
    child.once("exit", (code, sig) => {
      exit = code ?? sig ?? "SIGKILL";
      resolve({ exit, output: output() });
    }),
  );
  let request: LoggedCall | undefined;
  while (!request) {
    if (exit !== undefined)
      throw new Error(`pulumi ${args.join(" ")} ended (${exit}) before the awaited request:\n${output()}`);
    request = (await emulator.requests()).find(trigger);
    if (!request) await sleep(20);
  }
  return { request, pid: child.pid as number, ended };
}

/**
 * Runs `pulumi <args>` and, as soon as the emulator logs a request `trigger` accepts, sends
 * `signal`: SIGKILL to the CLI and everything it started, SIGINT to the CLI alone (what a CI
 * cancel sends first).
 */
export async function interruptWhen(
  ws: Workspace,
  emulator: EmulatorProcess,
  args: string[],
  trigger: (request: LoggedCall) => boolean,
  signal: "SIGKILL" | "SIGINT",
): Promise<Interrupted> {
  const running = await runUntil(ws, emulator, args, trigger);
  if (signal === "SIGKILL") killTree(running.pid, "SIGKILL");
  else process.kill(running.pid, "SIGINT");
  const ended = await running.ended;
  // A kill in the middle of a backend write: what docs/recovery.md has the person do first.
  if (signal === "SIGKILL") ws.removeCutSidecars();
  return { request: running.request, ...ended };
}

/** A request with this method whose path (without the project prefix) matches `pattern`. */
export function request(method: string, pattern: RegExp, status?: number): (r: LoggedCall) => boolean {
  return (r) =>
    r.method === method &&
    pattern.test(r.path.replace(/^\/public\/api\/v1\/projects\/[^/]+/, "")) &&
    (status === undefined || r.status === status);
}

/** The documented recovery after a killed `pulumi up` (docs/recovery.md), in order. */
export const RECOVERY: Array<{ args: string[]; env?: NodeJS.ProcessEnv }> = [
  { args: ["cancel", "--yes"] },
  { args: ["refresh", "--yes", "--skip-preview", "--clear-pending-creates"] },
  { args: ["up", "--yes", "--skip-preview"], env: ADOPT },
];

/**
 * Runs the documented recovery (first deleting the empty metadata files a kill can leave in the
 * backend); its `pulumi up` is repeated (up to `maxUps` runs in all) while it fails. Returns how
 * many runs of `up` it took, and the output of each.
 */
export async function recover(ws: Workspace, maxUps = 1): Promise<{ ups: number; outputs: string[] }> {
  const outputs: string[] = [];
  ws.removeCutSidecars();
  for (const step of RECOVERY.slice(0, -1)) await ws.pulumi(step.args, { env: step.env });
  const up = RECOVERY[RECOVERY.length - 1];
  for (let run = 1; ; run++) {
    const result: CommandResult = await ws.pulumi(up.args, { env: up.env, allowFailure: run < maxUps });
    outputs.push(result.stdout + result.stderr);
    if (result.code === 0) return { ups: run, outputs };
  }
}

/** The type tokens of the package's resources, on either face: `<prefix><Kind>`. */
export const TYPE_PREFIXES = ["pulumi-nodejs:dynamic/mdb:", "mdb:index:"] as const;

/** True for the type token of one of the package's resources, on either face. */
export function isMdbType(type: string): boolean {
  return TYPE_PREFIXES.some((prefix) => type.startsWith(prefix));
}

/** A resource of the stack's state. */
export interface StateResource {
  /** Class name: `Vpc`, `Service`, `ReadReplicaSet`, `VpcPeering`. */
  type: string;
  /** Pulumi resource name. */
  name: string;
  /** Pulumi id. */
  id: string;
}

/**
 * The mdb resources of the stack's state (either face's types), and its pending operations
 * (`creating vpc-0`, ...).
 */
export async function stackState(ws: Workspace): Promise<{ resources: StateResource[]; pending: string[] }> {
  const { deployment } = JSON.parse(await ws.exportState()) as {
    deployment: {
      resources?: Array<{ type: string; urn: string; id?: string }>;
      pending_operations?: Array<{ type: string; resource: { urn: string } }>;
    };
  };
  const nameOf = (urn: string) => urn.split("::").pop() as string;
  return {
    resources: (deployment.resources ?? [])
      .filter((r) => isMdbType(r.type))
      .map((r) => ({ type: r.type.split(":").pop() as string, name: nameOf(r.urn), id: r.id ?? "" })),
    pending: (deployment.pending_operations ?? []).map((p) => `${p.type} ${nameOf(p.resource.urn)}`),
  };
}

/** The API's records, by kind, in the shape the state's ids take (peering `vpc/pcx`, set `svc/rrs`). */
async function apiIds(emulator: EmulatorProcess): Promise<Record<string, string[]>> {
  const services = await emulator.api<
    Array<{ service_id: string; read_replica_sets?: Array<{ id: string }> }>
  >("GET", "/services");
  const vpcs = await emulator.api<Array<{ id: string }>>("GET", "/vpcs");
  const peerings = await Promise.all(
    vpcs.map(async (v) =>
      (await emulator.api<Array<{ id: string }>>("GET", `/vpcs/${v.id}/peerings`)).map(
        (p) => `${v.id}/${p.id}`,
      ),
    ),
  );
  return {
    Service: services.map((s) => s.service_id),
    ReadReplicaSet: services.flatMap((s) =>
      (s.read_replica_sets ?? []).map((r) => `${s.service_id}/${r.id}`),
    ),
    Vpc: vpcs.map((v) => v.id),
    VpcPeering: peerings.flat(),
  };
}

/**
 * Expects every resource of a `groups`-group program to exist exactly once in the API and in
 * the state, under the same ids, with no pending operation and nothing else in the API.
 */
export async function expectConverged(
  ws: Workspace,
  emulator: EmulatorProcess,
  groups: number,
): Promise<void> {
  const state = await stackState(ws);
  expect(state.pending).toEqual([]);
  const api = await apiIds(emulator);
  for (const type of ["Vpc", "Service", "ReadReplicaSet", "VpcPeering"]) {
    const inState = state.resources.filter((r) => r.type === type);
    expect({ type, count: inState.length }).toEqual({ type, count: groups });
    expect({ type, ids: [...api[type]].sort() }).toEqual({ type, ids: inState.map((r) => r.id).sort() });
  }
}

/** Expects the API to hold nothing at all. */
export async function expectEmpty(emulator: EmulatorProcess): Promise<void> {
  expect(await emulator.inventory()).toEqual({ services: [], replicaSets: [], vpcs: [], peerings: [] });
}
