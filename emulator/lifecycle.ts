/**
 * The lifecycle rules of DESIGN.md: which action each state allows, and which states an accepted
 * action goes through.
 *
 * Transitions are evaluated lazily from timestamps instead of timers: an accepted action sets the
 * record's immediate status and appends its later steps with due times (`transitionMs` apart);
 * `advance` applies every step that is due whenever the state is read or changed. This keeps the
 * emulator deterministic, costs nothing while idle, and survives a restart with a state file.
 */
import type { ReplicaSetStatus, ServiceStatus } from "../provider/client/schemas";
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
 * Applies, in order, every step of `record` due at or before `now` (epoch ms).
 * Returns false when the record reached a `gone` step and must be removed.
 */
export function advance<Status extends string, Patch extends object>(
  record: Staged<Status, Patch> & Patch,
  now: number,
): boolean {
  while (record.steps.length > 0 && record.steps[0].due <= now) {
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

/** The states an action needs, in words, for the message of a 409. */
function needs(runs: readonly string[], allButDeleting: readonly string[], deleting: string): string {
  return runs === allButDeleting ? `any status but ${deleting}` : runs.join(" or ");
}

// ---------------------------------------------------------------------------------------------
// Services
// ---------------------------------------------------------------------------------------------

/** Actions on a service whose allowed states the lifecycle decides. */
export type ServiceAction =
  | "resize"
  | "setHA"
  | "attachToVPC"
  | "detachFromVPC"
  | "fork"
  | "createReplicaSet"
  | "stop"
  | "start"
  | "delete"
  | "enablePooler"
  | "disablePooler"
  | "updatePassword"
  | "setEnvironment";

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

/** Per action: the states that run it, and the states where it is accepted but changes nothing. */
const SERVICE_RULES: Record<
  ServiceAction,
  { runs: readonly ServiceStatus[]; noop?: readonly ServiceStatus[] }
> = {
  resize: { runs: ["READY"] },
  setHA: { runs: ["READY"] },
  attachToVPC: { runs: ["READY"] },
  detachFromVPC: { runs: ["READY"] },
  fork: { runs: ["READY"] },
  createReplicaSet: { runs: ["READY"] },
  // A retried stop or start must be harmless: the states it leads to accept it as a no-op.
  stop: { runs: ["READY"], noop: ["PAUSING", "PAUSED"] },
  start: { runs: ["PAUSED"], noop: ["RESUMING", "READY"] },
  delete: { runs: ALL_SERVICE_STATES_BUT_DELETING, noop: ["DELETING"] },
  enablePooler: { runs: ["READY", "PAUSED"] },
  disablePooler: { runs: ["READY", "PAUSED"] },
  updatePassword: { runs: ["READY", "PAUSED"] },
  setEnvironment: { runs: ALL_SERVICE_STATES_BUT_DELETING },
};

/**
 * Decides whether `action` may act on the service in its current status: `"run"` to carry it out,
 * `"noop"` to accept it without change; throws 409 CONFLICT naming the status otherwise.
 */
export function checkServiceAction(service: ServiceData, action: ServiceAction): "run" | "noop" {
  const rule = SERVICE_RULES[action];
  if (rule.noop?.includes(service.status)) return "noop";
  if (rule.runs.includes(service.status)) return "run";
  throw conflict(
    `cannot ${action} service ${service.service_id}: its status is ${service.status}` +
      ` (${action} needs ${needs(rule.runs, ALL_SERVICE_STATES_BUT_DELETING, "DELETING")})`,
  );
}

/** Create or fork: QUEUED, then CONFIGURING, then READY with `onReady` (the endpoint). */
export function beginProvisioning(
  service: ServiceData,
  now: number,
  ms: number,
  onReady: ServicePatch,
): void {
  schedule(service, now, ms, "QUEUED", [{ status: "CONFIGURING" }, { status: "READY", patch: onReady }]);
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

/** Actions on a read replica set whose allowed states the lifecycle decides. */
export type ReplicaSetAction = "resize" | "delete" | "enablePooler" | "disablePooler" | "setEnvironment";

const ALL_REPLICA_SET_STATES_BUT_DELETING: readonly ReplicaSetStatus[] = [
  "creating",
  "active",
  "resizing",
  "error",
];

const REPLICA_SET_RULES: Record<
  ReplicaSetAction,
  { runs: readonly ReplicaSetStatus[]; noop?: readonly ReplicaSetStatus[] }
> = {
  resize: { runs: ["active"] },
  delete: { runs: ALL_REPLICA_SET_STATES_BUT_DELETING, noop: ["deleting"] },
  enablePooler: { runs: ["active"] },
  disablePooler: { runs: ["active"] },
  setEnvironment: { runs: ALL_REPLICA_SET_STATES_BUT_DELETING },
};

/** Like `checkServiceAction`, for a read replica set. */
export function checkReplicaSetAction(replicaSet: ReplicaSetData, action: ReplicaSetAction): "run" | "noop" {
  const rule = REPLICA_SET_RULES[action];
  if (rule.noop?.includes(replicaSet.status)) return "noop";
  if (rule.runs.includes(replicaSet.status)) return "run";
  throw conflict(
    `cannot ${action} replica set ${replicaSet.id}: its status is ${replicaSet.status}` +
      ` (${action} needs ${needs(rule.runs, ALL_REPLICA_SET_STATES_BUT_DELETING, "deleting")})`,
  );
}

/** Create: creating, then active with `onActive` (the endpoint). */
export function beginReplicaSetCreation(
  replicaSet: ReplicaSetData,
  now: number,
  ms: number,
  onActive: ReplicaSetPatch,
): void {
  schedule(replicaSet, now, ms, "creating", [{ status: "active", patch: onActive }]);
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

/** Puts a replica set into the failed terminal state `error` (admin API), cancelling its steps. */
export function failReplicaSet(replicaSet: ReplicaSetData, message: string): void {
  replicaSet.status = "error";
  replicaSet.error_message = message;
  replicaSet.steps = [];
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
