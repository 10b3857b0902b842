/**
 * Deletion protection: a resource whose state says `deletionProtection: true` is never
 * deleted. Pulumi hands `delete` the OLD state, so the flag the last `pulumi up` recorded is
 * the one that counts: lifting it takes an `up` with `false` before the destroy (or the
 * replacement) that deletes the resource.
 */

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
  if (props.deletionProtection !== true) return;
  const name = typeof props.name === "string" ? ` "${props.name}"` : "";
  throw new Error(
    `${label}${name} (${id}) has deletionProtection: true, so it was not deleted (no API call was made). ` +
      "To delete it, set deletionProtection: false in the program, run `pulumi up`, then run " +
      "`pulumi destroy` (or the `pulumi up` that replaces or removes it) again",
  );
}
