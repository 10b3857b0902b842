/**
 * Deletion protection: a resource whose state says `deletionProtection: true` is never
 * deleted. Pulumi hands `delete` the OLD state, so the flag the last `pulumi up` recorded is
 * the one that counts: lifting it takes an `up` with `false` before the destroy (or the
 * replacement) that deletes the resource.
 */

/** The setting that protects a resource (a row of its field table, `rows.ts`). */
export const PROTECTION_INPUT = "deletionProtection";

/** True when the state `props` says the resource is protected. */
export function isProtected(props: Record<string, unknown>): boolean {
  return props[PROTECTION_INPUT] === true;
}

/** What names the resource in the refusal. */
export interface ProtectedResource {
  /** What it is: `service`, `VPC`. */
  label: string;
  /** Its Pulumi id. */
  id: string;
  /** Its outputs as the state holds them. */
  props: Record<string, unknown>;
}

/** Throws, before any API call, when the state of the resource says it is protected. */
export function refuseIfProtected({ label, id, props }: ProtectedResource): void {
  if (!isProtected(props)) return;
  const name = typeof props.name === "string" ? ` "${props.name}"` : "";
  throw new Error(
    `${label}${name} (${id}) has ${PROTECTION_INPUT}: true, so it was not deleted (no API call was made). ` +
      `To delete it, set ${PROTECTION_INPUT}: false in the program, run \`pulumi up\`, then run ` +
      "`pulumi destroy` (or the `pulumi up` that replaces or removes it) again",
  );
}
