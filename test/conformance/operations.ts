/**
 * The 34 operations of the spec, as method and path template (the spec's own placeholders), with
 * a valid body for those that take one. Table-driven suites use it to check what every operation
 * shares: authentication, the project boundary, unknown ids.
 */

/** One operation of the spec. */
export interface Operation {
  /** The spec's name of the operation. */
  name: string;
  method: "GET" | "POST" | "DELETE";
  /** Path relative to the base URL, with `{project_id}`, `{service_id}`, ... placeholders. */
  path: string;
  /** A valid request body, for operations that take one. */
  body?: (ids: Ids) => unknown;
}

/** Values for the placeholders of a path. */
export type Ids = Record<"project_id" | "service_id" | "replica_set_id" | "vpc_id" | "peering_id", string>;

const svc = "/projects/{project_id}/services/{service_id}";
const rrs = `${svc}/replicaSets/{replica_set_id}`;
const vpc = "/projects/{project_id}/vpcs/{vpc_id}";

/** Every operation of the spec. */
export const OPERATIONS: readonly Operation[] = [
  { name: "Get Authentication Info", method: "GET", path: "/auth/info" },
  {
    name: "Identify a user",
    method: "POST",
    path: "/analytics/identify",
    body: () => ({ properties: { a: 1 } }),
  },
  {
    name: "Track an Analytics Event",
    method: "POST",
    path: "/analytics/track",
    body: () => ({ event: "e" }),
  },
  { name: "List All Services", method: "GET", path: "/projects/{project_id}/services" },
  {
    name: "Create a Service",
    method: "POST",
    path: "/projects/{project_id}/services",
    body: () => ({ name: "n" }),
  },
  { name: "Get a Service", method: "GET", path: svc },
  { name: "Delete a Service", method: "DELETE", path: svc },
  { name: "Start a Service", method: "POST", path: `${svc}/start` },
  { name: "Stop a Service", method: "POST", path: `${svc}/stop` },
  {
    name: "Resize a Service",
    method: "POST",
    path: `${svc}/resize`,
    body: () => ({ cpu_millis: 1000, memory_gbs: 4 }),
  },
  {
    name: "Update Service Password",
    method: "POST",
    path: `${svc}/updatePassword`,
    body: () => ({ password: "correct-horse-battery" }),
  },
  {
    name: "Set Environment for a Service",
    method: "POST",
    path: `${svc}/setEnvironment`,
    body: () => ({ environment: "PROD" }),
  },
  {
    name: "Change HA Configuration for a Service",
    method: "POST",
    path: `${svc}/setHA`,
    body: () => ({ replica_count: 1 }),
  },
  { name: "Enable Connection Pooler for a Service", method: "POST", path: `${svc}/enablePooler` },
  { name: "Disable Connection Pooler for a Service", method: "POST", path: `${svc}/disablePooler` },
  {
    name: "Fork a Service",
    method: "POST",
    path: `${svc}/forkService`,
    body: () => ({ fork_strategy: "NOW" }),
  },
  {
    name: "Attach Service to VPC",
    method: "POST",
    path: `${svc}/attachToVPC`,
    body: (ids) => ({ vpc_id: ids.vpc_id }),
  },
  {
    name: "Detach Service from VPC",
    method: "POST",
    path: `${svc}/detachFromVPC`,
    body: (ids) => ({ vpc_id: ids.vpc_id }),
  },
  { name: "Get Read Replica Sets", method: "GET", path: `${svc}/replicaSets` },
  {
    name: "Create a Read Replica Set",
    method: "POST",
    path: `${svc}/replicaSets`,
    body: () => ({ name: "r", nodes: 1, cpu_millis: 250, memory_gbs: 1 }),
  },
  { name: "Delete a Read Replica Set", method: "DELETE", path: rrs },
  {
    name: "Resize a Read Replica Set",
    method: "POST",
    path: `${rrs}/resize`,
    body: () => ({ cpu_millis: 500, memory_gbs: 2 }),
  },
  { name: "Enable Connection Pooler for a Read Replica", method: "POST", path: `${rrs}/enablePooler` },
  { name: "Disable Connection Pooler for a Read Replica", method: "POST", path: `${rrs}/disablePooler` },
  {
    name: "Set Environment for a Read Replica",
    method: "POST",
    path: `${rrs}/setEnvironment`,
    body: () => ({ environment: "PROD" }),
  },
  { name: "List All VPCs", method: "GET", path: "/projects/{project_id}/vpcs" },
  {
    name: "Create a VPC",
    method: "POST",
    path: "/projects/{project_id}/vpcs",
    body: () => ({ name: "v", cidr: "10.0.0.0/16", region_code: "us-east-1" }),
  },
  { name: "Get a VPC", method: "GET", path: vpc },
  { name: "Delete a VPC", method: "DELETE", path: vpc },
  { name: "Rename a VPC", method: "POST", path: `${vpc}/rename`, body: () => ({ name: "renamed" }) },
  { name: "List VPC Peerings", method: "GET", path: `${vpc}/peerings` },
  {
    name: "Create a VPC Peering",
    method: "POST",
    path: `${vpc}/peerings`,
    body: () => ({ peer_account_id: "acct", peer_region_code: "us-east-1", peer_vpc_id: "vpc-peer" }),
  },
  { name: "Get a VPC Peering", method: "GET", path: `${vpc}/peerings/{peering_id}` },
  { name: "Delete a VPC Peering", method: "DELETE", path: `${vpc}/peerings/{peering_id}` },
];

/** The path of an operation with its placeholders filled from `ids`. */
export function fillPath(path: string, ids: Ids): string {
  return path.replace(/\{(\w+)\}/g, (_, name: keyof Ids) => encodeURIComponent(ids[name]));
}

/** The placeholders of a path other than `{project_id}`: the ids a 404 can be about. */
export function resourceIdsOf(path: string): (keyof Ids)[] {
  return [...path.matchAll(/\{(\w+)\}/g)]
    .map((m) => m[1] as keyof Ids)
    .filter((name) => name !== "project_id");
}
