/**
 * The fault matrix (issue 26, docs/recovery.md#the-fault-matrix): one program with every resource
 * kind walks a life, step by step; at each step one mutating call fails in one way, the user runs
 * one follow-up, and the result is checked the way a user would: the API and the stack hold what
 * the program says, once each; every service that existed still exists, its data untouched; the
 * next preview plans nothing. This file holds the life, the failures, the follow-ups, the checks
 * and the table; `fault-matrix.test.ts` chooses which cells run.
 */
import { ChildProcess, spawn } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import * as readline from "readline";
import { E2E_KEYS, type Face, type LoggedCall, Workspace } from "./workspace";
import { ADOPT, isMdbType, killTree, type StateResource } from "./recovery-harness";

const root = path.resolve(__dirname, "../..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The program of the matrix: it declares what `spec.json` beside it says. */
export const MATRIX_PROGRAM = path.join(__dirname, "fault-matrix-program");

/** What the program declares (read by fault-matrix-program/index.js). */
export interface Spec {
  vpcs: Record<string, { name: string; cidr: string }>;
  service?: {
    name: string;
    serviceType: "POSTGRES" | "TIMESERIESDB" | "VECTOR";
    cpuMillis: number;
    memoryGbs: number;
    replicaCount: number;
    pooler: boolean;
    environment: "DEV" | "PROD";
    password?: string;
    paused: boolean;
    vpc?: string;
    finalFork: boolean;
  };
  reads?: {
    name?: string;
    nodes: number;
    cpuMillis: number;
    memoryGbs: number;
    pooler: boolean;
    environment: "DEV" | "PROD";
  };
  peering?: { vpc: string; peerVpcId: string };
}

/** One mutating call of the life: the program change that makes it, and the request it sends. */
export interface Step {
  /** Resource kind whose call it is. */
  kind: "Service" | "ReadReplicaSet" | "Vpc" | "VpcPeering";
  /** The call, as the table's row names it (operation ids). */
  call: string;
  /** The program after the step. */
  change: (spec: Spec) => Spec;
  /** Method and path pattern (full path, the `/public/api/v1/projects/...` prefix included) of the faulted request. */
  method: string;
  path: string;
  /** True for a create (never retried on an error answer: one error fails it). */
  create?: boolean;
  /** The step deletes the program's service on purpose (replacement, removal): its id may go. */
  retiresService?: boolean;
}

const SERVICE: NonNullable<Spec["service"]> = {
  name: "fm-db",
  serviceType: "POSTGRES",
  cpuMillis: 500,
  memoryGbs: 2,
  replicaCount: 0,
  pooler: false,
  environment: "DEV",
  paused: false,
  vpc: "vpc-a",
  finalFork: true,
};
const READS: NonNullable<Spec["reads"]> = {
  nodes: 1,
  cpuMillis: 500,
  memoryGbs: 2,
  pooler: false,
  environment: "DEV",
};
const P = "/public/api/v1/projects/[^/]+";
const svc = (s: Spec) => s.service as NonNullable<Spec["service"]>;
const reads = (s: Spec) => s.reads as NonNullable<Spec["reads"]>;

/**
 * The life the program walks, one mutating call per step, in order: each kind's create, every
 * in-place step, each replacement (its create and, for the service, the final fork of the old
 * half), each delete. The service has `finalFork: true` throughout, so each of its deletes forks it.
 */
export const LIFE: Step[] = [
  {
    kind: "Vpc",
    call: "createVpc",
    change: () => ({ vpcs: { "vpc-a": { name: "fm-vpc-a", cidr: "10.60.0.0/16" } } }),
    method: "POST",
    path: `${P}/vpcs$`,
    create: true,
  },
  {
    kind: "Service",
    call: "createService",
    change: (s) => ({
      ...s,
      vpcs: { ...s.vpcs, "vpc-b": { name: "fm-vpc-b", cidr: "10.61.0.0/16" } },
      service: { ...SERVICE },
    }),
    method: "POST",
    path: `${P}/services$`,
    create: true,
  },
  {
    kind: "ReadReplicaSet",
    call: "createReplicaSet",
    change: (s) => ({ ...s, reads: { ...READS } }),
    method: "POST",
    path: `${P}/services/[^/]+/replicaSets$`,
    create: true,
  },
  {
    kind: "VpcPeering",
    call: "createPeering",
    change: (s) => ({ ...s, peering: { vpc: "vpc-a", peerVpcId: "vpc-peer-1" } }),
    method: "POST",
    path: `${P}/vpcs/[^/]+/peerings$`,
    create: true,
  },
  {
    kind: "Service",
    call: "resizeService",
    change: (s) => ({ ...s, service: { ...svc(s), cpuMillis: 1000, memoryGbs: 4 } }),
    method: "POST",
    path: `${P}/services/[^/]+/resize$`,
  },
  {
    kind: "Service",
    call: "setHA",
    change: (s) => ({ ...s, service: { ...svc(s), replicaCount: 1 } }),
    method: "POST",
    path: `${P}/services/[^/]+/setHA$`,
  },
  {
    kind: "Service",
    call: "enablePooler",
    change: (s) => ({ ...s, service: { ...svc(s), pooler: true } }),
    method: "POST",
    path: `${P}/services/[^/]+/enablePooler$`,
  },
  {
    kind: "Service",
    call: "setServiceEnvironment",
    change: (s) => ({ ...s, service: { ...svc(s), environment: "PROD" } }),
    method: "POST",
    path: `${P}/services/[^/]+/setEnvironment$`,
  },
  {
    kind: "Service",
    call: "updatePassword",
    change: (s) => ({ ...s, service: { ...svc(s), password: "fm-password-1" } }),
    method: "POST",
    path: `${P}/services/[^/]+/updatePassword$`,
  },
  {
    kind: "Service",
    call: "stopService",
    change: (s) => ({ ...s, service: { ...svc(s), paused: true } }),
    method: "POST",
    path: `${P}/services/[^/]+/stop$`,
  },
  {
    kind: "Service",
    call: "startService",
    change: (s) => ({ ...s, service: { ...svc(s), paused: false } }),
    method: "POST",
    path: `${P}/services/[^/]+/start$`,
  },
  {
    kind: "Service",
    call: "detachFromVpc",
    change: (s) => ({ ...s, service: { ...svc(s), vpc: undefined } }),
    method: "POST",
    path: `${P}/services/[^/]+/detachFromVPC$`,
  },
  {
    kind: "Service",
    call: "attachToVpc",
    change: (s) => ({ ...s, service: { ...svc(s), vpc: "vpc-b" } }),
    method: "POST",
    path: `${P}/services/[^/]+/attachToVPC$`,
  },
  {
    kind: "Service",
    call: "disablePooler",
    change: (s) => ({ ...s, service: { ...svc(s), pooler: false } }),
    method: "POST",
    path: `${P}/services/[^/]+/disablePooler$`,
  },
  {
    kind: "ReadReplicaSet",
    call: "resizeReplicaSet",
    change: (s) => ({ ...s, reads: { ...reads(s), nodes: 2 } }),
    method: "POST",
    path: `${P}/services/[^/]+/replicaSets/[^/]+/resize$`,
  },
  {
    kind: "ReadReplicaSet",
    call: "enableReplicaSetPooler",
    change: (s) => ({ ...s, reads: { ...reads(s), pooler: true } }),
    method: "POST",
    path: `${P}/services/[^/]+/replicaSets/[^/]+/enablePooler$`,
  },
  {
    kind: "ReadReplicaSet",
    call: "setReplicaSetEnvironment",
    change: (s) => ({ ...s, reads: { ...reads(s), environment: "PROD" } }),
    method: "POST",
    path: `${P}/services/[^/]+/replicaSets/[^/]+/setEnvironment$`,
  },
  {
    kind: "ReadReplicaSet",
    call: "disableReplicaSetPooler",
    change: (s) => ({ ...s, reads: { ...reads(s), pooler: false } }),
    method: "POST",
    path: `${P}/services/[^/]+/replicaSets/[^/]+/disablePooler$`,
  },
  {
    kind: "Vpc",
    call: "renameVpc",
    change: (s) => ({ ...s, vpcs: { ...s.vpcs, "vpc-a": { ...s.vpcs["vpc-a"], name: "fm-vpc-a2" } } }),
    method: "POST",
    path: `${P}/vpcs/[^/]+/rename$`,
  },
  {
    kind: "Service",
    call: "renameService",
    change: (s) => ({ ...s, service: { ...svc(s), name: "fm-db-2" } }),
    method: "POST",
    path: `${P}/services/[^/]+/rename$`,
  },
  {
    kind: "Service",
    call: "replace: createService",
    change: (s) => ({ ...s, service: { ...svc(s), serviceType: "TIMESERIESDB" } }),
    method: "POST",
    path: `${P}/services$`,
    create: true,
    retiresService: true,
  },
  {
    kind: "Service",
    call: "replace: final forkService",
    change: (s) => ({ ...s, service: { ...svc(s), serviceType: "VECTOR" } }),
    method: "POST",
    path: `${P}/services/[^/]+/forkService$`,
    create: true,
    retiresService: true,
  },
  {
    kind: "ReadReplicaSet",
    call: "replace: createReplicaSet",
    change: (s) => ({ ...s, reads: { ...reads(s), name: "fm-reads-2" } }),
    method: "POST",
    path: `${P}/services/[^/]+/replicaSets$`,
    create: true,
  },
  {
    kind: "Vpc",
    call: "replace: createVpc",
    change: (s) => ({ ...s, vpcs: { ...s.vpcs, "vpc-b": { ...s.vpcs["vpc-b"], cidr: "10.62.0.0/16" } } }),
    method: "POST",
    path: `${P}/vpcs$`,
    create: true,
  },
  {
    kind: "VpcPeering",
    call: "replace: createPeering",
    change: (s) => ({ ...s, peering: { vpc: "vpc-a", peerVpcId: "vpc-peer-2" } }),
    method: "POST",
    path: `${P}/vpcs/[^/]+/peerings$`,
    create: true,
  },
  {
    kind: "ReadReplicaSet",
    call: "deleteReplicaSet",
    change: (s) => ({ ...s, reads: undefined }),
    method: "DELETE",
    path: `${P}/services/[^/]+/replicaSets/[^/]+$`,
  },
  {
    kind: "VpcPeering",
    call: "deletePeering",
    change: (s) => ({ ...s, peering: undefined }),
    method: "DELETE",
    path: `${P}/vpcs/[^/]+/peerings/[^/]+$`,
  },
  {
    kind: "Service",
    call: "deleteService",
    change: (s) => ({ ...s, service: undefined }),
    method: "DELETE",
    path: `${P}/services/[^/]+$`,
    retiresService: true,
  },
  {
    kind: "Vpc",
    call: "deleteVpc",
    change: (s) => ({ vpcs: { "vpc-b": s.vpcs["vpc-b"] } }),
    method: "DELETE",
    path: `${P}/vpcs/[^/]+$`,
  },
];

/** How the call fails. */
export const FAILURES = ["error", "drop-before", "drop-after", "away", "kill"] as const;
/** How the call fails. */
export type Failure = (typeof FAILURES)[number];
/** What the user runs next. */
export const FOLLOW_UPS = ["up", "refresh-up", "recovery", "adopt"] as const;
/** What the user runs next. */
export type FollowUp = (typeof FOLLOW_UPS)[number];

/** Words of the table and the docs for each failure and follow-up. */
export const FAILURE_TEXT: Record<Failure, string> = {
  error: "error answer (HTTP 500 to every attempt)",
  "drop-before": "connection dropped before processing",
  "drop-after": "connection dropped after processing",
  away: "API away (process stopped) just after the call, past the retries; back with its state",
  kill: "kill -9 of pulumi at the call",
};
export const FOLLOW_UP_TEXT: Record<FollowUp, string> = {
  up: "pulumi up",
  "refresh-up": "pulumi refresh, then pulumi up",
  recovery: "the documented recovery (cancel, refresh --clear-pending-creates, MDB_ADOPT_EXISTING=true up)",
  adopt: "MDB_ADOPT_EXISTING=true pulumi up",
};

/** The commands each follow-up runs, in order. */
const FOLLOW_UP_COMMANDS: Record<FollowUp, Array<{ args: string[]; env?: Record<string, string> }>> = {
  up: [{ args: ["up", "--yes", "--skip-preview"] }],
  "refresh-up": [
    { args: ["refresh", "--yes", "--skip-preview"] },
    { args: ["up", "--yes", "--skip-preview"] },
  ],
  recovery: [
    { args: ["cancel", "--yes"] },
    { args: ["refresh", "--yes", "--skip-preview", "--clear-pending-creates"] },
    { args: ["up", "--yes", "--skip-preview"], env: ADOPT },
  ],
  adopt: [{ args: ["up", "--yes", "--skip-preview"], env: ADOPT }],
};

/**
 * The outcome a cell may have instead of converging, documented in docs/recovery.md: after `kill -9`
 * the stack is locked, every command says so and names `pulumi cancel`; the person runs the
 * documented recovery.
 */
export const LOCKED = /the stack is currently locked by 1 lock\(s\)/;

/**
 * What every command says when a kill cut a write of the backend short, leaving the metadata file
 * beside the stack's checkpoint empty; docs/recovery.md says to delete the empty `*.attrs` files.
 */
export const CHECKPOINT_CUT = /failed to load checkpoint: EOF/;

/**
 * The other documented outcome: a record of a name the program chose exists, and the run that made
 * it could not record it (its answer was lost). The refusal names the switch; the person runs
 * `MDB_ADOPT_EXISTING=true pulumi up`, which must adopt that very record.
 */
export const ADOPT_REFUSAL =
  /already exists in project \S+ with id \S+\. Adopt it with the resource option \{ import: "[^"]+" \}, or choose another name\. To adopt every record of the same identity instead \(after an interrupted run\), set mdb:adoptExisting to true: `pulumi config set mdb:adoptExisting true`, or MDB_ADOPT_EXISTING=true for one run/;

/** One cell's result. */
export interface CellResult {
  step: Step;
  failure: Failure;
  followUp: FollowUp;
  /** Converged (or the documented outcome held, then the documented commands converged). */
  passed: boolean;
  /** The documented outcome that needed a person, when it held. */
  person?: string;
  /** Why it did not converge: errors, wrong records, the next preview's plan. */
  problems: string[];
  seconds: number;
}

/** An `mdb-emulator` process with a state file, restartable on the same port. */
export class MatrixEmulator {
  private child?: ChildProcess;
  /** Base URL of the API (the same across restarts). */
  url = "";
  private port = 0;

  constructor(
    readonly stateFile: string,
    private readonly transitionMs: number,
  ) {}

  /** Starts the process (on the port of the previous start, if any) and waits for its listening line. */
  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      [
        path.join(root, "dist/emulator/cli.js"),
        "--port",
        String(this.port),
        "--transition-ms",
        String(this.transitionMs),
        "--state-file",
        this.stateFile,
        "--public-key",
        E2E_KEYS.publicKey,
        "--secret-key",
        E2E_KEYS.secretKey,
        "--project-id",
        E2E_KEYS.projectId,
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    this.child = child;
    this.url = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once("line", (line) => {
        const match = /^listening on (http:\/\/\S+)$/.exec(line);
        if (match) resolve(match[1]);
        else reject(new Error(`unexpected first line: ${line}`));
      });
      child.once("exit", (code) => reject(new Error(`mdb-emulator exited with ${code}`)));
    });
    this.port = Number(new URL(this.url).port);
  }

  /** Ends the process at once (SIGKILL: the state file holds every accepted change). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  private async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const auth = Buffer.from(`${E2E_KEYS.publicKey}:${E2E_KEYS.secretKey}`).toString("base64");
    const response = await fetch(url, {
      method,
      headers: { Authorization: `Basic ${auth}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private admin<T>(method: string, route: string, body?: unknown): Promise<T> {
    return this.call<T>(method, `${new URL(this.url).origin}/_emulator${route}`, body);
  }

  /** Calls the API: `projectPath` relative to the project, e.g. `/services`. */
  api<T = unknown>(method: string, projectPath: string, body?: unknown): Promise<T> {
    return this.call<T>(method, `${this.url}/projects/${E2E_KEYS.projectId}${projectPath}`, body);
  }

  /** The request log (full paths). */
  requests(): Promise<LoggedCall[]> {
    return this.admin("GET", "/requests");
  }

  /** Empties the request log. */
  clearRequests(): Promise<void> {
    return this.admin("DELETE", "/requests");
  }

  /** Replaces the fault configuration. */
  setFaults(config: Record<string, unknown>): Promise<void> {
    return this.admin("PUT", "/faults", config);
  }

  /** Drops every record, the log and the faults. */
  reset(): Promise<void> {
    return this.admin("POST", "/reset");
  }

  /** The emulator's own record of a service's password hash (`salt:hex`), from its state file. */
  passwordHash(serviceId: string): string | undefined {
    const state = JSON.parse(fs.readFileSync(this.stateFile, "utf8")) as {
      projects: Record<string, { services: Array<{ service_id: string; password_hash: string }> }>;
    };
    return state.projects[E2E_KEYS.projectId]?.services.find((s) => s.service_id === serviceId)
      ?.password_hash;
  }
}

/** A service record, as far as the checks read it. */
interface ServiceRecord {
  service_id: string;
  name: string;
  service_type: string;
  created: string;
  status: string;
  paused?: boolean;
  resources?: Array<{ spec: { cpu_millis: number; memory_gbs: number } }>;
  ha_replicas?: { replica_count?: number };
  connection_pooler?: unknown;
  metadata?: { environment?: string };
  vpcEndpoint?: { vpc_id?: string };
  forked_from?: { service_id?: string };
  read_replica_sets?: Array<{
    id: string;
    name: string;
    status: string;
    nodes: number;
    cpu_millis: number;
    memory_gbs: number;
    connection_pooler?: unknown;
    metadata?: { environment?: string };
  }>;
}

/** Everything the project holds. */
interface Inventory {
  services: ServiceRecord[];
  vpcs: Array<{ id: string; name: string; cidr: string }>;
  peerings: Array<{ id: string; vpcId: string; peer_vpc_id: string; status: string }>;
}

async function inventory(emulator: MatrixEmulator): Promise<Inventory> {
  const services = await emulator.api<ServiceRecord[]>("GET", "/services");
  const vpcs = await emulator.api<Inventory["vpcs"]>("GET", "/vpcs");
  const peerings = (
    await Promise.all(
      vpcs.map(async (v) =>
        (
          await emulator.api<Array<{ id: string; peer_vpc_id: string; status: string }>>(
            "GET",
            `/vpcs/${v.id}/peerings`,
          )
        ).map((p) => ({ ...p, vpcId: v.id })),
      ),
    )
  ).flat();
  return { services, vpcs, peerings };
}

/**
 * The mdb resources of the stack's state (either face's types) and its pending operations, read
 * from the `file://` backend's checkpoint (what `pulumi stack export` prints, without starting
 * the CLI: the matrix looks at the state several times per cell). Inputs included, secrets still
 * encrypted.
 */
function stackState(ws: Workspace): {
  resources: Array<StateResource & { inputs: Record<string, unknown> }>;
  pending: string[];
} {
  const file = path.join(ws.dir, ".state", ".pulumi", "stacks", "mdb-fault-matrix", "matrix.json");
  const latest = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoint: { latest?: Deployment } }).checkpoint.latest
    : undefined;
  const nameOf = (urn: string) => urn.split("::").pop() as string;
  return {
    resources: (latest?.resources ?? [])
      .filter((r) => isMdbType(r.type))
      .map((r) => ({
        type: r.type.split(":").pop() as string,
        name: nameOf(r.urn),
        id: r.id ?? "",
        inputs: r.inputs ?? {},
      })),
    pending: (latest?.pending_operations ?? []).map((p) => `${p.type} ${nameOf(p.resource.urn)}`),
  };
}

/** The part of a checkpoint's deployment the matrix reads. */
interface Deployment {
  resources?: Array<{ type: string; urn: string; id?: string; inputs?: Record<string, unknown> }>;
  pending_operations?: Array<{ type: string; resource: { urn: string } }>;
}

/** True when `password` is the one the emulator's hash `salt:hex` was made from. */
function matchesHash(hash: string | undefined, password: string): boolean {
  if (!hash) return false;
  const [salt, hex] = hash.split(":");
  return (
    createHash("sha256")
      .update(salt + password)
      .digest("hex") === hex
  );
}

/** The error lines of a command's output, for a cell's problems. */
function errorLines(output: string): string[] {
  return output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /error:|^\* |failed|\[mdb\].*(adopt|refus|not delet)/i.test(line))
    .slice(0, 12);
}

/**
 * A stack of the matrix program against its own emulator, walking the life: tracks the program,
 * the services that must survive, and the final forks each retired service leaves.
 */
export class Walk {
  spec: Spec = { vpcs: {} };
  /** Services that existed and must still exist, with their creation time (their data's identity). */
  private alive = new Map<string, string>();
  /** Services deleted on purpose (replacements, removal): each leaves exactly one final fork. */
  private retired = new Set<string>();
  private ws!: Workspace;

  private constructor(
    readonly emulator: MatrixEmulator,
    private readonly dir: string,
  ) {}

  /**
   * A new emulator (state file in `dir`) and a workspace of the matrix program on `face` (the
   * dynamic classes, or the native plugin through its generated SDK).
   */
  static async create(dir: string, transitionMs = 40, face: Face = "dynamic"): Promise<Walk> {
    fs.mkdirSync(dir, { recursive: true });
    const walk = new Walk(new MatrixEmulator(path.join(dir, "emulator-state.json"), transitionMs), dir);
    await walk.emulator.start();
    walk.ws = Workspace.create(MATRIX_PROGRAM, walk.emulator.url, face);
    walk.writeSpec();
    await walk.ws.stack("matrix");
    return walk;
  }

  private writeSpec(): void {
    fs.writeFileSync(path.join(this.ws.dir, "spec.json"), JSON.stringify(this.spec, null, 2));
  }

  /** Runs `pulumi <args>`, never throwing: its exit code and output. */
  private async run(args: string[], env?: Record<string, string>): Promise<{ code: number; output: string }> {
    const result = await this.ws.pulumi(args, { allowFailure: true, env });
    return { code: result.code, output: `${result.stdout}\n${result.stderr}` };
  }

  /** Brings the stack to the program with plain `up`s (no fault), for setting up and repairing. */
  async settle(): Promise<string[]> {
    const problems: string[] = [];
    for (const step of FOLLOW_UP_COMMANDS.recovery) {
      const { code, output } = await this.run(step.args, step.env);
      if (code !== 0) problems.push(...errorLines(output));
    }
    return problems;
  }

  /** Remembers the services of the state as ones that must survive from now on. */
  private async remember(): Promise<void> {
    const state = stackState(this.ws);
    const services = await this.emulator.api<ServiceRecord[]>("GET", "/services");
    for (const r of state.resources.filter((x) => x.type === "Service")) {
      const record = services.find((s) => s.service_id === r.id);
      if (record) this.alive.set(r.id, record.created);
    }
  }

  /**
   * Starts over after a cell that did not converge: the emulator emptied, the stack removed and
   * made again, the program as it was before the step brought up without faults.
   */
  async rebuild(spec: Spec, problems: string[] = []): Promise<void> {
    const failed = (what: string) =>
      new Error(
        `could not rebuild the matrix stack after a cell with problems:\n${problems.join("\n")}\n${what}`,
      );
    await this.emulator.setFaults({});
    await this.run(["cancel", "--yes"]);
    await this.emulator.reset();
    const removed = await this.run(["stack", "rm", "--yes", "--force", "matrix"]);
    // A checkpoint the CLI cannot read (a killed run can leave its .attrs file empty) makes
    // `stack rm` fail too; the emulator is empty now, so the stack's files go by hand.
    if (removed.code !== 0) this.removeStackFiles();
    try {
      await this.ws.stack("matrix");
    } catch (error) {
      throw failed(`\`pulumi stack rm\` said: ${errorLines(removed.output).join(" | ")}\n${String(error)}`);
    }
    this.spec = spec;
    this.writeSpec();
    const { code, output } = await this.run(["up", "--yes", "--skip-preview"]);
    if (code !== 0) throw failed(output);
    this.alive.clear();
    this.retired.clear();
    await this.remember();
  }

  /** The file backend's files of the stack `matrix`: its checkpoint, backups and locks. */
  private removeStackFiles(): void {
    const backend = path.join(this.ws.backendFolder, ".pulumi");
    const folders = ["stacks", "locks", "locks/organization", "history", "backups"];
    for (const dir of folders.map((d) => path.join(backend, d, "mdb-fault-matrix")))
      for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
        if (entry === "matrix" || entry.startsWith("matrix."))
          fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }

  /** Without faults, brings the program to `spec` (the steps before a cell, in the cover). */
  async apply(spec: Spec): Promise<void> {
    this.spec = spec;
    this.writeSpec();
    const { code, output } = await this.run(["up", "--yes", "--skip-preview"]);
    if (code !== 0) throw new Error(`setting up the matrix stack failed:\n${output}`);
    await this.remember();
  }

  /**
   * One cell: the step's change, its call failing with `failure` during `pulumi up`, then
   * `followUp`; checks the end state. When the cell does not converge, the stack is rebuilt to the
   * step's program so that the walk goes on.
   */
  async cell(step: Step, failure: Failure, followUp: FollowUp): Promise<CellResult> {
    const started = Date.now();
    const before = this.spec;
    const stateBefore = stackState(this.ws);
    const serviceBefore = stateBefore.resources.find((r) => r.type === "Service")?.id;
    this.spec = step.change(before);
    this.writeSpec();
    const problems: string[] = [];
    let person: string | undefined;

    await this.emulator.clearRequests();
    const log: LoggedCall[] = [];
    const faulted = await this.faultedRun(step, failure, log);
    if (!faulted.reached)
      problems.push(
        `the faulted run never sent ${step.method} ${step.call}: ${errorLines(faulted.output).join(" | ")}`,
      );
    await this.emulator.setFaults({});
    // Every service the API holds now (the failed run's included) must outlive the follow-up,
    // but the one the step retires.
    for (const s of await this.emulator.api<ServiceRecord[]>("GET", "/services"))
      if (!s.forked_from?.service_id && !(step.retiresService && s.service_id === serviceBefore))
        this.alive.set(s.service_id, s.created);
    const said: string[] = [];

    for (const command of FOLLOW_UP_COMMANDS[followUp]) {
      const { code, output } = await this.run(command.args, command.env);
      said.push(
        ...output
          .split("\n")
          .filter((l) => /\[mdb\]/.test(l))
          .map((l) => `\`${command.args[0]}\`: ${l.trim()}`),
      );
      if (code === 0) continue;
      if (failure === "kill" && CHECKPOINT_CUT.test(output)) {
        // The documented outcome of a kill in the middle of a checkpoint write: the metadata
        // file beside the checkpoint left empty. The person deletes it, then recovers.
        person = "the kill left the checkpoint's .attrs file empty: deleted, then the documented recovery";
        this.ws.removeCutSidecars();
        const repaired = await this.settle();
        if (repaired.length) problems.push(`the documented recovery failed: ${repaired.join(" | ")}`);
        break;
      }
      if (failure === "kill" && LOCKED.test(output) && /pulumi cancel/.test(output)) {
        // The documented outcome: the killed run's lock. The person runs what the message names.
        person = "the stack is locked: pulumi cancel, then the documented recovery";
        const repaired = await this.settle();
        if (repaired.length) problems.push(`the documented recovery failed: ${repaired.join(" | ")}`);
        break;
      }
      if (command.env !== ADOPT && ADOPT_REFUSAL.test(output)) {
        // The documented outcome: a named record the failed run made but could not record.
        person = "refused to adopt a named record: MDB_ADOPT_EXISTING=true pulumi up";
        const adopted = await this.run(["up", "--yes", "--skip-preview"], ADOPT);
        if (adopted.code !== 0)
          problems.push(
            `MDB_ADOPT_EXISTING=true pulumi up failed: ${errorLines(adopted.output).join(" | ")}`,
          );
        break;
      }
      problems.push(`\`pulumi ${command.args.join(" ")}\` failed: ${errorLines(output).join(" | ")}`);
      break;
    }
    log.push(...(await this.emulator.requests()));

    if (step.retiresService && serviceBefore) {
      this.alive.delete(serviceBefore);
      this.retired.add(serviceBefore);
    }
    problems.push(...(await this.check(log)));
    if (problems.length) {
      if (said.length) problems.push(`the follow-up said: ${said.slice(0, 8).join(" | ")}`);
      const plan = await this.run(["preview", "--diff"]);
      problems.push(`next preview: ${planLines(plan.output).join(" | ") || "(no changes)"}`);
    }
    if (problems.length) await this.rebuild(this.spec, problems);
    else await this.remember();
    return {
      step,
      failure,
      followUp,
      passed: problems.length === 0,
      person,
      problems,
      seconds: (Date.now() - started) / 1000,
    };
  }

  /** The `pulumi up` during which the step's call fails with `failure`. */
  private async faultedRun(
    step: Step,
    failure: Failure,
    log: LoggedCall[],
  ): Promise<{ reached: boolean; output: string }> {
    const pattern = new RegExp(step.path);
    const isCall = (r: LoggedCall) => r.method === step.method && pattern.test(r.path);
    const rule = { method: step.method, path: step.path };
    switch (failure) {
      case "error":
        await this.emulator.setFaults({ rules: [{ ...rule, status: 500, count: step.create ? 1 : 7 }] });
        break;
      case "drop-before":
        await this.emulator.setFaults({ rules: [{ ...rule, drop: true }] });
        break;
      case "drop-after":
        await this.emulator.setFaults({ rules: [{ ...rule, drop: true, after: true }] });
        break;
      case "away":
        // The call is answered; every request after it finds no API until the process restarts.
        await this.emulator.setFaults({ rules: [{ ...rule, down: true }] });
        break;
      case "kill":
        // 200 ms more per request: the kill lands between the call and the provider's answer.
        await this.emulator.setFaults({ latencyMs: 200 });
        break;
    }
    const { child, output } = this.ws.spawn(["up", "--yes", "--skip-preview"]);
    const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    let done = false;
    void ended.then(() => (done = true));
    let reached = false;
    for (;;) {
      const requests = await this.emulator.requests();
      if (requests.some(isCall)) {
        reached = true;
        if (failure === "kill") {
          killTree(child.pid as number, "SIGKILL");
        } else if (failure === "away") {
          log.push(...requests);
          await this.emulator.kill();
        }
        break;
      }
      if (done) break;
      await sleep(20);
    }
    await ended;
    if (failure === "away" && reached) await this.emulator.start();
    else if (failure !== "away") log.push(...(await this.emulator.requests()));
    return { reached, output: output() };
  }

  /** What is wrong with the end state, compared with the program: nothing when it converged. */
  private async check(log: LoggedCall[]): Promise<string[]> {
    const problems: string[] = [];
    const spec = this.spec;
    const state = stackState(this.ws);
    const api = await inventory(this.emulator);
    if (state.pending.length) problems.push(`pending operations left: ${state.pending.join(", ")}`);
    const byName = (name: string) => state.resources.filter((r) => r.name === name);
    const one = (type: string, name: string): StateResource | undefined => {
      const found = byName(name).filter((r) => r.type === type);
      if (found.length !== 1) problems.push(`the state holds ${found.length} ${type} ${name}`);
      return found[0];
    };
    const expectedCount: Record<string, number> = {
      Vpc: Object.keys(spec.vpcs).length,
      Service: spec.service ? 1 : 0,
      ReadReplicaSet: spec.reads ? 1 : 0,
      VpcPeering: spec.peering ? 1 : 0,
    };
    for (const [type, count] of Object.entries(expectedCount)) {
      const n = state.resources.filter((r) => r.type === type).length;
      if (n !== count) problems.push(`the state holds ${n} ${type}, the program ${count}`);
    }
    // Nothing duplicated: the API holds exactly the state's records (final forks aside).
    const forks = api.services.filter((s) => s.forked_from?.service_id);
    const own = api.services.filter((s) => !s.forked_from?.service_id);
    const ids = (type: string) =>
      state.resources
        .filter((r) => r.type === type)
        .map((r) => r.id)
        .sort();
    const same = (type: string, apiIds: string[]) => {
      if (JSON.stringify([...apiIds].sort()) !== JSON.stringify(ids(type)))
        problems.push(
          `${type}: the API holds [${apiIds.sort().join(", ")}], the state [${ids(type).join(", ")}]`,
        );
    };
    same(
      "Vpc",
      api.vpcs.map((v) => v.id),
    );
    same(
      "Service",
      own.map((s) => s.service_id),
    );
    same(
      "ReadReplicaSet",
      own.flatMap((s) => (s.read_replica_sets ?? []).map((r) => `${s.service_id}/${r.id}`)),
    );
    same(
      "VpcPeering",
      api.peerings.map((p) => `${p.vpcId}/${p.id}`),
    );

    const vpcIdOf = (key: string) => byName(key).find((r) => r.type === "Vpc")?.id;
    for (const [key, want] of Object.entries(spec.vpcs)) {
      const r = one("Vpc", key);
      const record = api.vpcs.find((v) => v.id === r?.id);
      if (r && (!record || record.name !== want.name || record.cidr !== want.cidr))
        problems.push(`Vpc ${key}: API ${JSON.stringify(record)}, program ${JSON.stringify(want)}`);
    }
    const serviceId = spec.service ? one("Service", "db")?.id : undefined;
    if (spec.service && serviceId) {
      const want = spec.service;
      const s = api.services.find((x) => x.service_id === serviceId);
      const have = s && {
        name: s.name,
        serviceType: s.service_type === "TIMESCALEDB" ? "TIMESERIESDB" : s.service_type,
        cpuMillis: s.resources?.[0]?.spec.cpu_millis,
        memoryGbs: s.resources?.[0]?.spec.memory_gbs,
        replicaCount: s.ha_replicas?.replica_count ?? 0,
        pooler: !!s.connection_pooler,
        environment: s.metadata?.environment ?? "DEV",
        paused: s.status === "PAUSED",
        vpc: s.vpcEndpoint?.vpc_id,
      };
      const expected = {
        name: want.name,
        serviceType: want.serviceType,
        cpuMillis: want.cpuMillis,
        memoryGbs: want.memoryGbs,
        replicaCount: want.replicaCount,
        pooler: want.pooler,
        environment: want.environment,
        paused: want.paused,
        vpc: want.vpc ? vpcIdOf(want.vpc) : undefined,
      };
      if (JSON.stringify(have) !== JSON.stringify(expected))
        problems.push(`Service db: API ${JSON.stringify(have)}, program ${JSON.stringify(expected)}`);
      if (s && !["READY", "PAUSED"].includes(s.status)) problems.push(`Service db is ${s.status}`);
      if (want.password && !matchesHash(this.emulator.passwordHash(serviceId), want.password))
        problems.push("Service db: its password is not the program's");
      if (spec.reads) {
        const r = one("ReadReplicaSet", "reads");
        const set = s?.read_replica_sets?.find((x) => `${serviceId}/${x.id}` === r?.id);
        const w = spec.reads;
        const haveSet = set && {
          nodes: set.nodes,
          cpuMillis: set.cpu_millis,
          memoryGbs: set.memory_gbs,
          pooler: !!set.connection_pooler,
          environment: set.metadata?.environment ?? "DEV",
          status: set.status,
          ...(w.name ? { name: set.name } : {}),
        };
        const wantSet = {
          nodes: w.nodes,
          cpuMillis: w.cpuMillis,
          memoryGbs: w.memoryGbs,
          pooler: w.pooler,
          environment: w.environment,
          status: "active",
          ...(w.name ? { name: w.name } : {}),
        };
        if (JSON.stringify(haveSet) !== JSON.stringify(wantSet))
          problems.push(
            `ReadReplicaSet reads: API ${JSON.stringify(haveSet)}, program ${JSON.stringify(wantSet)}`,
          );
      }
    }
    if (spec.peering) {
      const r = one("VpcPeering", "peer");
      const p = api.peerings.find((x) => `${x.vpcId}/${x.id}` === r?.id);
      if (r && (!p || p.peer_vpc_id !== spec.peering.peerVpcId || p.vpcId !== vpcIdOf(spec.peering.vpc)))
        problems.push(`VpcPeering peer: API ${JSON.stringify(p)}, program ${JSON.stringify(spec.peering)}`);
    }
    // The state records the program's inputs (so the next preview plans only what is left).
    const recorded = (type: string, name: string, want: Record<string, unknown>) => {
      const r = state.resources.find((x) => x.type === type && x.name === name);
      if (!r) return;
      const have = Object.fromEntries(Object.keys(want).map((k) => [k, r.inputs[k]]));
      if (JSON.stringify(have) !== JSON.stringify(want))
        problems.push(
          `${type} ${name}: the state records inputs ${JSON.stringify(have)}, the program ${JSON.stringify(want)}`,
        );
    };
    for (const [key, want] of Object.entries(spec.vpcs))
      recorded("Vpc", key, { name: want.name, cidr: want.cidr });
    if (spec.service) {
      const w = spec.service;
      recorded("Service", "db", {
        name: w.name,
        serviceType: w.serviceType,
        cpuMillis: w.cpuMillis,
        memoryGbs: w.memoryGbs,
        replicaCount: w.replicaCount,
        connectionPooler: w.pooler,
        environment: w.environment,
        paused: w.paused,
        vpcId: w.vpc ? vpcIdOf(w.vpc) : undefined,
      });
    }
    if (spec.reads) {
      const w = spec.reads;
      recorded("ReadReplicaSet", "reads", {
        ...(w.name ? { name: w.name } : {}),
        nodes: w.nodes,
        cpuMillis: w.cpuMillis,
        memoryGbs: w.memoryGbs,
        connectionPooler: w.pooler,
        environment: w.environment,
      });
    }
    if (spec.peering)
      recorded("VpcPeering", "peer", { peerVpcId: spec.peering.peerVpcId, vpcId: vpcIdOf(spec.peering.vpc) });
    // Every service that existed still exists, the same record, never sent a delete.
    for (const [id, created] of this.alive) {
      const s = api.services.find((x) => x.service_id === id);
      if (!s) problems.push(`DATA LOST: service ${id} no longer exists`);
      else if (s.created !== created)
        problems.push(`service ${id} is another record (created ${s.created}, was ${created})`);
      if (log.some((r) => r.method === "DELETE" && r.path.endsWith(`/services/${id}`)))
        problems.push(`DATA LOST: a delete of service ${id} was sent`);
    }
    // Each retired service left one final fork; no other fork exists.
    for (const id of this.retired) {
      const n = forks.filter((f) => f.forked_from?.service_id === id).length;
      if (n !== 1) problems.push(`service ${id} (retired) has ${n} final forks`);
    }
    const strays = forks.filter((f) => !this.retired.has(f.forked_from?.service_id as string));
    if (strays.length)
      problems.push(`forks of services still in use: ${strays.map((f) => f.name).join(", ")}`);
    if (!problems.length) {
      const preview = await this.run(["preview", "--expect-no-changes"]);
      if (preview.code !== 0) problems.push(`the next preview plans changes`);
    }
    return problems;
  }

  /** `pulumi destroy`; then the API holds exactly the final forks, one per retired service. */
  async destroy(): Promise<string[]> {
    const problems: string[] = [];
    const serviceId = stackState(this.ws).resources.find((r) => r.type === "Service")?.id;
    if (serviceId) this.retired.add(serviceId);
    const { code, output } = await this.run(["destroy", "--yes", "--skip-preview"]);
    if (code !== 0) problems.push(`destroy failed: ${errorLines(output).join(" | ")}`);
    const state = stackState(this.ws);
    if (state.resources.length)
      problems.push(`destroy left ${state.resources.map((r) => r.name).join(", ")} in the state`);
    const api = await inventory(this.emulator);
    const left = [
      ...api.services
        .filter((s) => !this.retired.has(s.forked_from?.service_id as string))
        .map((s) => s.name),
      ...api.vpcs.map((v) => v.name),
      ...api.peerings.map((p) => p.id),
    ];
    if (left.length) problems.push(`destroy left ${left.join(", ")} in the API`);
    return problems;
  }

  /** Stops the emulator and removes the workspace. */
  async close(): Promise<void> {
    await this.emulator.kill();
    this.ws.remove();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The lines of a preview that say what it would do. */
function planLines(output: string): string[] {
  return output
    .split("\n")
    .map((l) => l.trim())
    .filter(
      (l) => /^[+\-~]+\s|^\+-|^-\+|^~|replace|create|delete|error:|\[mdb\]/.test(l) && !/^Resources:/.test(l),
    )
    .slice(0, 10);
}

/** The matrix as a Markdown table: a row per call, a column per failure, passed/total in each cell. */
export function table(results: CellResult[]): string {
  const rows = [...new Set(results.map((r) => `${r.step.kind} ${r.step.call}`))];
  const lines = [`| call | ${FAILURES.join(" | ")} |`, `| --- | ${FAILURES.map(() => "---").join(" | ")} |`];
  for (const row of rows) {
    const cells = FAILURES.map((f) => {
      const mine = results.filter((r) => `${r.step.kind} ${r.step.call}` === row && r.failure === f);
      if (!mine.length) return "";
      const passed = mine.filter((r) => r.passed).length;
      const persons = mine.filter((r) => r.passed && r.person).length;
      return `${passed}/${mine.length}${persons ? ` (${persons} person)` : ""}`;
    });
    lines.push(`| ${row} | ${cells.join(" | ")} |`);
  }
  const passed = results.filter((r) => r.passed).length;
  lines.push("", `${passed}/${results.length} cells passed`);
  return lines.join("\n");
}

/** Each failed cell with its causes; each cell that needed a person with what it needed. */
export function details(results: CellResult[]): string {
  return results
    .filter((r) => !r.passed || r.person)
    .map(
      (r) =>
        `- ${r.step.kind} ${r.step.call} × ${r.failure} × ${r.followUp}: ${r.passed ? `needs a person (${r.person})` : "FAILED"}` +
        (r.problems.length ? `\n    ${r.problems.join("\n    ")}` : ""),
    )
    .join("\n");
}
