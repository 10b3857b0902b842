/**
 * Errors a provider throws after the API accepted a create or an update but a later step
 * failed. They carry `id`, `properties` and `reasons`, which the dynamic provider host
 * turns into a partial result: the resource stays in the stack, nothing is orphaned, and
 * the next `pulumi up` finishes the job (invariant I1, docs/recovery.md).
 */
import { MdbApiError } from "../../client/errors";
import { PartialFailure } from "../../pulumi-contract/partial-failure";
import { type WaitEnding, deleteAdvice, keptAdvice } from "../messages/waits";
import { ACCEPTED_OUTPUT } from "../hidden";
import { isCancellation } from "./cancel";
import { WaitError } from "./wait";

export { PartialFailure };

/** Where the state of a partial failure comes from. */
export interface PartialState {
  /** The resource in words, for the advice a failed wait ends with: `service q1w2e3r4t5`. */
  resource?: string;
  /** The resource as it is now (a read of the API); undefined when it is gone. */
  observe(): Promise<Record<string, unknown> | undefined>;
  /**
   * The state without the API: the last known outputs (the create's answer, or the old state
   * with what the update applied), with the program's inputs. Taken when observing fails (the
   * API away) or finds nothing.
   */
  known(): Record<string, unknown>;
  /**
   * The calls the API accepted whose wait did not end, in preview words; the state keeps them
   * under {@link ACCEPTED_OUTPUT}. Filled while the steps run (`steps.ts`, `StepRun.accepted`).
   */
  accepted?: readonly string[];
}

/** True when `error` (or one it was caused by) says the API could not be reached. */
function apiAway(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause)
    if (e instanceof MdbApiError && (e.code === "NETWORK_ERROR" || e.code === "TIMEOUT")) return true;
  return false;
}

/**
 * True when the API could not be reached, or the run was cancelled: asking again now would not
 * help, or not be sent.
 */
function unreachable(error: unknown): boolean {
  return isCancellation(error) || apiAway(error);
}

/** Why a failure ended the operation, when it calls for advice (see {@link WaitEnding}). */
function waitEnding(error: unknown): WaitEnding | undefined {
  if (isCancellation(error)) return "cancelled";
  if (error instanceof WaitError && (error.kind === "stuck" || error.kind === "timeout")) return error.kind;
  if (apiAway(error)) return "unreachable";
  return undefined;
}

/** `error` with `advice` after its message (the original as its cause). */
function advised(error: unknown, advice: (why: WaitEnding) => string): unknown {
  const why = waitEnding(error);
  if (!why) return error;
  const failed = new Error(`${(error as Error).message}. ${advice(why)}`, { cause: error });
  failed.name = (error as Error).name;
  return failed;
}

/**
 * Runs the delete `steps` of `resource`, which call `accepted` once the API has answered the
 * delete; a failure stuck, cancelled or without the API says what it leaves (the resource stays
 * in the stack, its delete accepted or perhaps sent) and what to do next.
 */
export async function withDeleteAdvice(
  resource: string,
  steps: (accepted: () => void) => Promise<void>,
): Promise<void> {
  let accepted = false;
  try {
    await steps(() => (accepted = true));
  } catch (error) {
    throw advised(error, (why) => deleteAdvice(resource, why, accepted));
  }
}

/**
 * Runs `steps`, and turns a failure into a {@link PartialFailure} whose properties are the
 * resource as observed now (unless the API could not be reached: its retries would only delay
 * the error), else as last known ({@link PartialState}): never empty, so the next preview
 * compares the program with what was done and plans only what is left, never a replacement.
 * A wait that failed stuck, cancelled or without the API says, after its message, that the
 * resource is kept and what to do next.
 */
export async function withPartialState<T>(
  id: string,
  steps: () => Promise<T>,
  state: PartialState,
): Promise<T> {
  try {
    return await steps();
  } catch (error) {
    let properties: Record<string, unknown> | undefined;
    try {
      properties = unreachable(error) ? undefined : await state.observe();
    } catch {
      properties = undefined;
    }
    properties ??= state.known();
    if (state.accepted) {
      const { [ACCEPTED_OUTPUT]: _earlier, ...rest } = properties;
      properties = state.accepted.length > 0 ? { ...rest, [ACCEPTED_OUTPUT]: [...state.accepted] } : rest;
    }
    throw new PartialFailure(
      id,
      properties,
      advised(error, (why) => keptAdvice(state.resource ?? "the resource", why)),
    );
  }
}
