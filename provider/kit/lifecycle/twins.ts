/**
 * Twins: two resources of one program with the same identity (a create's `key`, the values it
 * matches existing records by), one of them to be created. A record can belong to one resource
 * only, so `up` would create the first and refuse the second (or, with the second already in the
 * stack, refuse the first): check says so at preview, naming the other resource.
 */
import { type CheckFailure, isUnknown } from "../fields/check";
import type { CreatePolicy, Props } from "../spec";
import type { RunHolds } from "./holds";

/** What `twinFailure` needs of a call's check. */
export interface TwinCheck {
  /** The run's holds; undefined outside a host. */
  holds: RunHolds | undefined;
  /** The resource kind's label: `service`. */
  label: string;
  /** The project the resource is in, resolved. */
  projectId: string;
  /** The program's name of the resource; undefined when nothing says. */
  name: string | undefined;
}

/**
 * The failure when another resource of the run has the identity `want` has, one of the two to be
 * created (`olds` empty: no recorded inputs); undefined otherwise, or while any of it is unknown.
 */
export function twinFailure<I>(
  check: TwinCheck,
  policy: Pick<CreatePolicy<I, unknown, string>, "key" | "identity"> | undefined,
  want: I,
  olds: Props,
): CheckFailure | undefined {
  const key = policy?.key;
  if (!check.holds || !key || check.name === undefined) return undefined;
  const values = key.of(want);
  if (values.some(isUnknown)) return undefined;
  const creating = Object.keys(olds).length === 0;
  const twin = check.holds.claim(check.label, JSON.stringify([check.projectId, ...values]), {
    by: check.name,
    creating,
  });
  if (!twin) return undefined;
  return {
    property: key.property,
    reason:
      `resource ${twin.by} of this program is a ${check.label} of the same ${policy.identity}; ` +
      `one record cannot belong to both, so up would refuse to create the ${creating && twin.creating ? "second" : "new one"}: ` +
      "make them differ, or declare it once",
  };
}
