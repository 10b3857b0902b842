/**
 * The provider functions of `Service`: its own API calls and records, run by the kit. A
 * service is created (or forked) once, waited for until READY, then given what the create
 * call cannot carry (HA sync replicas, VPC, pooler, password, pause) by its update plan.
 */
import type { Service as ServiceRecord } from "../../client/schemas";
import { unlessGone } from "../../kit/delete";
import { resourceProvider } from "../../kit/lifecycle";
import { keptSettings } from "../../kit/settings";
import type { OpContext, ResourceOps } from "../../kit/spec";
import type { ServiceInputs } from "./args";
import { SERVICE_CALLS } from "./calls";
import { type ServiceState, serviceConnection } from "./connection";
import { takeFinalFork } from "./final-fork";
import { SERVICE_SETTINGS, serviceOutputs } from "./outputs";
import { ServiceStep, planServiceUpdate, runServiceSteps, waitForService } from "./plan";
import { SERVICE_SPEC } from "./spec";
import { requireServiceVpc, verifyServiceVpc } from "./vpc-check";

/** Fails before forking when the source does not exist or differs in type or region. */
async function checkForkSource({ api, ref }: OpContext<"serviceId">, want: ServiceInputs): Promise<void> {
  if (!want.forkFrom) return;
  const source = await api.getService(want.forkFrom.projectId ?? ref.projectId, want.forkFrom.serviceId);
  const problems: string[] = [];
  if (source.service_type !== want.serviceType)
    problems.push(`serviceType is ${want.serviceType} but the source is ${source.service_type}`);
  if (source.region_code !== want.regionCode)
    problems.push(`regionCode is ${want.regionCode} but the source is in ${source.region_code}`);
  if (problems.length)
    throw new Error(
      `cannot fork service ${source.service_id}: a fork keeps its source's type and region; ${problems.join("; ")}`,
    );
}

/** Sends the create, or the fork when `forkFrom` is given. */
function sendCreate({ api, ref }: OpContext<"serviceId">, want: ServiceInputs): Promise<ServiceRecord> {
  if (want.forkFrom) {
    return api.forkService(want.forkFrom.projectId ?? ref.projectId, want.forkFrom.serviceId, {
      strategy: want.forkFrom.strategy,
      targetTime: want.forkFrom.targetTime,
      name: want.name,
      cpuMillis: want.cpuMillis,
      memoryGbs: want.memoryGbs,
      environment: want.environment,
    });
  }
  return api.createService(ref.projectId, {
    name: want.name,
    serviceType: want.serviceType,
    regionCode: want.regionCode,
    cpuMillis: want.cpuMillis,
    memoryGbs: want.memoryGbs,
    replicaCount: want.replicaCount,
    environment: want.environment,
  });
}

const SERVICE_OPS: ResourceOps<ServiceInputs, ServiceState, ServiceRecord, "serviceId", ServiceStep> = {
  async find(api, ref) {
    const record = await unlessGone(api.getService(ref.projectId, ref.serviceId));
    return record?.status === "DELETED" ? undefined : record;
  },
  recordId: (record) => record.service_id,
  outputs: (record, _ref, memory) => {
    const outs = serviceOutputs(record, memory);
    return { ...outs, ...serviceConnection(outs, memory) };
  },
  // The password is known once set through this resource; the initial one only from the
  // create's answer; the fork source as the program gave it (the record knows only its ids).
  remember: ({ olds, want, created }) => ({
    ...keptSettings(SERVICE_SETTINGS, { olds, want }),
    password: olds?.password as string | undefined,
    initialPassword: created ? created.initial_password : (olds?.initialPassword as string | undefined),
    forkFrom: want ? want.forkFrom : (olds?.forkFrom as ServiceInputs["forkFrom"]),
  }),
  settle: (ctx, record) =>
    record.status === "READY" || record.status === "PAUSED"
      ? Promise.resolve(record)
      : waitForService(ctx, record.paused ? "PAUSED" : "READY"),
  plan: planServiceUpdate,
  run: runServiceSteps,
  verify: verifyServiceVpc,
  create: {
    what: (want) => `service ${want.name}`,
    list: ({ api, ref }) => api.listServices(ref.projectId),
    // Same name, type, region and source, and not on its way out.
    same: (record, want) =>
      record.name === want.name &&
      record.region_code === want.regionCode &&
      record.service_type === want.serviceType &&
      (record.forked_from?.service_id ?? undefined) === want.forkFrom?.serviceId &&
      record.status !== "DELETING" &&
      record.status !== "DELETED",
    identity: "name, type, region and fork source",
    send: sendCreate,
    refusal: (found, want, { ref }) =>
      `a service named "${want.name}" (${want.serviceType}, ${want.regionCode}) already exists in project ` +
      `${ref.projectId} with id ${found.service_id}`,
    otherwise: "choose another name",
    // Nothing is created before the fork source and the VPC are known to fit.
    prepare: async (ctx, want) => {
      await checkForkSource(ctx, want);
      await requireServiceVpc(ctx, want);
    },
  },
  calls: SERVICE_CALLS,
  beforeRemove: takeFinalFork,
  remove: (api, ref) => api.deleteService(ref.projectId, ref.serviceId),
};

/** The provider functions of `Service`, as the dispatch map in `../../host.ts` holds them. */
export const SERVICE_PROVIDER = resourceProvider(SERVICE_SPEC, SERVICE_OPS);
