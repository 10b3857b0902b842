/**
 * The dynamic face's hidden inputs: what the resource classes add beside the program's inputs,
 * because Pulumi's dynamic provider host hands a provider neither the resource's name, its
 * `customTimeouts` nor the `import` option. The adapter (`provider.ts`) takes them off before the
 * kit sees the inputs and puts them back into what the host stores. Users' states hold them:
 * their names never change.
 */
import { DYNAMIC_FACE_INPUTS } from "../../kit/hidden";
import type { Props } from "../../kit/spec";

/** The serialized provider, which Pulumi's dynamic provider host adds to inputs and outputs. */
export const PROVIDER_INPUT = DYNAMIC_FACE_INPUTS.provider;

/** The id to adopt, from the `import` resource option (see `kit/lifecycle/adopt.ts`). */
export const IMPORT_INPUT = DYNAMIC_FACE_INPUTS.importId;

/** The program's name of the resource (`db`): what the preview's line and the holds call it. */
export const RESOURCE_NAME_INPUT = DYNAMIC_FACE_INPUTS.resourceName;

/** The `customTimeouts` option in milliseconds (`{create?, update?, delete?}`). */
export const TIMEOUTS_INPUT = DYNAMIC_FACE_INPUTS.timeouts;

/** The dynamic face's hidden inputs, which the kit never sees. */
export const DYNAMIC_INPUTS: readonly string[] = [
  PROVIDER_INPUT,
  IMPORT_INPUT,
  RESOURCE_NAME_INPUT,
  TIMEOUTS_INPUT,
];

/** `props` without the dynamic face's hidden inputs, and those apart. */
export function splitHidden(props: Props): { own: Props; hidden: Props } {
  const own: Props = {};
  const hidden: Props = {};
  for (const [key, value] of Object.entries(props)) {
    if (DYNAMIC_INPUTS.includes(key)) hidden[key] = value;
    else own[key] = value;
  }
  return { own, hidden };
}

/** The program's name of the resource, as its inputs or state carry it (absent in states of 0.1.0). */
export function resourceNameIn(props: Props): string | undefined {
  const name = props[RESOURCE_NAME_INPUT];
  return typeof name === "string" ? name : undefined;
}
