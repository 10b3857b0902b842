/**
 * The life the fault matrix walks (docs/recovery.md#the-fault-matrix): what the program declares
 * (`Spec`), its steps (each a mutating call and the program change that makes it), the ways a call
 * fails, the follow-ups a user runs, the documented outcomes that need a person, and a cell's
 * result. `fault-matrix-harness.ts` walks it; `fault-matrix-suite.ts` chooses the cells.
 */
import * as path from "path";
import { ADOPT } from "./recovery-harness";

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
export const FOLLOW_UP_COMMANDS: Record<FollowUp, Array<{ args: string[]; env?: Record<string, string> }>> = {
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
 * it could not record it (its answer was lost). The refusal names the switch (and the `import`
 * option, in TypeScript's words on the dynamic face, by name on the plugin); the person runs
 * `MDB_ADOPT_EXISTING=true pulumi up`, which must adopt that very record.
 */
export const ADOPT_REFUSAL =
  /already exists in project \S+ with id \S+\. Adopt it with the resource option (\{ import: "[^"]+" \}|import set to "[^"]+" \([^)]+\)), or choose another name\. To adopt every record of the same identity instead \(after an interrupted run\), set mdb:adoptExisting to true: `pulumi config set mdb:adoptExisting true`, or MDB_ADOPT_EXISTING=true for one run/;

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
