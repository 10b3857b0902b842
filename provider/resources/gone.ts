/**
 * Waiting until a deleted resource has disappeared from the API, shared by every resource's
 * `delete`: a delete request is only accepted, and the stack must not move on (e.g. to delete
 * the VPC a peering used) before the resource is really gone.
 */
import { MdbApiError } from "../client/errors";
import { progress } from "../runtime";
import { waitFor } from "../wait";

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
      try {
        const record = (await look()) as { status?: string } | undefined;
        if (record === undefined) return { gone: true, state: "gone" };
        return { gone: false, state: record?.status ?? "present" };
      } catch (error) {
        if (error instanceof MdbApiError && error.isNotFound) return { gone: true, state: "gone" };
        throw error;
      }
    },
    (v) => (v.gone ? { done: true } : { done: false, state: v.state }),
    { what, timeoutMs, onProgress: progress },
  );
}
