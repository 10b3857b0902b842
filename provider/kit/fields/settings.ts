/**
 * Settings: inputs that only the stack keeps. No record of the API shows them and no call
 * carries them (deletion protection, the user and database a connection URI names, ...), so
 * a resource's outputs take them from the desired inputs on create and update, and from the
 * old outputs on refresh. Changing one is an in-place update with no API call. A field table
 * marks them `{ stackOnly: true }` (see `field-table.ts`).
 */
import type { Props } from "../spec";

/**
 * The values of the settings `names`: from `want` (the desired inputs of a create or update)
 * when given, else from `olds` (the last outputs, for a refresh). Absent ones are left out,
 * so the diff rule's default applies.
 */
export function keptSettings(names: readonly string[], from: { olds?: Props; want?: Props }): Props {
  const source = from.want ?? from.olds ?? {};
  const kept: Props = {};
  for (const name of names) if (source[name] !== undefined) kept[name] = source[name];
  return kept;
}
