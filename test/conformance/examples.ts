/**
 * A valid request body for each operation of api/operations.ts that takes one, keyed by operation
 * id, for the table-driven suites, valid in both dialects (sizes as strings where the current
 * document types them strings, integers where it types them integers). Path parameters fill the
 * bodies that name another record.
 */
import type { OperationId, PathParam, RequestOf } from "../../api/operations";

/** One value per path parameter: the records a call is about. */
export type Ids = Record<PathParam, string>;

/** A valid body of each operation that takes one. */
export const EXAMPLE_BODIES: { readonly [Id in OperationId]?: (ids: Ids) => RequestOf<Id> } = {
  identify: () => ({ properties: { a: 1 } }),
  track: () => ({ event: "e" }),
  createService: () => ({ name: "n" }),
  resizeService: () => ({ cpu_millis: "1000", memory_gbs: "4" }),
  updatePassword: () => ({ password: "correct-horse-battery" }),
  setServiceEnvironment: () => ({ environment: "PROD" }),
  setHA: () => ({ replica_count: 1 }),
  forkService: () => ({ fork_strategy: "NOW" }),
  attachToVpc: (ids) => ({ vpc_id: ids.vpc_id }),
  detachFromVpc: (ids) => ({ vpc_id: ids.vpc_id }),
  createReplicaSet: () => ({ name: "r", nodes: 1, cpu_millis: 250, memory_gbs: 1 }),
  resizeReplicaSet: () => ({ cpu_millis: "500", memory_gbs: "2" }),
  setReplicaSetEnvironment: () => ({ environment: "PROD" }),
  createVpc: () => ({ name: "v", cidr: "10.0.0.0/16", region_code: "us-east-1" }),
  renameVpc: () => ({ name: "renamed" }),
  createPeering: () => ({ peer_account_id: "acct", peer_region_code: "us-east-1", peer_vpc_id: "vpc-peer" }),
  renameService: () => ({ name: "renamed-db" }),
  getServiceMetricSeries: () => ({
    name: "timescale_cloud_system_cpu_usage_millicores",
    from: new Date(Date.now() - 3600_000).toISOString(),
    to: new Date().toISOString(),
  }),
  logout: () => ({}),
};

/** The body of an example call of `id` about the records `ids`; undefined when it takes none. */
export function exampleBody(id: OperationId, ids: Ids): unknown {
  return (EXAMPLE_BODIES[id] as ((ids: Ids) => unknown) | undefined)?.(ids);
}
