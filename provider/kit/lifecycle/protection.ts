/**
 * Deletion protection: a resource whose state says `deletionProtection: true` is never
 * deleted. Pulumi hands `delete` the OLD state, so the flag the last `pulumi up` recorded is
 * the one that counts: lifting it takes an `up` with `false` before the destroy (or the
 * replacement) that deletes the resource. A replacement the program asks for is refused earlier,
 * by the diff at preview ({@link protectedReplacement}), before its new half is created. A
 * destroy cannot be refused earlier by a provider: Pulumi's `protect` option on every resource does.
 */
import { isUnknown } from "../fields/check";
import type { DiffRule } from "../fields/diff";
import { change } from "../preview/lines";

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

/**
 * Throws, before any API call, when the state of the resource says it is protected. A provider
 * learns of a `pulumi destroy` only when the engine asks it to delete each resource, after those
 * that depend on it and beside the others: so the refusal says how to have `destroy` refuse before
 * deleting anything (Pulumi's `protect` option on every resource: the engine refuses a protected
 * resource when it reaches it, so the first it reaches must be protected), and how to delete this
 * one without re-creating what the destroy deleted (an `up` of this resource alone).
 * `resource` is the program's name of it (`db`), when known.
 */
export function refuseIfProtected({ label, id, props }: ProtectedResource, resource?: string): void {
  if (!isProtected(props)) return;
  const name = typeof props.name === "string" ? ` "${props.name}"` : "";
  const target = resource ? `'**::${resource}'` : "<its URN>";
  throw new Error(
    `${label}${name} (${id}) has ${PROTECTION_INPUT}: true, so it was not deleted (no API call was made). ` +
      "A destroy reaches it only after deleting what depends on it and beside everything else; to have " +
      "`pulumi destroy` refuse before it deletes anything, give every resource of the stack Pulumi's option " +
      "`protect: true` (or a parent component with it: children inherit it), as ProductionDatabase does for its " +
      `own. To delete this ${label}, set ${PROTECTION_INPUT}: false in the program, run ` +
      `\`pulumi up --target ${target}\` (it records that setting alone; a plain \`pulumi up\` would also ` +
      "re-create what this destroy deleted), then run `pulumi destroy` again",
  );
}

/** What names a replacement in the refusal. */
export interface ProtectedReplacement extends ProtectedResource {
  /** The inputs that force it, each `prop old → new (why)`. */
  reasons: string[];
  /** The inputs that force it, by name. */
  inputs: string[];
}

/**
 * The error a preview fails with when it would replace a protected resource (invariant I3): the
 * old one's delete reads the flag of the old state, so it would be refused after the new one was
 * made, leaving two resources and a delete no `up` can finish. The way out given works in that
 * order: the flag is lifted by an `up` that changes nothing else.
 */
export function protectedReplacement({ label, id, props, reasons, inputs }: ProtectedReplacement): Error {
  const name = typeof props.name === "string" ? ` "${props.name}"` : "";
  const what = inputs.join(", ");
  const them = inputs.length > 1 ? "them" : "it";
  return new Error(
    `${label}${name} (${id}) would be replaced (${reasons.join("; ")}), but its state has ` +
      `${PROTECTION_INPUT}: true, so the delete of the old ${label} would be refused after the new one ` +
      `was created. Nothing was created or deleted. To replace it: set ${what} back as ${inputs.length > 1 ? "they were" : "it was"}, ` +
      `set ${PROTECTION_INPUT}: false, run \`pulumi up\` (it only records the setting), then change ${what} ` +
      `again and run \`pulumi up\`. To keep this ${label}, set ${what} back and leave ${them} unchanged`,
  );
}

/** A diff, as {@link replacementUnderProtection} reads it. */
export interface ReplacingDiff extends ProtectedResource {
  /** The program's name of the resource (`db`). */
  name: string;
  /** The checked inputs it was diffed against. */
  news: Record<string, unknown>;
  /** What replaces it (inputs, or `status` for a failed one). */
  replaces: string[];
  /** The resource's diff rules, per input. */
  rules: Record<string, DiffRule>;
  /** Its secret properties: their values never show. */
  secret: ReadonlySet<string>;
}

/**
 * Invariant I3 at the diff: a replacement of a protected resource whose cause is known throws
 * {@link protectedReplacement}; one whose cause is known only during up gives a `warning` line (the
 * diff `up` makes with the value fails, before any create). A refresh's diff (`refresh`: Pulumi's
 * refresh diffs what it read against the recorded inputs, and changes nothing) never throws, or
 * the refresh would fail: it gives the `note` its line carries instead.
 */
export function replacementUnderProtection(
  d: ReplacingDiff,
  refresh: boolean,
): { warning?: string; note?: string } {
  if (d.replaces.length === 0 || !isProtected(d.props)) return {};
  const known = d.replaces.filter((p) => !(p in d.rules) || !isUnknown(d.news[p]));
  if (known.length === 0)
    return {
      warning:
        `${d.name}: ${d.replaces.join(", ")} known only during up; if that replaces this ${d.label}, ` +
        `up fails before creating anything, because its state has ${PROTECTION_INPUT}: true`,
    };
  if (refresh) return { note: `up fails before creating anything: the state has ${PROTECTION_INPUT}: true` };
  const inputs = known.filter((p) => p in d.rules);
  throw protectedReplacement({
    ...d,
    inputs: inputs.length > 0 ? inputs : ["status"],
    reasons: known.map((p) =>
      p in d.rules
        ? `${p} ${change(d.props[p], d.news[p], d.secret.has(p))}: ${d.rules[p].why ?? "cannot change in place"}`
        : `the API reports it ${String(d.props[p])}`,
    ),
  });
}
