/**
 * How a `ReadReplicaSet` settles and changes in place. The API has no GET of one set: every
 * look goes through its service's list. The plan from the observed set to the desired inputs
 * is pure; its run waits after the asynchronous resize.
 */
import type { MdbApi } from "../../client/api";
import type { ReadReplicaSet as ReplicaSetRecord } from "../../client/schemas";
import { unlessGone } from "../../kit/delete";
import type { ResourceRef } from "../../kit/ids";
import type { OpContext } from "../../kit/spec";
import { PollVerdict, judgeUntil, sendAndSettle, waitUntil } from "../../kit/wait";
import { progress } from "../../runtime";
import type { ReadReplicaSetInputs, ReadReplicaSetOutputs } from "./args";

/** Where a set lives. */
export type ReplicaSetRef = ResourceRef<"serviceId" | "replicaSetId">;

/** The set as the service's list shows it; undefined when the set or its service is gone. */
export async function findReplicaSet(api: MdbApi, ref: ReplicaSetRef): Promise<ReplicaSetRecord | undefined> {
  const sets = await unlessGone(api.listReplicaSets(ref.projectId, ref.serviceId));
  return sets?.find((r) => r.id === ref.replicaSetId);
}

/** Verdict on a set awaited to be active: `error` is a failed terminal state. */
export function judgeReplicaSet(record: ReplicaSetRecord): PollVerdict {
  if (record.status === "active") return { done: true };
  if (record.status === "error") {
    // The spec's record has no message field; quote one if the API sends it anyway.
    const said =
      typeof record.error_message === "string" && record.error_message ? `: ${record.error_message}` : "";
    return {
      failed:
        `the API reports read replica set ${record.id} in state \`error\`${said}. ` +
        "Run `pulumi up` again to replace it, or delete it",
    };
  }
  if (record.status === "deleting") return { failed: `read replica set ${record.id} is being deleted` };
  return { done: false, state: record.status };
}

/** Waits until the set is active (and `changed` holds), failing on `error` or when it is gone. */
export function waitForActive(
  { api, ref, deadline }: OpContext<"serviceId" | "replicaSetId">,
  changed?: (record: ReplicaSetRecord) => boolean,
): Promise<ReplicaSetRecord> {
  return waitUntil(
    async () => {
      const record = await findReplicaSet(api, ref);
      if (!record)
        throw new Error(
          `read replica set ${ref.replicaSetId} of service ${ref.serviceId} no longer exists; run \`pulumi refresh\``,
        );
      return record;
    },
    judgeUntil(judgeReplicaSet, changed),
    `read replica set ${ref.replicaSetId} to be active`,
    deadline,
  );
}

/** One API action of an update, in execution order. */
export type ReplicaSetStep =
  | { action: "resize"; nodes: number; cpuMillis: number; memoryGbs: number }
  | { action: "enablePooler" }
  | { action: "disablePooler" }
  | { action: "setEnvironment"; environment: "PROD" | "DEV" };

/**
 * The API actions that bring the observed set `have` to the desired `want`, in this fixed
 * order: resize (nodes, CPU and memory in one call; the set must be active again before the
 * pooler can change), pooler, environment. Each is planned only if the observed state
 * differs, so re-running after a failure half-way finishes the job.
 */
export function planReplicaSetUpdate(
  have: ReadReplicaSetOutputs,
  want: ReadReplicaSetInputs,
): ReplicaSetStep[] {
  const steps: ReplicaSetStep[] = [];
  if (have.nodes !== want.nodes || have.cpuMillis !== want.cpuMillis || have.memoryGbs !== want.memoryGbs)
    steps.push({ action: "resize", nodes: want.nodes, cpuMillis: want.cpuMillis, memoryGbs: want.memoryGbs });
  if (have.connectionPooler !== want.connectionPooler)
    steps.push({ action: want.connectionPooler ? "enablePooler" : "disablePooler" });
  if (have.environment !== want.environment)
    steps.push({ action: "setEnvironment", environment: want.environment });
  return steps;
}

/** Carries out `steps` on a set, waiting after the asynchronous resize until the sizes show. */
export async function runReplicaSetSteps(
  ctx: OpContext<"serviceId" | "replicaSetId">,
  steps: ReplicaSetStep[],
): Promise<void> {
  const { api } = ctx;
  const { projectId, serviceId, replicaSetId } = ctx.ref;
  for (const step of steps) {
    progress(`read replica set ${replicaSetId}: ${step.action}`);
    switch (step.action) {
      case "resize": {
        const sizes = { nodes: step.nodes, cpuMillis: step.cpuMillis, memoryGbs: step.memoryGbs };
        await sendAndSettle<ReplicaSetRecord>(
          `read replica set ${replicaSetId}`,
          () => api.resizeReplicaSet(projectId, serviceId, replicaSetId, sizes),
          (until) => waitForActive(ctx, until),
          (r) => r.nodes === step.nodes && r.cpu_millis === step.cpuMillis && r.memory_gbs === step.memoryGbs,
        );
        break;
      }
      case "enablePooler":
        await api.enableReplicaSetPooler(projectId, serviceId, replicaSetId);
        break;
      case "disablePooler":
        await api.disableReplicaSetPooler(projectId, serviceId, replicaSetId);
        break;
      case "setEnvironment":
        await api.setReplicaSetEnvironment(projectId, serviceId, replicaSetId, step.environment);
        break;
    }
  }
}
