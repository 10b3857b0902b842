/**
 * Where a function whose result is a list puts it when the result must be an object: Pulumi's
 * invokes return objects, so the native plugin's Invoke (and the package schema, which declares
 * each function's outputs) carries `listServices`'s list as `{ services: [...] }`. Read from the
 * functions' declarations (`declarations.ts`, each one's `listKey`), the one place those names are.
 */
import { FUNCTIONS } from "./declarations";

/** The property of the object result that holds the list, per function returning a list. */
export const LIST_RESULTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FUNCTIONS).flatMap(([name, declaration]) =>
    "listKey" in declaration ? [[name, declaration.listKey]] : [],
  ),
);
