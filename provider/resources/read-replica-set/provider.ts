/**
 * The provider functions of `ReadReplicaSet`: its own API calls and records, run by the kit.
 * A set is created once on a READY service, waited for until active, then given what the
 * create call cannot carry (pooler, environment) by its update plan.
 */
import { SERVICE_LEAVING, SERVICE_ON_THE_WAY } from "../../client/readings";
import type { ReadReplicaSet as ReplicaSetRecord, Service as ServiceRecord } from "../../client/schemas";
import { DEFAULT_DATABASE_NAME, DEFAULT_USERNAME, postgresUri, targetAt } from "../../kit/fields/connection";
import type { CallWords, CheckContext, OpContext, Props, ResourceOps } from "../../kit/spec";
import { failing, judgeStatus, phaseOf } from "../../kit/lifecycle/statuses";
import { waitUntil } from "../../kit/lifecycle/wait";
import { existingService, lookupDue, notRunning } from "../../kit/lifecycle/lookups";
import { type ReadReplicaSetInputs, type ReadReplicaSetOutputs } from "./fields";
import { findReplicaSet, planReplicaSet, waitForActive } from "./plan";

/** What a set asks of its service, said wherever a stopped service is refused. */
const NEEDS_RUNNING = "a read replica set needs a running service (set paused: false on it)";

/**
 * Said after an import (a read with no state): a set's password is its service's, which the API
 * never returns, so its `connectionUri` stays null until the program gives one. (The classes'
 * `import` option passes on the password of a Service of the same program, as a create does; a
 * service of unknown password says so itself.)
 */
function passwordUnknownLine(name: string): string {
  return (
    `read replica set ${name}: its password (its service's) is unknown to this stack (the API never ` +
    "returns one), so its connectionUri is null; give the set its service's password as `password` " +
    "(the package's own classes pass on that of a Service of the same program)"
  );
}

/** Waits until the service is READY: a set can only be created on a running, settled service. */
function waitForServiceReady(ctx: OpContext<"serviceId" | "replicaSetId">) {
  const { api, ref } = ctx;
  const paused = (service: ServiceRecord) =>
    `service ${ref.serviceId} is ${service.status}; ${NEEDS_RUNNING}`;
  const gone = (service: ServiceRecord) => `service ${ref.serviceId} is ${service.status}`;
  return waitUntil(
    ctx,
    () => api.getService(ref.projectId, ref.serviceId),
    judgeStatus<ServiceRecord>({
      settled: "READY",
      inProgress: SERVICE_ON_THE_WAY.READY,
      failed: { PAUSED: paused, PAUSING: paused, ...failing(SERVICE_LEAVING, gone) },
    }),
    `service ${ref.serviceId} to be READY before creating a read replica set`,
  );
}

/**
 * Check-time lookup of the set's service, when `serviceId` is known and changed: it must exist,
 * and run once this run's update of it (if any) is done.
 */
async function verifyService(ctx: CheckContext, want: ReadReplicaSetInputs, olds: Props) {
  if (!lookupDue(want, olds, ["serviceId"])) return [];
  const service = await existingService(ctx, ctx.projectId, want.serviceId);
  if (typeof service === "string")
    return [{ property: "serviceId", reason: `${service}; give the id of an existing service` }];
  const stopped = notRunning(ctx, service);
  return stopped ? [{ property: "serviceId", reason: `${stopped}; ${NEEDS_RUNNING}` }] : [];
}

type Ops = ResourceOps<
  ReadReplicaSetInputs,
  ReadReplicaSetOutputs,
  ReplicaSetRecord,
  "serviceId" | "replicaSetId"
>;

/** The set's credentials (defaults filled in) and the URI they make with its endpoint. */
function withConnection(
  outs: ReadReplicaSetOutputs,
  kept: Partial<ReadReplicaSetOutputs>,
): Partial<ReadReplicaSetOutputs> {
  const credentials = {
    username: kept.username ?? DEFAULT_USERNAME,
    databaseName: kept.databaseName ?? DEFAULT_DATABASE_NAME,
    password: kept.password,
  };
  const target = targetAt(outs.endpoint, credentials);
  return { ...credentials, connectionUri: target && postgresUri(target) };
}

/** A `ReadReplicaSet`'s create and delete in the words of the preview line. */
const REPLICA_SET_CALLS: CallWords<ReadReplicaSetInputs, ReadReplicaSetOutputs> = {
  runs: true,
  create: (want) => ({
    op: "createReplicaSet",
    detail: `${want.name} ${want.nodes}×${want.cpuMillis}m/${want.memoryGbs}GB`,
  }),
  // The create carries name and sizes; a new set has no pooler and its service's environment.
  async created(want, lookups) {
    const { api, projectId } = await lookups();
    const service = await api.getService(projectId, want.serviceId);
    return {
      ...want,
      connectionPooler: false,
      environment: service.metadata?.environment === "PROD" ? "PROD" : "DEV",
    } as ReadReplicaSetOutputs;
  },
  remove: () => [{ op: "deleteReplicaSet" }],
};

/** Its own API calls and records. */
export const OPS: Ops = {
  find: findReplicaSet,
  recordId: (record) => record.id,
  derive: withConnection,
  phase: (record) => phaseOf(record.status, ["active", "error"], ["deleting"]),
  imported: (record) => passwordUnknownLine(record.name),
  settle: (ctx, record) => (record.status === "active" ? Promise.resolve(record) : waitForActive(ctx)),
  waitFor: (ctx, _target, until) => waitForActive(ctx, until),
  plan: planReplicaSet,
  verify: verifyService,
  create: {
    what: (want) => `read replica set ${want.name}`,
    list: ({ api, ref }) => api.listReplicaSets(ref.projectId, ref.serviceId),
    // Same name on the service, and not on its way out.
    same: (record, want) => record.name === want.name && record.status !== "deleting",
    identity: "service and name",
    key: { property: "name", of: (want) => [want.serviceId, want.name] },
    send: ({ api, ref }, want) =>
      api.createReplicaSet(ref.projectId, ref.serviceId, {
        name: want.name,
        nodes: want.nodes,
        cpuMillis: want.cpuMillis,
        memoryGbs: want.memoryGbs,
      }),
    refusal: (found, want) =>
      `a read replica set named "${want.name}" already exists on service ${want.serviceId} with id ${found.id}`,
    otherwise: "choose another name",
    prepare: async (ctx) => {
      await waitForServiceReady(ctx);
    },
    // A 409 because the service left READY in the meantime (another change of it) is a
    // definite refusal: wait until READY, then send again.
    async retryRefused(error, ctx, want) {
      if (!error.isConflict) return false;
      const service = await ctx.api.getService(ctx.ref.projectId, ctx.ref.serviceId);
      if (service.status === "READY") return false;
      ctx.log(
        `service ${ctx.ref.serviceId} is ${service.status}; waiting until READY to create ${want.name}`,
      );
      await waitForServiceReady(ctx);
      return true;
    },
  },
  calls: REPLICA_SET_CALLS,
  remove: "deleteReplicaSet",
};
