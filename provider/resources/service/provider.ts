/**
 * The provider functions of `Service`: its own API calls and records, run by the kit. A
 * service is created (or forked) once, waited for until READY, then given what the create
 * call cannot carry (HA sync replicas, VPC, pooler, password, pause) by its update plan.
 */
import { isLeavingService, isPausedRecord, SERVICE_LEAVING } from "../../client/readings";
import {
  ADDONS_OF_TYPE,
  type ServiceType,
  canonicalServiceType,
  sameServiceType,
} from "../../client/constants";
import type { Service as ServiceRecord } from "../../client/schemas";
import { unlessGone } from "../../kit/lifecycle/delete";
import { phaseOf } from "../../kit/lifecycle/statuses";
import type { PlannedCall } from "../../kit/preview/lines";
import type { CallWords, OpContext, Props, ResourceOps } from "../../kit/spec";
import { serviceConnection } from "./connection";
import { finalForkName, finalForkOptions, takeFinalFork } from "./final-fork";
import { type ServiceInputs, type ServiceOutputs } from "./fields";
import { planService, size, waitForService } from "./plan";
import { requireForkSource, verifyForkSource } from "./fork-check";
import { requireServiceVpc, verifyServiceVpc } from "./vpc-check";

/** The statuses a service settles in: nothing is under way. */
const SETTLED: readonly string[] = ["READY", "PAUSED"];

/**
 * Said after a service joins the stack without its password (adopted, or imported): the API
 * gives the initial password only to the create that made it.
 */
function passwordUnknownLine(name: string): string {
  return (
    `service ${name}: its initial password is unknown to this stack (the API gives it only to the ` +
    "create that made it), so its connection outputs are null; give the service a `password` to set one " +
    "(updatePassword)"
  );
}

/** Sends the create, or the fork when `forkFrom` is given. */
function sendCreate({ api, ref }: OpContext<"serviceId">, want: ServiceInputs): Promise<ServiceRecord> {
  if (want.forkFrom) {
    return api.forkService(want.forkFrom.projectId ?? ref.projectId, want.forkFrom.serviceId, {
      forkStrategy: want.forkFrom.strategy,
      targetTime: want.forkFrom.targetTime,
      name: want.name,
      cpuMillis: want.cpuMillis,
      memoryGbs: want.memoryGbs,
      environmentTag: want.environment,
    });
  }
  return api.createService(ref.projectId, {
    name: want.name,
    addons: ADDONS_OF_TYPE[canonicalServiceType(want.serviceType) as ServiceType],
    regionCode: want.regionCode,
    cpuMillis: want.cpuMillis,
    memoryGbs: want.memoryGbs,
    replicaCount: want.replicaCount,
    environmentTag: want.environment,
  });
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

/** A service's create and delete in the words of the preview line. */
const SERVICE_CALLS: CallWords<ServiceInputs, ServiceOutputs> = {
  runs: true,
  create: (want) =>
    want.forkFrom
      ? {
          op: "forkService",
          detail: `${want.name} from ${want.forkFrom.serviceId} (${want.forkFrom.strategy})`,
        }
      : { op: "createService", detail: `${want.name} ${size(want.cpuMillis, want.memoryGbs)}` },
  remove: removeService,
};

/** Its own API calls and records. */
export const OPS: ResourceOps<ServiceInputs, ServiceOutputs, ServiceRecord, "serviceId"> = {
  async find(api, ref) {
    const record = await unlessGone(api.getService(ref.projectId, ref.serviceId));
    return record?.status === "DELETED" ? undefined : record;
  },
  recordId: (record) => record.service_id,
  derive: serviceConnection,
  // The password is known once set through this resource; the initial one only from the
  // create's answer; the fork source as the program gave it (the record knows only its ids).
  remember: ({ olds, want, created }) => ({
    password: olds?.password as string | undefined,
    initialPassword: created ? created.initial_password : (olds?.initialPassword as string | undefined),
    forkFrom: want ? want.forkFrom : (olds?.forkFrom as ServiceInputs["forkFrom"]),
  }),
  phase: (record) => phaseOf(record.status, SETTLED, SERVICE_LEAVING),
  imported: (record) => passwordUnknownLine(record.name),
  settle: (ctx, record) =>
    SETTLED.includes(record.status)
      ? Promise.resolve(record)
      : waitForService(ctx, isPausedRecord(record) ? "PAUSED" : "READY"),
  waitFor: (ctx, target, until) => waitForService(ctx, target === "PAUSED" ? "PAUSED" : "READY", until),
  plan: planService,
  // The VPC and the fork source, each when it changed.
  verify: async (ctx, want, olds) =>
    (await Promise.all([verifyServiceVpc(ctx, want, olds), verifyForkSource(ctx, want, olds)])).flat(),
  create: {
    what: (want) => `service ${want.name}`,
    list: ({ api, ref }) => api.listServices(ref.projectId),
    // Same name, type, region and source, and not on its way out.
    same: (record, want) =>
      record.name === want.name &&
      record.region_code === want.regionCode &&
      sameServiceType(record.service_type, want.serviceType) &&
      (record.forked_from?.service_id ?? undefined) === want.forkFrom?.serviceId &&
      !isLeavingService(record),
    identity: "name, type, region and fork source",
    key: {
      property: "name",
      of: (want) => [
        want.name,
        canonicalServiceType(want.serviceType),
        want.regionCode,
        want.forkFrom?.serviceId,
      ],
    },
    send: sendCreate,
    refusal: (found, want, { ref }) =>
      `a service named "${want.name}" (${want.serviceType}, ${want.regionCode}) already exists in project ` +
      `${ref.projectId} with id ${found.service_id}`,
    otherwise: "choose another name",
    adopted: (want) => (want.password === undefined ? passwordUnknownLine(want.name) : undefined),
    // Nothing is created before the fork source and the VPC are known to fit.
    prepare: async (ctx, want) => {
      await requireForkSource(ctx, want);
      await requireServiceVpc(ctx, want);
    },
  },
  calls: SERVICE_CALLS,
  beforeRemove: takeFinalFork,
  remove: "deleteService",
};
