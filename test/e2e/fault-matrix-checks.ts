/**
 * What the fault matrix reads to judge a cell: the stack's state from the file backend's
 * checkpoint, and the end state against the program (records, recorded inputs, no data lost, one
 * final fork per retired service); and the lines of a command's output a failed cell quotes.
 */
import * as fs from "fs";
import * as path from "path";
import { type Inventory, matchesHash } from "./fault-matrix-emulator";
import type { Spec } from "./fault-matrix-life";
import { isMdbType, type StateResource } from "./recovery-harness";
import type { LoggedCall, Workspace } from "./workspace";

/**
 * The mdb resources of the stack's state (either face's types) and its pending operations, read
 * from the `file://` backend's checkpoint (what `pulumi stack export` prints, without starting
 * the CLI: the matrix looks at the state several times per cell). Inputs included, secrets still
 * encrypted.
 */
export function stackState(ws: Workspace): {
  resources: Array<StateResource & { inputs: Record<string, unknown> }>;
  pending: string[];
} {
  const file = path.join(ws.dir, ".state", ".pulumi", "stacks", "mdb-fault-matrix", "matrix.json");
  const latest = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoint: { latest?: Deployment } }).checkpoint.latest
    : undefined;
  const nameOf = (urn: string) => urn.split("::").pop() as string;
  return {
    resources: (latest?.resources ?? [])
      .filter((r) => isMdbType(r.type))
      .map((r) => ({
        type: r.type.split(":").pop() as string,
        name: nameOf(r.urn),
        id: r.id ?? "",
        inputs: r.inputs ?? {},
      })),
    pending: (latest?.pending_operations ?? []).map((p) => `${p.type} ${nameOf(p.resource.urn)}`),
  };
}

/** The part of a checkpoint's deployment the matrix reads. */
interface Deployment {
  resources?: Array<{ type: string; urn: string; id?: string; inputs?: Record<string, unknown> }>;
  pending_operations?: Array<{ type: string; resource: { urn: string } }>;
}

/** What a cell ended with, and what the walk knows that must hold. */
export interface EndState {
  /** The program. */
  spec: Spec;
  /** The stack's state (stackState). */
  state: ReturnType<typeof stackState>;
  /** What the API holds. */
  api: Inventory;
  /** Services that must still exist, by id, with their creation time. */
  alive: ReadonlyMap<string, string>;
  /** Services deleted on purpose: each leaves exactly one final fork. */
  retired: ReadonlySet<string>;
  /** Every request the cell's commands sent. */
  log: LoggedCall[];
  /** The emulator's password hash of a service (`salt:hex`). */
  passwordHash: (serviceId: string) => string | undefined;
}

/** What is wrong with the end state, compared with the program: nothing when it converged. */
export function endStateProblems(end: EndState): string[] {
  const { spec, state, api, log } = end;
  const problems: string[] = [];
  if (state.pending.length) problems.push(`pending operations left: ${state.pending.join(", ")}`);
  const byName = (name: string) => state.resources.filter((r) => r.name === name);
  const one = (type: string, name: string): StateResource | undefined => {
    const found = byName(name).filter((r) => r.type === type);
    if (found.length !== 1) problems.push(`the state holds ${found.length} ${type} ${name}`);
    return found[0];
  };
  const expectedCount: Record<string, number> = {
    Vpc: Object.keys(spec.vpcs).length,
    Service: spec.service ? 1 : 0,
    ReadReplicaSet: spec.reads ? 1 : 0,
    VpcPeering: spec.peering ? 1 : 0,
  };
  for (const [type, count] of Object.entries(expectedCount)) {
    const n = state.resources.filter((r) => r.type === type).length;
    if (n !== count) problems.push(`the state holds ${n} ${type}, the program ${count}`);
  }
  // Nothing duplicated: the API holds exactly the state's records (final forks aside).
  const forks = api.services.filter((s) => s.forked_from?.service_id);
  const own = api.services.filter((s) => !s.forked_from?.service_id);
  const ids = (type: string) =>
    state.resources
      .filter((r) => r.type === type)
      .map((r) => r.id)
      .sort();
  const same = (type: string, apiIds: string[]) => {
    if (JSON.stringify([...apiIds].sort()) !== JSON.stringify(ids(type)))
      problems.push(
        `${type}: the API holds [${apiIds.sort().join(", ")}], the state [${ids(type).join(", ")}]`,
      );
  };
  same(
    "Vpc",
    api.vpcs.map((v) => v.id),
  );
  same(
    "Service",
    own.map((s) => s.service_id),
  );
  same(
    "ReadReplicaSet",
    own.flatMap((s) => (s.read_replica_sets ?? []).map((r) => `${s.service_id}/${r.id}`)),
  );
  same(
    "VpcPeering",
    api.peerings.map((p) => `${p.vpcId}/${p.id}`),
  );

  const vpcIdOf = (key: string) => byName(key).find((r) => r.type === "Vpc")?.id;
  for (const [key, want] of Object.entries(spec.vpcs)) {
    const r = one("Vpc", key);
    const record = api.vpcs.find((v) => v.id === r?.id);
    if (r && (!record || record.name !== want.name || record.cidr !== want.cidr))
      problems.push(`Vpc ${key}: API ${JSON.stringify(record)}, program ${JSON.stringify(want)}`);
  }
  const serviceId = spec.service ? one("Service", "db")?.id : undefined;
  if (spec.service && serviceId) {
    const want = spec.service;
    const s = api.services.find((x) => x.service_id === serviceId);
    const have = s && {
      name: s.name,
      serviceType: s.service_type === "TIMESCALEDB" ? "TIMESERIESDB" : s.service_type,
      cpuMillis: s.resources?.[0]?.spec.cpu_millis,
      memoryGbs: s.resources?.[0]?.spec.memory_gbs,
      replicaCount: s.ha_replicas?.replica_count ?? 0,
      pooler: !!s.connection_pooler,
      environment: s.metadata?.environment ?? "DEV",
      paused: s.status === "PAUSED",
      vpc: s.vpcEndpoint?.vpc_id,
    };
    const expected = {
      name: want.name,
      serviceType: want.serviceType,
      cpuMillis: want.cpuMillis,
      memoryGbs: want.memoryGbs,
      replicaCount: want.replicaCount,
      pooler: want.pooler,
      environment: want.environment,
      paused: want.paused,
      vpc: want.vpc ? vpcIdOf(want.vpc) : undefined,
    };
    if (JSON.stringify(have) !== JSON.stringify(expected))
      problems.push(`Service db: API ${JSON.stringify(have)}, program ${JSON.stringify(expected)}`);
    if (s && !["READY", "PAUSED"].includes(s.status)) problems.push(`Service db is ${s.status}`);
    if (want.password && !matchesHash(end.passwordHash(serviceId), want.password))
      problems.push("Service db: its password is not the program's");
    if (spec.reads) {
      const r = one("ReadReplicaSet", "reads");
      const set = s?.read_replica_sets?.find((x) => `${serviceId}/${x.id}` === r?.id);
      const w = spec.reads;
      const haveSet = set && {
        nodes: set.nodes,
        cpuMillis: set.cpu_millis,
        memoryGbs: set.memory_gbs,
        pooler: !!set.connection_pooler,
        environment: set.metadata?.environment ?? "DEV",
        status: set.status,
        ...(w.name ? { name: set.name } : {}),
      };
      const wantSet = {
        nodes: w.nodes,
        cpuMillis: w.cpuMillis,
        memoryGbs: w.memoryGbs,
        pooler: w.pooler,
        environment: w.environment,
        status: "active",
        ...(w.name ? { name: w.name } : {}),
      };
      if (JSON.stringify(haveSet) !== JSON.stringify(wantSet))
        problems.push(
          `ReadReplicaSet reads: API ${JSON.stringify(haveSet)}, program ${JSON.stringify(wantSet)}`,
        );
    }
  }
  if (spec.peering) {
    const r = one("VpcPeering", "peer");
    const p = api.peerings.find((x) => `${x.vpcId}/${x.id}` === r?.id);
    if (r && (!p || p.peer_vpc_id !== spec.peering.peerVpcId || p.vpcId !== vpcIdOf(spec.peering.vpc)))
      problems.push(`VpcPeering peer: API ${JSON.stringify(p)}, program ${JSON.stringify(spec.peering)}`);
  }
  // The state records the program's inputs (so the next preview plans only what is left).
  const recorded = (type: string, name: string, want: Record<string, unknown>) => {
    const r = state.resources.find((x) => x.type === type && x.name === name);
    if (!r) return;
    const have = Object.fromEntries(Object.keys(want).map((k) => [k, r.inputs[k]]));
    if (JSON.stringify(have) !== JSON.stringify(want))
      problems.push(
        `${type} ${name}: the state records inputs ${JSON.stringify(have)}, the program ${JSON.stringify(want)}`,
      );
  };
  for (const [key, want] of Object.entries(spec.vpcs))
    recorded("Vpc", key, { name: want.name, cidr: want.cidr });
  if (spec.service) {
    const w = spec.service;
    recorded("Service", "db", {
      name: w.name,
      serviceType: w.serviceType,
      cpuMillis: w.cpuMillis,
      memoryGbs: w.memoryGbs,
      replicaCount: w.replicaCount,
      connectionPooler: w.pooler,
      environment: w.environment,
      paused: w.paused,
      vpcId: w.vpc ? vpcIdOf(w.vpc) : undefined,
    });
  }
  if (spec.reads) {
    const w = spec.reads;
    recorded("ReadReplicaSet", "reads", {
      ...(w.name ? { name: w.name } : {}),
      nodes: w.nodes,
      cpuMillis: w.cpuMillis,
      memoryGbs: w.memoryGbs,
      connectionPooler: w.pooler,
      environment: w.environment,
    });
  }
  if (spec.peering)
    recorded("VpcPeering", "peer", { peerVpcId: spec.peering.peerVpcId, vpcId: vpcIdOf(spec.peering.vpc) });
  // Every service that existed still exists, the same record, never sent a delete.
  for (const [id, created] of end.alive) {
    const s = api.services.find((x) => x.service_id === id);
    if (!s) problems.push(`DATA LOST: service ${id} no longer exists`);
    else if (s.created !== created)
      problems.push(`service ${id} is another record (created ${s.created}, was ${created})`);
    if (log.some((r) => r.method === "DELETE" && r.path.endsWith(`/services/${id}`)))
      problems.push(`DATA LOST: a delete of service ${id} was sent`);
  }
  // Each retired service left one final fork; no other fork exists.
  for (const id of end.retired) {
    const n = forks.filter((f) => f.forked_from?.service_id === id).length;
    if (n !== 1) problems.push(`service ${id} (retired) has ${n} final forks`);
  }
  const strays = forks.filter((f) => !end.retired.has(f.forked_from?.service_id as string));
  if (strays.length) problems.push(`forks of services still in use: ${strays.map((f) => f.name).join(", ")}`);
  return problems;
}

/** The error lines of a command's output, for a cell's problems. */
export function errorLines(output: string): string[] {
  return output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /error:|^\* |failed|\[mdb\].*(adopt|refus|not delet)/i.test(line))
    .slice(0, 12);
}

/** The lines of a preview that say what it would do. */
export function planLines(output: string): string[] {
  return output
    .split("\n")
    .map((l) => l.trim())
    .filter(
      (l) => /^[+\-~]+\s|^\+-|^-\+|^~|replace|create|delete|error:|\[mdb\]/.test(l) && !/^Resources:/.test(l),
    )
    .slice(0, 10);
}
