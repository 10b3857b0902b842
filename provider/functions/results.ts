/**
 * Where a function whose result is a list puts it when the result must be an object: Pulumi's
 * invokes return objects, so the native plugin's Invoke (and the package schema, which declares
 * each function's outputs) carries `listServices`'s list as `{ services: [...] }`. The one table
 * of those names.
 */

/** The property of the object result that holds the list, per function returning a list. */
export const LIST_RESULTS: Readonly<Record<string, string>> = {
  getProjects: "projects",
  listServices: "services",
  listVpcs: "vpcs",
  listReadReplicaSets: "replicaSets",
  listVpcPeerings: "peerings",
};
