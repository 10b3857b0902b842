/**
 * RELIANCE on Pulumi's dynamic provider host, which Pulumi does not document: when a provider
 * function rejects with an error that has an `id`, the host answers the engine with
 * `ErrorResourceInitFailed` carrying that id, the error's `properties` as the resource's state
 * and its `reasons`, so the engine records the resource (a partial create or update) instead of
 * forgetting it (`test/unit/pulumi-contract.test.ts` checks the installed release still reads
 * these three fields). Why: a resource the API accepted but whose wait failed must stay in the
 * stack, or it is orphaned (DESIGN.md, "Provider rules").
 */

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
