/**
 * The provider functions of `ReadReplicaSet`: its own API calls and records, run by the kit.
 * A set is created once on a READY service, waited for until active, then given what the
 * create call cannot carry (pooler, environment) by its update plan.
 */
import type { ReadReplicaSet as ReplicaSetRecord } from "../../client/schemas";
import { DEFAULT_DATABASE_NAME, DEFAULT_USERNAME, postgresUri, targetAt } from "../../kit/connection";
import { endpointOf } from "../../kit/outputs";
import { keptSettings } from "../../kit/settings";
import { resourceProvider } from "../../kit/lifecycle";
import type { OpContext, ResourceOps } from "../../kit/spec";
import { PollVerdict, waitUntil } from "../../kit/wait";
import { progress } from "../../runtime";
import type { ReadReplicaSetInputs, ReadReplicaSetOutputs } from "./args";
import { REPLICA_SET_CALLS } from "./calls";
import {
  ReplicaSetStep,
  findReplicaSet,
  planReplicaSetUpdate,
  runReplicaSetSteps,
  waitForActive,
} from "./plan";
import { READ_REPLICA_SET_SPEC } from "./spec";

/** The outputs a replica set record shows; the record does not name its service nor project. */
export function replicaSetOutputs(
  record: ReplicaSetRecord,
  serviceId: string,
  projectId: string,
): ReadReplicaSetOutputs {
  const env = record.metadata?.environment;
  return {
    replicaSetId: record.id,
    serviceId,
    projectId,
    name: record.name,
    status: record.status,
    nodes: record.nodes,
    cpuMillis: record.cpu_millis,
    memoryGbs: record.memory_gbs,
    environment: env === "PROD" ? "PROD" : "DEV",
    connectionPooler: !!record.connection_pooler,
    endpoint: endpointOf(record.endpoint),
    poolerEndpoint: endpointOf(record.connection_pooler?.endpoint),
  };
}

/** Waits until the service is READY: a set can only be created on a running, settled service. */
function waitForServiceReady({ api, ref, deadline }: OpContext<"serviceId" | "replicaSetId">) {
  return waitUntil(
    () => api.getService(ref.projectId, ref.serviceId),
    (service): PollVerdict => {
      if (service.status === "READY") return { done: true };
      if (service.status === "PAUSED" || service.status === "PAUSING")
        return {
          failed: `service ${ref.serviceId} is ${service.status}; a read replica set needs a running service (set paused: false)`,
        };
      if (service.status === "DELETING" || service.status === "DELETED")
        return { failed: `service ${ref.serviceId} is ${service.status}` };
      return { done: false, state: service.status };
    },
    `service ${ref.serviceId} to be READY before creating a read replica set`,
    deadline,
  );
}

type Ops = ResourceOps<
  ReadReplicaSetInputs,
  ReadReplicaSetOutputs,
  ReplicaSetRecord,
  "serviceId" | "replicaSetId",
  ReplicaSetStep
>;

/** Inputs of a set that only the stack keeps: the credentials its `connectionUri` names. */
const REPLICA_SET_SETTINGS = ["password", "username", "databaseName"] as const;

/** The set's outputs with the credentials kept and the URI they make with its endpoint. */
function withConnection(
  outs: ReadReplicaSetOutputs,
  kept: Partial<ReadReplicaSetOutputs>,
): ReadReplicaSetOutputs {
  const credentials = {
    username: kept.username ?? DEFAULT_USERNAME,
    databaseName: kept.databaseName ?? DEFAULT_DATABASE_NAME,
    password: kept.password,
  };
  const target = targetAt(outs.endpoint, credentials);
  return {
    ...outs,
    ...credentials,
    connectionUri: target && postgresUri(target),
  };
}

const READ_REPLICA_SET_OPS: Ops = {
  find: findReplicaSet,
  recordId: (record) => record.id,
  outputs: (record, ref, memory) =>
    withConnection(replicaSetOutputs(record, ref.serviceId, ref.projectId), memory),
  remember: ({ olds, want }) => keptSettings(REPLICA_SET_SETTINGS, { olds, want }),
  settle: (ctx, record) => (record.status === "active" ? Promise.resolve(record) : waitForActive(ctx)),
  plan: planReplicaSetUpdate,
  run: (ctx, steps) => runReplicaSetSteps(ctx, steps),
  create: {
    what: (want) => `read replica set ${want.name}`,
    list: ({ api, ref }) => api.listReplicaSets(ref.projectId, ref.serviceId),
    // Same name on the service, and not on its way out.
    same: (record, want) => record.name === want.name && record.status !== "deleting",
    identity: "service and name",
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
      progress(
        `service ${ctx.ref.serviceId} is ${service.status}; waiting until READY to create ${want.name}`,
      );
      await waitForServiceReady(ctx);
      return true;
    },
  },
  calls: REPLICA_SET_CALLS,
  remove: (api, ref) => api.deleteReplicaSet(ref.projectId, ref.serviceId, ref.replicaSetId),
};

/** The provider functions of `ReadReplicaSet`, as the dispatch map in `../../host.ts` holds them. */
export const READ_REPLICA_SET_PROVIDER = resourceProvider(READ_REPLICA_SET_SPEC, READ_REPLICA_SET_OPS);
