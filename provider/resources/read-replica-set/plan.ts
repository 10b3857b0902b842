/**
 * How a `ReadReplicaSet` settles and changes in place. The API has no GET of one set: every
 * look goes through its service's list. The plan from the observed set to the desired inputs
 * is pure: steps named by the operations they call, which the kit makes (`kit/steps.ts`).
 */
import type { MdbApi } from "../../client/api";
import type { ReadReplicaSet as ReplicaSetRecord } from "../../client/schemas";
import { unlessGone } from "../../kit/lifecycle/delete";
import type { ResourceRef } from "../../kit/fields/ids";
import type { OpContext } from "../../kit/spec";
import type { Step } from "../../kit/lifecycle/steps";
import { apiReason, judgeStatus } from "../../kit/lifecycle/statuses";
import { PollVerdict, judgeUntil, waitUntil } from "../../kit/lifecycle/wait";
import type { ReadReplicaSetInputs, ReadReplicaSetOutputs } from "./fields";

/** Where a set lives. */
export type ReplicaSetRef = ResourceRef<"serviceId" | "replicaSetId">;

/** The set as the service's list shows it; undefined when the set or its service is gone. */
export async function findReplicaSet(api: MdbApi, ref: ReplicaSetRef): Promise<ReplicaSetRecord | undefined> {
  const sets = await unlessGone(api.listReplicaSets(ref.projectId, ref.serviceId));
  return sets?.find((r) => r.id === ref.replicaSetId);
}

/**
 * Verdict on a set awaited to be active: creating and resizing are progress, `error` a failed
 * terminal state (quoting the API's reason), deleting a failure, any other status unexpected.
 */
export const judgeReplicaSet: (record: ReplicaSetRecord) => PollVerdict = judgeStatus<ReplicaSetRecord>({
  settled: "active",
  inProgress: ["creating", "resizing"],
  failed: {
    error: (record) =>
      `the API reports read replica set ${record.id} in state \`error\` (${apiReason(record)}). ` +
      "Run `pulumi up` again to replace it, or delete it",
    deleting: (record) => `read replica set ${record.id} is being deleted`,
  },
});

/** Waits until the set is active (and `changed` holds), failing on `error` or when it is gone. */
export function waitForActive(
  ctx: OpContext<"serviceId" | "replicaSetId">,
  changed?: (record: ReplicaSetRecord) => boolean,
): Promise<ReplicaSetRecord> {
  const { api, ref } = ctx;
  return waitUntil(
    ctx,
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
  );
}

/** `2×1000m/4GB`: nodes, CPU and memory of each. */
function size(nodes: number, cpuMillis: number, memoryGbs: number): string {
  return `${nodes}×${cpuMillis}m/${memoryGbs}GB`;
}

/**
 * The calls that bring the observed set `have` to the desired `want`, in this fixed order:
 * resizeReplicaSet (CPU and memory always, both, as the API requires, and nodes when they
 * change, in one call; it takes the set through `resizing`, and the set must be active again
 * before the pooler can change), the pooler, the environment.
 * Each is planned only if the observed state differs, so re-running after a failure half-way
 * finishes the job.
 */
export function planReplicaSet(
  have: ReadReplicaSetOutputs,
  want: ReadReplicaSetInputs,
): Step<ReplicaSetRecord>[] {
  const steps: Step<ReplicaSetRecord>[] = [];
  const { nodes, cpuMillis, memoryGbs } = want;
  if (have.nodes !== nodes || have.cpuMillis !== cpuMillis || have.memoryGbs !== memoryGbs)
    steps.push({
      op: "resizeReplicaSet",
      // The current API's resize takes only the sizes: nodes go along only when they change.
      body: { cpuMillis, memoryGbs, ...(have.nodes !== nodes ? { nodes } : {}) },
      detail: `${size(have.nodes, have.cpuMillis, have.memoryGbs)} → ${size(nodes, cpuMillis, memoryGbs)}`,
      effect: "restart",
      settle: { until: (r) => r.nodes === nodes && r.cpu_millis === cpuMillis && r.memory_gbs === memoryGbs },
    });
  if (have.connectionPooler !== want.connectionPooler)
    steps.push({ op: want.connectionPooler ? "enableReplicaSetPooler" : "disableReplicaSetPooler" });
  if (have.environment !== want.environment)
    steps.push({
      op: "setReplicaSetEnvironment",
      body: { environment: want.environment },
      detail: `${have.environment ?? "DEV"} → ${want.environment}`,
    });
  return steps;
}
