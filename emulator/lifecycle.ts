/**
 * The lifecycle rules (docs/api.md#lifecycle): which operation each state allows, and which states an
 * accepted operation goes through.
 *
 * Transitions are evaluated lazily from timestamps instead of timers: an accepted action sets the
 * record's immediate status and appends its later steps with due times (`transitionMs` apart);
 * `advance` applies every step that is due whenever the state is read or changed. This keeps the
 * emulator deterministic, costs nothing while idle, and survives a restart with a state file.
 */
import { OPERATIONS, type OperationId } from "../api/operations";
import type { ReplicaSetStatus, ServiceStatus } from "../api/schemas";
import { conflict } from "./errors";
import type {
  PeeringData,
  PeeringPatch,
  ReplicaSetData,
  ReplicaSetPatch,
  ServiceData,
  ServicePatch,
  Step,
} from "./store";

/** A record that moves through lifecycle steps. */
interface Staged<Status extends string, Patch extends object> {
  status: Status;
  steps: Step<Status, Patch>[];
}

/**
 * Applies, in order, every step of `record` due at or before `now` (epoch ms); a step for which
 * `hold` is true waits, and the later ones with it (a database still starting holds READY back).
 * Returns false when the record reached a `gone` step and must be removed.
 */
export function advance<Status extends string, Patch extends object>(
  record: Staged<Status, Patch> & Patch,
  now: number,
  hold?: (step: Step<Status, Patch>) => boolean,
): boolean {
  while (record.steps.length > 0 && record.steps[0].due <= now && !hold?.(record.steps[0])) {
    const step = record.steps.shift()!;
    if (step.gone) return false;
    if (step.status) record.status = step.status;
    if (step.patch) Object.assign(record, step.patch);
  }
  return true;
}

/** Sets the immediate status and replaces the pending steps by `next`, one `transitionMs` apart. */
function schedule<Status extends string, Patch extends object>(
  record: Staged<Status, Patch>,
  now: number,
  transitionMs: number,
  immediate: Status,
  next: Omit<Step<Status, Patch>, "due">[],
): void {
  record.status = immediate;
  record.steps = next.map((step, i) => ({ ...step, due: now + (i + 1) * transitionMs }));
}

/** Per operation: the states that carry it out, and those that accept it without change. */
type AllowedInState<Action extends OperationId, Status extends string> = Record<
  Action,
  { runs: readonly Status[]; noop?: readonly Status[] }
>;

/**
 * Decides whether operation `action` may act on a record in its current status: `"run"` to carry it
 * out, `"noop"` to accept it without change; throws 409 CONFLICT naming the status otherwise.
 */
function check<Action extends OperationId, Status extends string>(
  allowed: AllowedInState<Action, Status>,
  action: Action,
  what: string,
  status: Status,
  allButDeleting: readonly Status[],
  deleting: Status,
): "run" | "noop" {
  const rule = allowed[action];
  if (rule.noop?.includes(status)) return "noop";
  if (rule.runs.includes(status)) return "run";
  const needs = rule.runs === allButDeleting ? `any status but ${deleting}` : rule.runs.join(" or ");
  throw conflict(`${OPERATIONS[action].name} is not allowed while ${what} is ${status} (it needs ${needs})`);
}

// ---------------------------------------------------------------------------------------------
// Services
// ---------------------------------------------------------------------------------------------

/** Operations on a service whose allowed states the lifecycle decides. */
export type ServiceAction =
  | "resizeService"
  | "setHA"
  | "attachToVpc"
  | "detachFromVpc"
  | "forkService"
  | "createReplicaSet"
  | "stopService"
  | "startService"
  | "deleteService"
  | "enablePooler"
  | "disablePooler"
  | "updatePassword"
  | "setServiceEnvironment"
  | "renameService";

const ALL_SERVICE_STATES_BUT_DELETING: readonly ServiceStatus[] = [
  "QUEUED",
  "CONFIGURING",
  "READY",
  "UNSTABLE",
  "PAUSING",
  "PAUSED",
  "RESUMING",
  "UPGRADING",
  "OPTIMIZING",
];

/** The service states in which each operation runs, or is accepted as a no-op (409 in any other). */
export const SERVICE_ALLOWED_IN_STATE: AllowedInState<ServiceAction, ServiceStatus> = {
  resizeService: { runs: ["READY"] },
  setHA: { runs: ["READY"] },
  attachToVpc: { runs: ["READY"] },
  detachFromVpc: { runs: ["READY"] },
  forkService: { runs: ["READY"] },
  createReplicaSet: { runs: ["READY"] },
  // A retried stop or start must be harmless: the states it leads to accept it as a no-op.
  stopService: { runs: ["READY"], noop: ["PAUSING", "PAUSED"] },
  startService: { runs: ["PAUSED"], noop: ["RESUMING", "READY"] },
  deleteService: { runs: ALL_SERVICE_STATES_BUT_DELETING, noop: ["DELETING"] },
  enablePooler: { runs: ["READY", "PAUSED"] },
  disablePooler: { runs: ["READY", "PAUSED"] },
  updatePassword: { runs: ["READY", "PAUSED"] },
  setServiceEnvironment: { runs: ALL_SERVICE_STATES_BUT_DELETING },
  // A name is the record's alone: it changes at once, in any state but DELETING.
  renameService: { runs: ALL_SERVICE_STATES_BUT_DELETING },
};

/** Whether `action` runs on the service, is a no-op, or (throws) 409; see {@link SERVICE_ALLOWED_IN_STATE}. */
export function checkServiceAction(service: ServiceData, action: ServiceAction): "run" | "noop" {
  return check(
    SERVICE_ALLOWED_IN_STATE,
    action,
    `service ${service.service_id}`,
    service.status,
    ALL_SERVICE_STATES_BUT_DELETING,
    "DELETING",
  );
}

/** Create or fork: QUEUED, then CONFIGURING, then READY. */
export function beginProvisioning(service: ServiceData, now: number, ms: number): void {
  schedule(service, now, ms, "QUEUED", [{ status: "CONFIGURING" }, { status: "READY" }]);
}

/** Resize, setHA, attach, detach: CONFIGURING, then READY with `onReady` (the change takes effect). */
export function beginReconfiguring(
  service: ServiceData,
  now: number,
  ms: number,
  onReady: ServicePatch,
): void {
  schedule(service, now, ms, "CONFIGURING", [{ status: "READY", patch: onReady }]);
}

/** Stop: PAUSING, then PAUSED with `paused` true. */
export function beginPausing(service: ServiceData, now: number, ms: number): void {
  schedule(service, now, ms, "PAUSING", [{ status: "PAUSED", patch: { paused: true } }]);
}

/** Start: RESUMING (still paused), then READY with `paused` false. */
export function beginResuming(service: ServiceData, now: number, ms: number): void {
  schedule(service, now, ms, "RESUMING", [{ status: "READY", patch: { paused: false } }]);
}

/**
 * A service whose server failed (`--databases`): UNSTABLE, saying why in `error_message`. The steps
 * it was going through are kept in `retry_steps`, for {@link retryService}.
 */
export function failService(service: ServiceData, message: string): void {
  if (service.steps.length > 0 || service.retry_steps === undefined) service.retry_steps = service.steps;
  service.status = "UNSTABLE";
  service.error_message = message;
  service.steps = [];
}

/**
 * Tries a service whose server failed again (a restart with `--databases`): the steps it was going
 * through, or else its settled status (PAUSED when paused, else READY), due at `now`. It stays
 * UNSTABLE, with its reason, until its server is back and they are taken.
 */
export function retryService(service: ServiceData, now: number): void {
  const steps: Omit<Step<ServiceStatus, ServicePatch>, "due">[] = service.retry_steps?.length
    ? service.retry_steps
    : [{ status: service.paused ? "PAUSED" : "READY" }];
  service.steps = steps.map((step) => ({ ...step, due: now }));
}

/** Delete: DELETING, then gone; its replica sets go with it (deleting at once, gone together). */
export function beginServiceDeletion(service: ServiceData, now: number, ms: number): void {
  schedule(service, now, ms, "DELETING", [{ gone: true }]);
  for (const replicaSet of service.read_replica_sets) {
    replicaSet.status = "deleting";
    replicaSet.steps = [];
  }
}

// ---------------------------------------------------------------------------------------------
// Read replica sets
// ---------------------------------------------------------------------------------------------

/** Operations on a read replica set whose allowed states the lifecycle decides. */
export type ReplicaSetAction =
  | "resizeReplicaSet"
  | "deleteReplicaSet"
  | "enableReplicaSetPooler"
  | "disableReplicaSetPooler"
  | "setReplicaSetEnvironment";

const ALL_REPLICA_SET_STATES_BUT_DELETING: readonly ReplicaSetStatus[] = [
  "creating",
  "active",
  "resizing",
  "error",
];

/** The replica set states in which each operation runs, or is accepted as a no-op (409 in any other). */
export const REPLICA_SET_ALLOWED_IN_STATE: AllowedInState<ReplicaSetAction, ReplicaSetStatus> = {
  resizeReplicaSet: { runs: ["active"] },
  deleteReplicaSet: { runs: ALL_REPLICA_SET_STATES_BUT_DELETING, noop: ["deleting"] },
  enableReplicaSetPooler: { runs: ["active"] },
  disableReplicaSetPooler: { runs: ["active"] },
  setReplicaSetEnvironment: { runs: ALL_REPLICA_SET_STATES_BUT_DELETING },
};

/** Like {@link checkServiceAction}, for a read replica set. */
export function checkReplicaSetAction(replicaSet: ReplicaSetData, action: ReplicaSetAction): "run" | "noop" {
  return check(
    REPLICA_SET_ALLOWED_IN_STATE,
    action,
    `replica set ${replicaSet.id}`,
    replicaSet.status,
    ALL_REPLICA_SET_STATES_BUT_DELETING,
    "deleting",
  );
}

/** Create: creating, then active. */
export function beginReplicaSetCreation(replicaSet: ReplicaSetData, now: number, ms: number): void {
  schedule(replicaSet, now, ms, "creating", [{ status: "active" }]);
}

/** Resize: resizing, then active with the new sizes. */
export function beginReplicaSetResize(
  replicaSet: ReplicaSetData,
  now: number,
  ms: number,
  onActive: ReplicaSetPatch,
): void {
  schedule(replicaSet, now, ms, "resizing", [{ status: "active", patch: onActive }]);
}

/** Delete: deleting, then gone. */
export function beginReplicaSetDeletion(replicaSet: ReplicaSetData, now: number, ms: number): void {
  schedule(replicaSet, now, ms, "deleting", [{ gone: true }]);
}

/**
 * Puts a replica set into the failed terminal state `error`, cancelling its steps (the admin API);
 * when its server failed (`byServer`), they are kept in `retry_steps`, for {@link retryReplicaSet}.
 */
export function failReplicaSet(replicaSet: ReplicaSetData, message: string, byServer = false): void {
  if (byServer && (replicaSet.steps.length > 0 || replicaSet.retry_steps === undefined)) {
    replicaSet.retry_steps = replicaSet.steps;
  }
  replicaSet.status = "error";
  replicaSet.error_message = message;
  replicaSet.steps = [];
}

/** Like {@link retryService}: a replica set whose server failed, tried again (settled status `active`). */
export function retryReplicaSet(replicaSet: ReplicaSetData, now: number): void {
  const steps: Omit<Step<ReplicaSetStatus, ReplicaSetPatch>, "due">[] = replicaSet.retry_steps?.length
    ? replicaSet.retry_steps
    : [{ status: "active" }];
  replicaSet.steps = steps.map((step) => ({ ...step, due: now }));
}

// ---------------------------------------------------------------------------------------------
// VPC peerings
// ---------------------------------------------------------------------------------------------

/** Create peering: pending, then `active` with a provisioned id, or `failed` with an error message. */
export function beginPeering(
  peering: PeeringData,
  now: number,
  ms: number,
  outcome: { provisioned_id: string } | { error_message: string },
): void {
  const patch: PeeringPatch = outcome;
  schedule(peering, now, ms, "pending", [
    { status: "error_message" in outcome ? "failed" : "active", patch },
  ]);
}
