/**
 * Errors a provider throws after the API accepted a create or an update but a later step
 * failed. They carry `id`, `properties` and `reasons`, which the dynamic provider host
 * turns into a partial result: the resource stays in the stack, nothing is orphaned, and
 * the next `pulumi up` finishes the job.
 */
import { PROVIDER_INPUT } from "./hidden";

/** An error that tells the engine the resource exists, with its state as last observed. */
export class PartialFailure extends Error {
  /** Id of the resource that exists. */
  readonly id: string;
  /**
   * Its outputs as last observed, including the serialized provider. Not enumerable: they may
   * hold passwords, so printing or serializing the error must not show them; the provider
   * host reads the property by name.
   */
  declare readonly properties: Record<string, unknown>;
  /** Why the operation did not finish. */
  readonly reasons: string[];

  constructor(id: string, properties: Record<string, unknown>, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(reason);
    this.name = "PartialFailure";
    this.id = id;
    Object.defineProperty(this, "properties", { value: properties, enumerable: false });
    this.reasons = [reason];
  }
}

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
