/**
 * The line a preview prints for each resource with changes: the API calls the update will
 * make, in order, and what they do to the database, e.g.
 * `[mdb] db: resizeService 1000m/4GB → 2000m/8GB, setHA 0 → 1 (the service restarts twice)`;
 * for a replacement, why, and the calls of the create and the delete. Pure: the provider's
 * diff (`lifecycle.ts`) gathers the facts, this file puts them in words.
 */
import type { OperationId } from "../../../api/operations";
import { UNKNOWN, isUnknown } from "../fields/check";

/**
 * What a call does to the database while it runs (docs/api.md#lifecycle): `restart` takes it
 * out of its settled state until done (a service through CONFIGURING, a read replica set
 * through `resizing`); `stop` and `start` pause and resume it.
 */
export type CallEffect = "restart" | "stop" | "start";

/** One API call as a preview names it. */
export interface PlannedCall {
  /** The API operation, as the client's method and docs/api.md name it: `resizeService`. */
  op: OperationId;
  /** The change it makes, in words (`1000m/4GB → 2000m/8GB`); never a secret. */
  detail?: string;
  /** What it does to the database while it runs; absent: nothing. */
  effect?: CallEffect;
}

/** A replacement: why, and the calls of the new resource's create and the old one's delete. */
export interface ReplacePlan {
  /** The inputs that force it, each `prop old → new (why)`, or the failed state it is in. */
  reasons: string[];
  /** The create of the new resource and the calls that follow it, in order. */
  create: PlannedCall[];
  /** The calls that delete the old resource, in order. */
  remove: PlannedCall[];
  /** The old one is deleted first (otherwise after the new one is made). */
  deleteFirst: boolean;
}

/** What a preview says of one resource with changes. */
export interface ChangeDescription {
  /** The Pulumi resource name (the program's, e.g. `db`). */
  name: string;
  /** What it is, for the effects: `service`. */
  label: string;
  /** It runs a database: the line says what the calls do to it, `no restart` included. */
  runs: boolean;
  /** The in-place calls, in order; ignored when `replace` is given. */
  calls: PlannedCall[];
  /** Inputs that change with no API call (only the stack keeps them). */
  recorded: string[];
  /** Inputs whose value is known only during `up`: their calls are planned then. */
  pending: string[];
  /** Set when the resource is replaced. */
  replace?: ReplacePlan;
  /** Anything else a reviewer must know (e.g. a delete that will be refused). */
  notes?: string[];
  /**
   * The diff is a refresh's (Pulumi diffs what a refresh read against the inputs the stack
   * recorded): the line says the calls are those an `up` of those inputs would make, not the
   * refresh's.
   */
  afterRefresh?: boolean;
}

const TIMES = ["", "once", "twice"];

/** `once`, `twice`, `3 times`. */
function times(n: number): string {
  return TIMES[n] ?? `${n} times`;
}

/** What `calls` do to the database, in order: `the service starts, restarts once, then stops`. */
export function effectsOf(label: string, calls: readonly PlannedCall[]): string {
  const phrases: string[] = [];
  let restarts = 0;
  const flush = () => {
    if (restarts > 0) phrases.push(`restarts ${times(restarts)}`);
    restarts = 0;
  };
  for (const call of calls) {
    if (call.effect === "restart") restarts++;
    else if (call.effect) {
      flush();
      phrases.push(call.effect === "stop" ? "stops" : "starts");
    }
  }
  flush();
  if (phrases.length === 0) return "no restart";
  const last = phrases.length > 1 ? `then ${phrases.pop()}` : undefined;
  return `the ${label} ${[...phrases, ...(last ? [last] : [])].join(", ")}`;
}

/** A call in words: `resizeService 1000m/4GB → 2000m/8GB`. */
export function callText(call: PlannedCall): string {
  return call.detail ? `${call.op} ${call.detail}` : call.op;
}

/**
 * The note of calls (their operations: `resizeService`) the API accepted in an earlier run that
 * ended before they settled: `up` waits for them; `resent`: they are among the calls planned, which
 * `up` sends again only if the API has not applied them.
 */
export function acceptedEarlierNote(calls: readonly string[], resent = true): string {
  const [verb, they, them] = calls.length > 1 ? ["were", "they", "them"] : ["was", "it", "it"];
  const again = resent ? ` and sends ${them} again only if the API has not applied ${them}` : "";
  return (
    `${calls.join(", ")} ${verb} accepted by the API in an earlier run that ended before ${they} settled: ` +
    `up waits for ${them}${again}`
  );
}

/**
 * The progress line of an update that finds the calls an earlier run left accepted (their words:
 * `resizeService 1000m/4GB → 2000m/4GB`) settled and does not plan them again:
 * `service abc: resizeService 1000m/4GB → 2000m/4GB, accepted in an earlier run, has settled; not sent again`.
 */
export function settledEarlierLine(what: string, calls: readonly string[]): string {
  const verb = calls.length > 1 ? "have" : "has";
  return `${what}: ${calls.join(", ")}, accepted in an earlier run, ${verb} settled; not sent again`;
}

/** A value in a preview line: unknown ones say so, secrets never show, strings as they are. */
export function shown(value: unknown, secret = false): string {
  if (value === UNKNOWN || isUnknown(value)) return "(known during up)";
  if (value === undefined) return "(none)";
  if (secret) return "[secret]";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `a → b`; `(none)` for a value not set. */
export function change(from: unknown, to: unknown, secret = false): string {
  return `${shown(from, secret)} → ${shown(to, secret)}`;
}

/** The `[mdb]` line (without the prefix) for one resource with changes. */
export function describeChange(d: ChangeDescription): string {
  const body = changeBody(d);
  return d.afterRefresh
    ? `${d.name}: the API differs from the inputs the stack recorded (this refresh calls nothing); ` +
        `an up with those inputs makes: ${body}`
    : `${d.name}: ${body}`;
}

/** What a change does, after the resource's name: its calls, or its replacement, and the notes. */
function changeBody(d: ChangeDescription): string {
  const tail: string[] = [];
  if (d.pending.length > 0)
    tail.push(
      `${d.pending.join(", ")} known only during up, which plans ${d.pending.length > 1 ? "their" : "its"} calls then`,
    );
  tail.push(...(d.notes ?? []));
  const after = tail.length > 0 ? `; ${tail.join("; ")}` : "";
  if (d.replace) {
    const { reasons, create, remove, deleteFirst } = d.replace;
    const made = create.map(callText).join(", ");
    const gone = remove.map(callText).join(", ");
    const steps = deleteFirst
      ? `${gone} of the old ${d.label} first, then ${made}`
      : `${made}, then ${gone} of the old ${d.label}`;
    return `replace (${reasons.join("; ")}): ${steps}${after}`;
  }
  const recorded = d.recorded.length > 0 ? `the stack records ${d.recorded.join(", ")}` : "";
  if (d.calls.length === 0) {
    const what = d.pending.length > 0 ? "no API call yet" : "no API call";
    return `${what}${recorded ? `; ${recorded}` : ""}${after}`;
  }
  const calls = d.calls.map(callText).join(", ");
  const effects = d.runs ? ` (${effectsOf(d.label, d.calls)})` : "";
  return `${calls}${effects}${recorded ? `; ${recorded}` : ""}${after}`;
}
