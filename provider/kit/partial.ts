/**
 * Errors a provider throws after the API accepted a create or an update but a later step
 * failed. They carry `id`, `properties` and `reasons`, which the dynamic provider host
 * turns into a partial result: the resource stays in the stack, nothing is orphaned, and
 * the next `pulumi up` finishes the job.
 */
import { PartialFailure } from "../pulumi-contract/partial-failure";
import { PROVIDER_INPUT } from "./hidden";

export { PartialFailure };

/**
 * Runs `steps`, and turns a failure into a {@link PartialFailure} whose properties come
 * from `observe()` (the resource as it is now, or as last seen when even that fails), so the
 * engine records what really happened. `__provider` is copied from `inputs`, because the
 * host does not add it to partial results and the stack could not be managed without it.
 */
export async function withPartialState<T>(
  id: string,
  inputs: Record<string, unknown>,
  steps: () => Promise<T>,
  observe: () => Promise<Record<string, unknown>>,
): Promise<T> {
  try {
    return await steps();
  } catch (error) {
    let properties: Record<string, unknown>;
    try {
      properties = await observe();
    } catch {
      properties = {};
    }
    throw new PartialFailure(id, { ...properties, [PROVIDER_INPUT]: inputs[PROVIDER_INPUT] }, error);
  }
}
