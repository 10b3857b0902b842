/**
 * Steps of an update, named by the operation they call: a resource's plan (`plan.ts`) says which
 * calls bring the observed resource to the program's inputs, in order, and this file makes them
 * (and waits where a call is asynchronous) and puts them in the words of the preview line. The
 * operation id is the one vocabulary of the spec, the client, the preview and the request log.
 */
import { OPERATIONS, type OperationId } from "../../../api/operations";
import type { MdbApi } from "../../client/api";
import type { ResourceRef } from "../fields/ids";
import { type CallEffect, type PlannedCall, callText } from "../preview/lines";
import { refuseIfCancelled } from "./cancel";
import { sendAndSettle } from "./wait";

/** One API call of an update. `R` is the resource's record. */
export interface Step<R = unknown> {
  /** The operation it calls: `resizeService`. */
  op: OperationId;
  /** Its body, as the client takes it (camelCase). */
  body?: object;
  /** The change in words for the preview line (`1000m/4GB → 2000m/8GB`); never a secret. */
  detail?: string;
  /** What it does to the database while it runs (see `preview.ts`); absent: nothing. */
  effect?: CallEffect;
  /**
   * The call is asynchronous: wait until the resource settles in `target` (its kind's default
   * when absent) and, with `until`, shows the change (a busy 409 is then waited out, see
   * `sendAndSettle`).
   */
  settle?: { target?: string; until?: (record: R) => boolean };
  /** What the stack remembers once the call succeeded (e.g. the password it set). */
  remember?: Record<string, unknown>;
  /** Its answer is the whole record, so it need not be read again. */
  answersRecord?: boolean;
  /** Turns a failure of the call into the error to report (one that says what to do), or returns it. */
  explain?: (error: unknown) => unknown;
}

/** How a resource waits after an asynchronous step. */
export type SettleFn<R> = (target: string | undefined, until?: (record: R) => boolean) => Promise<R>;

/** What {@link runSteps} works with. */
export interface StepRun<R> {
  /** The API client. */
  api: MdbApi;
  /** Where the resource lives: the values of the operations' path parameters. */
  ref: ResourceRef<string>;
  /** The resource in words, for progress lines: `service abc123`. */
  what: string;
  /** Waits after an asynchronous step. */
  settle: SettleFn<R>;
  /** Reports progress to the person running Pulumi. */
  progress(message: string): void;
  /** The run's cancellation: no call starts once it has aborted. */
  signal?: AbortSignal;
  /**
   * Where an asynchronous call the API accepted is named (its preview words) until its wait
   * ends, so that a run cut off in the wait can say so in the state (`partial.ts`).
   */
  accepted?: string[];
}

/** `project_id` -> `projectId`: the ref's name of a path parameter. */
function refKey(param: string): string {
  return param.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The path arguments of operation `op` for the resource at `ref`, in template order. */
export function pathArgsOf(op: OperationId, ref: ResourceRef<string>): string[] {
  return OPERATIONS[op].params.map((param) => (ref as Record<string, string>)[refKey(param)]);
}

/** Calls operation `op` of the resource at `ref`, through the client's method of that name. */
export function callOperation(
  api: MdbApi,
  op: OperationId,
  ref: ResourceRef<string>,
  body?: object,
): Promise<unknown> {
  const method = api[op] as (...args: unknown[]) => Promise<unknown>;
  return method.apply(api, [...pathArgsOf(op, ref), ...(body ? [body] : [])]);
}

/**
 * Makes the calls of `steps` in order, waiting after each asynchronous one; records in
 * `memory` what each remembers. Returns the record when the last call answered it whole. Once
 * the run is cancelled, no further call starts (a `CancelledError`, `cancel.ts`).
 */
export async function runSteps<R>(run: StepRun<R>, steps: Step<R>[], memory: object): Promise<R | undefined> {
  let last: unknown;
  for (const step of steps) {
    refuseIfCancelled(run.signal, `${step.op} of ${run.what}`);
    const words = callText(stepCall(step));
    run.progress(`${run.what}: ${words}`);
    const send = () =>
      callOperation(run.api, step.op, run.ref, step.body).then(
        (answer) => {
          if (step.settle && !run.accepted?.includes(words)) run.accepted?.push(words);
          return answer;
        },
        (error: unknown) => {
          throw step.explain ? step.explain(error) : error;
        },
      );
    const until = step.settle?.until;
    if (step.settle && until) {
      await sendAndSettle(run.what, send, (u) => run.settle(step.settle?.target, u), until, run.progress);
      last = undefined;
    } else {
      last = await send();
      if (step.settle) await run.settle(step.settle.target);
    }
    const waited = run.accepted?.indexOf(words) ?? -1; // its wait ended: settled
    if (waited >= 0) run.accepted?.splice(waited, 1);
    Object.assign(memory, step.remember);
  }
  const final = steps.at(-1);
  return final?.answersRecord && !final.settle ? (last as R) : undefined;
}

/** A step as the preview names it. */
export function stepCall<R>(step: Step<R>): PlannedCall {
  return {
    op: step.op,
    ...(step.detail ? { detail: step.detail } : {}),
    ...(step.effect ? { effect: step.effect } : {}),
  };
}
