/**
 * A `Service`'s API calls in the words of the preview line: each planned step as the
 * operation it calls and the change it makes; resize, setHA, attach and detach restart the
 * service (READY -> CONFIGURING -> READY, docs/api.md#lifecycle), stop and start pause and
 * resume it.
 */
import type { CallWords, Props } from "../../kit/spec";
import type { PlannedCall } from "../../kit/preview";
import type { ServiceInputs, ServiceOutputs } from "./args";
import type { ServiceState } from "./connection";
import { finalForkName, finalForkOptions } from "./final-fork";
import type { ServiceStep } from "./plan";

/** `1000m/4GB`. */
function size(cpuMillis: number | undefined, memoryGbs: number | undefined): string {
  return `${cpuMillis ?? "?"}m/${memoryGbs ?? "?"}GB`;
}

/** `1`, or `2 (1 sync)` when synchronous replicas are involved. */
function ha(replicas: number, sync: number, showSync: boolean): string {
  return showSync ? `${replicas} (${sync} sync)` : String(replicas);
}

/** The call a planned step makes, from the service's outputs `have`. */
export function serviceStepCall(step: ServiceStep, have: ServiceOutputs): PlannedCall {
  switch (step.action) {
    case "start":
      return { op: "startService", effect: "start" };
    case "stop":
      return { op: "stopService", effect: "stop" };
    case "detachFromVPC":
      return { op: "detachFromVpc", detail: step.vpcId, effect: "restart" };
    case "attachToVPC":
      return { op: "attachToVpc", detail: step.vpcId, effect: "restart" };
    case "resize":
      return {
        op: "resizeService",
        detail: `${size(have.cpuMillis, have.memoryGbs)} → ${size(step.cpuMillis, step.memoryGbs)}`,
        effect: "restart",
      };
    case "setHA": {
      const [r, s] = [have.replicaCount ?? 0, have.syncReplicaCount ?? 0];
      const showSync = s > 0 || step.syncReplicaCount > 0;
      return {
        op: "setHA",
        detail: `${ha(r, s, showSync)} → ${ha(step.replicaCount, step.syncReplicaCount, showSync)}`,
        effect: "restart",
      };
    }
    case "enablePooler":
      return { op: "enablePooler" };
    case "disablePooler":
      return { op: "disablePooler" };
    case "setEnvironment":
      return { op: "setServiceEnvironment", detail: `${have.environment ?? "DEV"} → ${step.environment}` };
    case "updatePassword":
      return { op: "updatePassword" };
  }
}

/**
 * The outputs of a service just created (or forked) from `want`: the create call carries
 * name, type, region, size, HA replica count and environment (a fork: name, size and
 * environment, with no HA replicas); the service starts READY with no synchronous replica,
 * no pooler, no VPC and its initial password.
 */
function createdService(want: ServiceInputs): ServiceState {
  return {
    name: want.name,
    serviceType: want.serviceType,
    regionCode: want.regionCode,
    cpuMillis: want.cpuMillis,
    memoryGbs: want.memoryGbs,
    replicaCount: want.forkFrom ? 0 : want.replicaCount,
    syncReplicaCount: 0,
    environment: want.environment,
    connectionPooler: false,
    paused: false,
  } as ServiceState;
}

/** The calls of a delete: the final fork first when the state asks for one (starting a paused service). */
function removeService(olds: Props): PlannedCall[] {
  const fork = finalForkOptions(olds.finalFork);
  if (!fork) return [{ op: "deleteService" }];
  const name = fork.name ?? finalForkName(String(olds.name), String(olds.serviceId));
  return [
    ...(olds.paused === true ? [{ op: "startService", effect: "start" } as const] : []),
    { op: "forkService", detail: `${name} (final fork)` },
    { op: "deleteService" },
  ];
}

/** How a service's calls read in a preview. */
export const SERVICE_CALLS: CallWords<ServiceInputs, ServiceState, ServiceStep> = {
  runs: true,
  step: serviceStepCall,
  create: (want) =>
    want.forkFrom
      ? {
          op: "forkService",
          detail: `${want.name} from ${want.forkFrom.serviceId} (${want.forkFrom.strategy})`,
        }
      : { op: "createService", detail: `${want.name} ${size(want.cpuMillis, want.memoryGbs)}` },
  created: createdService,
  remove: removeService,
};
