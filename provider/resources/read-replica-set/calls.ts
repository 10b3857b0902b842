/**
 * A `ReadReplicaSet`'s API calls in the words of the preview line. A resize takes the set
 * through `resizing` (docs/api.md#lifecycle): it restarts; the pooler and the environment
 * change at once.
 */
import type { PlannedCall } from "../../kit/preview";
import type { CallWords } from "../../kit/spec";
import type { ReadReplicaSetInputs, ReadReplicaSetOutputs } from "./args";
import type { ReplicaSetStep } from "./plan";

/** `2×1000m/4GB`: nodes, CPU and memory of each. */
function size(nodes: number, cpuMillis: number, memoryGbs: number): string {
  return `${nodes}×${cpuMillis}m/${memoryGbs}GB`;
}

/** The call a planned step makes, from the set's outputs `have`. */
export function replicaSetStepCall(step: ReplicaSetStep, have: ReadReplicaSetOutputs): PlannedCall {
  switch (step.action) {
    case "resize":
      return {
        op: "resizeReplicaSet",
        detail: `${size(have.nodes, have.cpuMillis, have.memoryGbs)} → ${size(step.nodes, step.cpuMillis, step.memoryGbs)}`,
        effect: "restart",
      };
    case "enablePooler":
      return { op: "enableReplicaSetPooler" };
    case "disablePooler":
      return { op: "disableReplicaSetPooler" };
    case "setEnvironment":
      return { op: "setReplicaSetEnvironment", detail: `${have.environment ?? "DEV"} → ${step.environment}` };
  }
}

/** How a read replica set's calls read in a preview. */
export const REPLICA_SET_CALLS: CallWords<ReadReplicaSetInputs, ReadReplicaSetOutputs, ReplicaSetStep> = {
  runs: true,
  step: replicaSetStepCall,
  create: (want) => ({
    op: "createReplicaSet",
    detail: `${want.name} ${size(want.nodes, want.cpuMillis, want.memoryGbs)}`,
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
