/**
 * Settings: inputs that only the stack keeps. No record of the API shows them and no call
 * carries them (`deletionProtection`, the user and database a connection URI names, ...), so
 * a resource's outputs take them from the desired inputs on create and update, and from the
 * old outputs on refresh. Changing one is an in-place update with no API call.
 */
import type { DiffRule } from "./diff";
import { flagField } from "./fields";
import type { Props } from "./spec";

/**
 * The values of the settings `names`: from `want` (the desired inputs of a create or update)
 * when given, else from `olds` (the last outputs, for a refresh). Absent ones are left out,
 * so the diff rule's default applies.
 */
export function keptSettings<T extends object, K extends keyof T & string>(
  names: readonly K[],
  from: { olds?: Props; want?: T },
): Partial<Pick<T, K>> {
  const source = (from.want ?? from.olds ?? {}) as Props;
  const kept: Props = {};
  for (const name of names) if (source[name] !== undefined) kept[name] = source[name];
  return kept as Partial<Pick<T, K>>;
}

/** `deletionProtection`: while true, a delete is refused before any API call. Default false. */
export const deletionProtectionField = flagField(false);

/** Diff rule of `deletionProtection`: in place, no API call; absent means false. */
export const DELETION_PROTECTION_RULE: DiffRule = { change: "update", default: false, stackOnly: true };
