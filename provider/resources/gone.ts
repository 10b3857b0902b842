/**
 * Waiting until a deleted resource has disappeared from the API, shared by every resource's
 * `delete`: a delete request is only accepted, and the stack must not move on (e.g. to delete
 * the VPC a peering used) before the resource is really gone.
 */
import { MdbApiError } from "../client/errors";
import { progress } from "../runtime";
import { waitFor } from "../wait";

/** True when `error` is the API's 404: the resource does not exist (any more). */
export function isGone(error: unknown): boolean {
  return error instanceof MdbApiError && error.isNotFound;
}

/** Resolves to what `request` answers, or to undefined when the API answers 404. */
export async function unlessGone<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  }
}

/**
 * Polls `look` until the resource is gone: `look` answers 404 (throws an {@link MdbApiError}
 * whose `isNotFound` is true) or returns `undefined` (for resources found in a list, which
 * have no GET of their own). Other errors end the wait. Throws a `WaitError` after `timeoutMs`.
 */
export async function waitUntilGone(
  look: () => Promise<unknown>,
  what: string,
  timeoutMs: number,
): Promise<void> {
  await waitFor(
    async () => {
      const record = (await unlessGone(look())) as { status?: string } | undefined;
      return record === undefined
        ? { gone: true, state: "gone" }
        : { gone: false, state: record.status ?? "present" };
    },
    (v) => (v.gone ? { done: true } : { done: false, state: v.state }),
    { what, timeoutMs, onProgress: progress },
  );
}
