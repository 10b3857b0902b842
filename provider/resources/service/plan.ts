/**
 * How a `Service` settles and changes in place: the pure plan from the observed service to the
 * desired inputs, as steps named by the operations they call (the kit makes them and waits
 * after each asynchronous one, `kit/steps.ts`).
 */
import { isUnknownRoute } from "../../client/errors";
import { SERVICE_LEAVING, SERVICE_ON_THE_WAY, vpcIdOf } from "../../client/readings";
import { SHARED } from "../../client/constants";
import type { Service as ServiceRecord } from "../../client/schemas";
import type { OpContext } from "../../kit/spec";
import type { Step } from "../../kit/lifecycle/steps";
import { failing, judgeStatus } from "../../kit/lifecycle/statuses";
import { PollVerdict, judgeUntil, waitUntil } from "../../kit/lifecycle/wait";
import type { ServiceInputs, ServiceOutputs } from "./fields";

/** A settled status to wait for. */
export type ServiceTarget = "READY" | "PAUSED";

/**
 * Verdict on a service awaited to reach `target`: the statuses on its way there are progress, on
 * its way out a failure, any other (UNSTABLE, a word the client does not know) unexpected.
 */
export function judgeService(target: ServiceTarget): (record: ServiceRecord) => PollVerdict {
  const gone = (record: ServiceRecord) => `the service is ${record.status}`;
  return judgeStatus<ServiceRecord>({
    settled: target,
    inProgress: SERVICE_ON_THE_WAY[target],
    failed: failing(SERVICE_LEAVING, gone),
  });
}

/** Waits until the service is `target` (and `changed` holds). */
export function waitForService(
  ctx: OpContext<"serviceId">,
  target: ServiceTarget,
  changed?: (record: ServiceRecord) => boolean,
): Promise<ServiceRecord> {
  const { api, ref } = ctx;
  return waitUntil(
    ctx,
    () => api.getService(ref.projectId, ref.serviceId),
    judgeUntil(judgeService(target), changed),
    `service ${ref.serviceId} to be ${target}`,
  );
}

/** `1000m/4GB`, or `shared`. */
export function size(cpuMillis: number | string | undefined, memoryGbs: number | string | undefined): string {
  if (cpuMillis === SHARED && memoryGbs === SHARED) return SHARED;
  return `${cpuMillis ?? "?"}m/${memoryGbs ?? "?"}GB`;
}

/**
 * The error of a rename the server does not serve (a 404 naming no service: an API older than
 * renameService): what happened, that nothing changed, and the way to a new service instead.
 */
export function noRename(have: ServiceOutputs, want: ServiceInputs): Error {
  return new Error(
    `service ${have.serviceId}: the server has no rename operation (renameService answered 404 for its ` +
      `route), so the name cannot change from "${have.name}" to "${want.name}" in place; nothing was ` +
      `changed or deleted. Keep the name "${have.name}", or, to replace the service by a new one named ` +
      `"${want.name}" (a new service id, without the old one's data), add the resource option ` +
      `\`replaceOnChanges: ["name"]\` and run \`pulumi up\` again.`,
  );
}

/** `1`, or `2 (1 sync)` when synchronous replicas are involved. */
function ha(replicas: number, sync: number, showSync: boolean): string {
  return showSync ? `${replicas} (${sync} sync)` : String(replicas);
}

/**
 * The calls that bring the observed service `have` to the desired `want`, in this fixed order:
 * renameService (first, so a server without it fails the update before anything changed),
 * startService (the other actions need a running service), detachFromVpc (the old VPC),
 * resizeService, setHA, attachToVpc (the new VPC), the pooler, setServiceEnvironment,
 * updatePassword, stopService. Each is planned only if the observed state differs, so re-running
 * after a failure half-way finishes the job. Resize, setHA, attach and detach restart the
 * service (READY -> CONFIGURING -> READY, docs/api.md#lifecycle); stop and start pause and
 * resume it.
 */
export function planService(have: ServiceOutputs, want: ServiceInputs): Step<ServiceRecord>[] {
  const steps: Step<ServiceRecord>[] = [];
  if (want.name !== have.name)
    steps.push({
      op: "renameService",
      body: { name: want.name },
      detail: `${have.name} → ${want.name}`,
      answersRecord: true,
      explain: (error) => (isUnknownRoute(error, have.serviceId, "service") ? noRename(have, want) : error),
    });
  const detach = have.vpcId !== undefined && have.vpcId !== want.vpcId;
  const attach = want.vpcId !== undefined && want.vpcId !== have.vpcId;
  const resize = have.cpuMillis !== want.cpuMillis || have.memoryGbs !== want.memoryGbs;
  const setHA = have.replicaCount !== want.replicaCount || have.syncReplicaCount !== want.syncReplicaCount;
  const needsRunning = detach || attach || resize || setHA;
  if (have.paused && (needsRunning || !want.paused))
    steps.push({ op: "startService", effect: "start", settle: { target: "READY" } });
  if (detach) {
    const vpcId = have.vpcId as string;
    steps.push({
      op: "detachFromVpc",
      body: { vpcId },
      detail: vpcId,
      effect: "restart",
      settle: { until: (r) => vpcIdOf(r) === undefined },
    });
  }
  if (resize) {
    const { cpuMillis, memoryGbs } = want;
    // Diff replaces a service going back to shared resources (RESIZE in fields.ts); never resize to it.
    if (cpuMillis === SHARED || memoryGbs === SHARED)
      throw new Error(
        `service ${have.serviceId}: the API cannot resize a service to "${SHARED}"; it must be replaced`,
      );
    steps.push({
      op: "resizeService",
      body: { cpuMillis, memoryGbs },
      detail: `${size(have.cpuMillis, have.memoryGbs)} → ${size(cpuMillis, memoryGbs)}`,
      effect: "restart",
      settle: {
        until: (r) =>
          r.resources?.[0]?.spec.cpu_millis === cpuMillis && r.resources?.[0]?.spec.memory_gbs === memoryGbs,
      },
    });
  }
  if (setHA) {
    const { replicaCount, syncReplicaCount } = want;
    const [r0, s0] = [have.replicaCount ?? 0, have.syncReplicaCount ?? 0];
    const showSync = s0 > 0 || syncReplicaCount > 0;
    steps.push({
      op: "setHA",
      body: { replicaCount, syncReplicaCount },
      detail: `${ha(r0, s0, showSync)} → ${ha(replicaCount, syncReplicaCount, showSync)}`,
      effect: "restart",
      settle: {
        until: (r) =>
          (r.ha_replicas?.replica_count ?? 0) === replicaCount &&
          (r.ha_replicas?.sync_replica_count ?? 0) === syncReplicaCount,
      },
    });
  }
  if (attach) {
    const vpcId = want.vpcId as string;
    steps.push({
      op: "attachToVpc",
      body: { vpcId },
      detail: vpcId,
      effect: "restart",
      settle: { until: (r) => vpcIdOf(r) === vpcId },
    });
  }
  if (want.connectionPooler !== have.connectionPooler)
    steps.push({ op: want.connectionPooler ? "enablePooler" : "disablePooler" });
  if (want.environment !== have.environment)
    steps.push({
      op: "setServiceEnvironment",
      body: { environment: want.environment },
      detail: `${have.environment ?? "DEV"} → ${want.environment}`,
    });
  if (want.password !== undefined && want.password !== have.password)
    steps.push({
      op: "updatePassword",
      body: { password: want.password },
      remember: { password: want.password },
    });
  if (want.paused && (!have.paused || needsRunning))
    steps.push({ op: "stopService", effect: "stop", settle: { target: "PAUSED" } });
  return steps;
}
