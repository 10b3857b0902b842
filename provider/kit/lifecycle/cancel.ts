/**
 * The run's cancellation (Ctrl-C: the engine's Cancel, which each face hands the runtime) in the
 * kit: waits, sleeps and the polls' GETs end at once; nothing new starts, neither a create nor an
 * update's next call; a change the API is answering is let finish (`client/call-state.ts`), so
 * that a create or update it accepted is kept in the stack as a partial failure (I1).
 */
import { MdbApiError } from "../../client/errors";
import { CANCELLED } from "../../client/failures";
import { cancelledBeforeMessage } from "../messages/waits";

/** Raised when the run's cancellation ended an operation; its message says where. */
export class CancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CancelledError";
  }
}

/** True when `error` (or one it was caused by) is the run's cancellation, the client's included. */
export function isCancellation(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause)
    if (e instanceof CancelledError || (e instanceof MdbApiError && e.code === CANCELLED)) return true;
  return false;
}

/** Throws a {@link CancelledError} when `signal` has aborted, before `what` (`creating service db`) starts. */
export function refuseIfCancelled(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new CancelledError(cancelledBeforeMessage(what));
}
