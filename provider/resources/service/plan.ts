/**
 * How a `Service` changes in place: the pure plan from the observed service to the desired
 * inputs (one API action per changed input, in a fixed order), and the run of that plan,
 * waiting after each asynchronous action.
 */
import type { Service as ServiceRecord } from "../../client/schemas";
import type { OpContext } from "../../kit/spec";
import { PollVerdict, judgeUntil, sendAndSettle, waitUntil } from "../../kit/wait";
import { progress } from "../../runtime";
import type { ServiceInputs, ServiceOutputs } from "./args";
import type { ServiceMemory } from "./outputs";

/** A settled status to wait for. */
export type ServiceTarget = "READY" | "PAUSED";

/** Verdict on a service awaited to reach `target`: on its way out is a failure. */
function judgeService(target: ServiceTarget) {
  return (record: ServiceRecord): PollVerdict => {
    if (record.status === target) return { done: true };
    if (record.status === "DELETING" || record.status === "DELETED")
      return { failed: `the service is ${record.status}` };
    return { done: false, state: record.status };
  };
}

/** Waits until the service is `target` (and `changed` holds). */
export function waitForService(
  ctx: OpContext<"serviceId">,
  target: ServiceTarget,
  changed?: (record: ServiceRecord) => boolean,
): Promise<ServiceRecord> {
  const { api, ref } = ctx;
  return waitUntil(
    () => api.getService(ref.projectId, ref.serviceId),
    judgeUntil(judgeService(target), changed),
    `service ${ref.serviceId} to be ${target}`,
    ctx.deadline,
  );
}

/** One API action of an update, in execution order. */
export type ServiceStep =
  | { action: "start" }
  | { action: "detachFromVPC"; vpcId: string }
  | { action: "resize"; cpuMillis: number; memoryGbs: number }
  | { action: "setHA"; replicaCount: number; syncReplicaCount: number }
  | { action: "attachToVPC"; vpcId: string }
  | { action: "enablePooler" }
  | { action: "disablePooler" }
  | { action: "setEnvironment"; environment: "PROD" | "DEV" }
  | { action: "updatePassword" }
  | { action: "stop" };

/**
 * The API actions that bring the observed service `have` to the desired `want`, in this
 * fixed order: start (the other actions need a running service), detach the old VPC,
 * resize, setHA, attach the new VPC, pooler, environment, password, stop. Each is planned
 * only if the observed state differs, so re-running after a failure half-way finishes the job.
 */
export function planServiceUpdate(have: ServiceOutputs, want: ServiceInputs): ServiceStep[] {
  const steps: ServiceStep[] = [];
  const detach = have.vpcId !== undefined && have.vpcId !== want.vpcId;
  const attach = want.vpcId !== undefined && want.vpcId !== have.vpcId;
  const resize = have.cpuMillis !== want.cpuMillis || have.memoryGbs !== want.memoryGbs;
  const setHA = have.replicaCount !== want.replicaCount || have.syncReplicaCount !== want.syncReplicaCount;
  const needsRunning = detach || attach || resize || setHA;
  if (have.paused && (needsRunning || !want.paused)) steps.push({ action: "start" });
  if (detach) steps.push({ action: "detachFromVPC", vpcId: have.vpcId as string });
  if (resize) steps.push({ action: "resize", cpuMillis: want.cpuMillis, memoryGbs: want.memoryGbs });
  if (setHA)
    steps.push({ action: "setHA", replicaCount: want.replicaCount, syncReplicaCount: want.syncReplicaCount });
  if (attach) steps.push({ action: "attachToVPC", vpcId: want.vpcId as string });
  if (want.connectionPooler !== have.connectionPooler)
    steps.push({ action: want.connectionPooler ? "enablePooler" : "disablePooler" });
  if (want.environment !== have.environment)
    steps.push({ action: "setEnvironment", environment: want.environment });
  if (want.password !== undefined && want.password !== have.password)
    steps.push({ action: "updatePassword" });
  if (want.paused && (!have.paused || needsRunning)) steps.push({ action: "stop" });
  return steps;
}

/** Carries out `steps` on a service, waiting after each asynchronous one; records a new password in `memory`. */
export async function runServiceSteps(
  ctx: OpContext<"serviceId">,
  steps: ServiceStep[],
  want: ServiceInputs,
  memory: ServiceMemory,
): Promise<void> {
  const { api } = ctx;
  const { projectId, serviceId } = ctx.ref;
  const act = (send: () => Promise<unknown>, changed: (r: ServiceRecord) => boolean) =>
    sendAndSettle(`service ${serviceId}`, send, (until) => waitForService(ctx, "READY", until), changed);
  for (const step of steps) {
    progress(`service ${serviceId}: ${step.action}`);
    switch (step.action) {
      case "start":
        await api.startService(projectId, serviceId);
        await waitForService(ctx, "READY");
        break;
      case "stop":
        await api.stopService(projectId, serviceId);
        await waitForService(ctx, "PAUSED");
        break;
      case "detachFromVPC":
        await act(
          () => api.detachFromVpc(projectId, serviceId, step.vpcId),
          (r) => !r.vpcEndpoint,
        );
        break;
      case "attachToVPC":
        await act(
          () => api.attachToVpc(projectId, serviceId, step.vpcId),
          (r) => r.vpcEndpoint?.vpc_id === step.vpcId,
        );
        break;
      case "resize":
        await act(
          () => api.resizeService(projectId, serviceId, step.cpuMillis, step.memoryGbs),
          (r) =>
            r.resources?.[0]?.spec.cpu_millis === step.cpuMillis &&
            r.resources?.[0]?.spec.memory_gbs === step.memoryGbs,
        );
        break;
      case "setHA":
        await act(
          () =>
            api.setHA(projectId, serviceId, {
              replicaCount: step.replicaCount,
              syncReplicaCount: step.syncReplicaCount,
            }),
          (r) =>
            (r.ha_replicas?.replica_count ?? 0) === step.replicaCount &&
            (r.ha_replicas?.sync_replica_count ?? 0) === step.syncReplicaCount,
        );
        break;
      case "enablePooler":
        await api.enablePooler(projectId, serviceId);
        break;
      case "disablePooler":
        await api.disablePooler(projectId, serviceId);
        break;
      case "setEnvironment":
        await api.setServiceEnvironment(projectId, serviceId, step.environment);
        break;
      case "updatePassword":
        await api.updatePassword(projectId, serviceId, want.password as string);
        memory.password = want.password;
        break;
    }
  }
}
