/**
 * How a `VpcPeering` changes in place: never (every input replaces it). Kept so every resource
 * folder has the same files; the kit asks no plan of a resource without one.
 */
import type { Step } from "../../kit/lifecycle/steps";

/** No call changes a peering in place. */
export function planVpcPeering(): Step[] {
  return [];
}
