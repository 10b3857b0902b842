/**
 * `Service`: a managed database service. Inputs, outputs, check, diff, CRUD and the
 * resource class. Each input change maps to one API action (see {@link SERVICE_RULES} and
 * the update order in {@link planServiceUpdate}); outputs are read from the settled record.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { MdbApi } from "../client/api";
import { MdbApiError } from "../client/errors";
import { ENVIRONMENTS, FORK_STRATEGIES, SERVICE_TYPES, Service as ServiceRecord } from "../client/schemas";
import { configureRuntime, getApi, progress, resolveProjectId } from "../runtime";
import { waitFor, PollVerdict } from "../wait";
import { checkInputs } from "./check";
import { DiffRule, diffByRules } from "./diff";
import { withPartialState } from "./failure";
import { isGone, unlessGone, waitUntilGone } from "./gone";
import { adoptIfImported } from "./adopt";
import { lazyProvider } from "./lazy";
import { registration } from "./register";
import { PROJECT_INPUT, stateOf, timeoutsOf } from "./timeouts";

// ---------------------------------------------------------------------------------------
// Inputs and outputs
// ---------------------------------------------------------------------------------------

/** Where a forked service comes from. Changing any of it replaces the service. */
export interface ForkFromArgs {
  /** Id of the service to fork. */
  serviceId: pulumi.Input<string>;
  /** Project of that service; the fork's project when absent. */
  projectId?: pulumi.Input<string>;
  /** `LAST_SNAPSHOT`, `NOW` or `PITR` (point in time, needs `targetTime`). */
  strategy: pulumi.Input<"LAST_SNAPSHOT" | "NOW" | "PITR">;
  /** ISO 8601 date-time to fork at; required with `PITR`, refused otherwise. */
  targetTime?: pulumi.Input<string>;
}

/** Inputs of a {@link Service}. */
export interface ServiceArgs {
  /** Project of the service. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId?: pulumi.Input<string>;
  /**
   * Name of the service. Default: the Pulumi resource name plus a suffix derived from the
   * project, stack and resource name (stable, so a re-run finds a service an interrupted run
   * created). Change: replace (the API cannot rename a service).
   */
  name?: pulumi.Input<string>;
  /** `TIMESERIESDB`, `POSTGRES` or `VECTOR`. Change: replace. */
  serviceType: pulumi.Input<"TIMESERIESDB" | "POSTGRES" | "VECTOR">;
  /** Region code, e.g. `us-east-1`. Change: replace. */
  regionCode: pulumi.Input<string>;
  /** CPU in milli-cores (a multiple of 250). Change: in place (resize). */
  cpuMillis: pulumi.Input<number>;
  /** Memory in GiB. Change: in place (resize). */
  memoryGbs: pulumi.Input<number>;
  /** Number of HA replicas, 0..2. Default 0. Change: in place (setHA). */
  replicaCount?: pulumi.Input<number>;
  /** How many HA replicas are synchronous, 0..replicaCount. Default 0. Change: in place (setHA). */
  syncReplicaCount?: pulumi.Input<number>;
  /** `PROD` or `DEV`. Default `DEV`. Change: in place (setEnvironment). */
  environment?: pulumi.Input<"PROD" | "DEV">;
  /** Password of the service (secret, 8+ characters). Default: keep the initial password. Change: in place (updatePassword). */
  password?: pulumi.Input<string>;
  /** Whether the connection pooler is on. Default false. Change: in place (enable/disablePooler). */
  connectionPooler?: pulumi.Input<boolean>;
  /** VPC to attach the service to (same region). Change: in place (detach old, attach new). */
  vpcId?: pulumi.Input<string>;
  /** Whether the service is paused. Default false. Change: in place (stop/start). */
  paused?: pulumi.Input<boolean>;
  /** Create the service as a fork of another. Change: replace. */
  forkFrom?: pulumi.Input<ForkFromArgs>;
}

/** A host and port. */
export interface EndpointOutput {
  /** Host name. */
  host: string;
  /** TCP port. */
  port: number;
}

/** Compute allocated to the service. */
export interface ResourceOutput {
  /** Id of the allocation. */
  id: string;
  /** CPU in milli-cores. */
  cpuMillis: number;
  /** Memory in GiB. */
  memoryGbs: number;
  /** Storage volume type, when the API says. */
  volumeType?: string;
}

// ---------------------------------------------------------------------------------------
// Check
// ---------------------------------------------------------------------------------------

const nonEmpty = z.string().trim().min(1, "must not be empty");

const ForkFromSchema = z
  .strictObject({
    serviceId: nonEmpty,
    projectId: nonEmpty.optional(),
    strategy: z.enum(FORK_STRATEGIES, { message: `must be one of ${FORK_STRATEGIES.join(", ")}` }),
    targetTime: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.strategy === "PITR" && !f.targetTime)
      ctx.addIssue({ code: "custom", path: ["targetTime"], message: "is required when strategy is PITR" });
    if (f.strategy !== "PITR" && f.targetTime)
      ctx.addIssue({
        code: "custom",
        path: ["targetTime"],
        message: "is only allowed when strategy is PITR",
      });
  });

const positiveInt = (what: string) =>
  z
    .number({ message: `must be a number (${what})` })
    .int("must be a whole number")
    .positive("must be positive");

const ServiceFieldsSchema = z.object({
  projectId: nonEmpty.optional(),
  name: nonEmpty.max(128, "must be at most 128 characters"),
  serviceType: z.enum(SERVICE_TYPES, { message: `must be one of ${SERVICE_TYPES.join(", ")}` }),
  regionCode: nonEmpty,
  cpuMillis: positiveInt("milli-cores").refine((n) => n % 250 === 0, "must be a multiple of 250"),
  memoryGbs: positiveInt("GiB"),
  replicaCount: z.number().int("must be a whole number").min(0).max(2, "must be at most 2").default(0),
  syncReplicaCount: z.number().int("must be a whole number").min(0).max(2).default(0),
  environment: z.enum(ENVIRONMENTS, { message: "must be PROD or DEV" }).default("DEV"),
  password: z.string().min(8, "must be at least 8 characters").optional(),
  connectionPooler: z.boolean().default(false),
  vpcId: nonEmpty.optional(),
  paused: z.boolean().default(false),
  forkFrom: ForkFromSchema.optional(),
});

/** Validation of the inputs, with defaults filled in; hidden inputs pass through. */
export const ServiceInputsSchema = ServiceFieldsSchema.loose().superRefine((s, ctx) => {
  if (s.syncReplicaCount > s.replicaCount)
    ctx.addIssue({
      code: "custom",
      path: ["syncReplicaCount"],
      message: `must not exceed replicaCount (${s.replicaCount})`,
    });
});

/** Inputs after check. */
export type ServiceInputs = z.output<typeof ServiceFieldsSchema>;

/** Outputs of the provider: the observed state, named like the inputs, plus what the API adds. */
export interface ServiceOutputs extends Omit<ServiceInputs, "forkFrom"> {
  serviceId: string;
  projectId: string;
  forkFrom?: ServiceInputs["forkFrom"];
  status: string;
  created?: string;
  endpoint?: EndpointOutput;
  poolerEndpoint?: EndpointOutput;
  vpcEndpoint?: { host?: string; port?: number; vpcId?: string };
  resources: ResourceOutput[];
  haReplicas?: { replicaCount?: number; syncReplicaCount?: number };
  forkedFrom?: { projectId?: string; serviceId?: string; isStandby?: boolean };
  readReplicaSets: Array<{ id: string; name: string; status: string; nodes: number }>;
  initialPassword?: string;
}

// ---------------------------------------------------------------------------------------
// Diff
// ---------------------------------------------------------------------------------------

/** What each input change does: replace, or which in-place action. */
export const SERVICE_RULES: Record<string, DiffRule> = {
  projectId: { change: "replace", equals: (d, o) => d === undefined || d === o },
  name: { change: "replace" },
  serviceType: { change: "replace" },
  regionCode: { change: "replace" },
  forkFrom: {
    change: "replace",
    // Strategy and time only matter at creation; an imported fork knows only its source.
    equals: (d, o) => {
      const want = d as ServiceInputs["forkFrom"];
      const have = o as ServiceInputs["forkFrom"];
      if (!want || !have) return want === have;
      return (
        want.serviceId === have.serviceId &&
        (have.strategy === undefined || want.strategy === have.strategy) &&
        (have.targetTime === undefined || want.targetTime === have.targetTime)
      );
    },
  },
  cpuMillis: { change: "update" },
  memoryGbs: { change: "update" },
  replicaCount: { change: "update", default: 0 },
  syncReplicaCount: { change: "update", default: 0 },
  environment: { change: "update", default: "DEV" },
  // Removing the input stops managing the password; it does not unset it.
  password: { change: "update", equals: (d, o) => d === undefined || d === o },
  connectionPooler: { change: "update", default: false },
  vpcId: { change: "update" },
  paused: { change: "update", default: false },
};

// ---------------------------------------------------------------------------------------
// Mapping records to outputs
// ---------------------------------------------------------------------------------------

function endpointOf(e: { host: string; port: number } | undefined): EndpointOutput | undefined {
  return e ? { host: e.host, port: e.port } : undefined;
}

/** The outputs a service record shows; `kept` supplies what the API never returns. */
export function serviceOutputs(
  record: ServiceRecord,
  kept: { password?: string; initialPassword?: string; forkFrom?: ServiceInputs["forkFrom"] },
): ServiceOutputs {
  const spec = record.resources?.[0]?.spec;
  const forkedFrom = record.forked_from ?? undefined;
  const env = record.metadata?.environment;
  return {
    serviceId: record.service_id,
    projectId: record.project_id,
    name: record.name,
    serviceType: record.service_type as ServiceInputs["serviceType"],
    regionCode: record.region_code,
    cpuMillis: spec?.cpu_millis ?? 0,
    memoryGbs: spec?.memory_gbs ?? 0,
    replicaCount: record.ha_replicas?.replica_count ?? 0,
    syncReplicaCount: record.ha_replicas?.sync_replica_count ?? 0,
    environment: (env === "PROD" ? "PROD" : "DEV") as ServiceInputs["environment"],
    password: kept.password,
    connectionPooler: !!record.connection_pooler,
    vpcId: record.vpcEndpoint?.vpc_id ?? undefined,
    paused: record.paused ?? record.status === "PAUSED",
    forkFrom:
      kept.forkFrom ??
      (forkedFrom?.service_id
        ? ({
            serviceId: forkedFrom.service_id,
            projectId: forkedFrom.project_id,
          } as ServiceInputs["forkFrom"])
        : undefined),
    status: record.status,
    created: record.created,
    endpoint: endpointOf(record.endpoint),
    poolerEndpoint: endpointOf(record.connection_pooler?.endpoint),
    vpcEndpoint: record.vpcEndpoint
      ? { host: record.vpcEndpoint.host, port: record.vpcEndpoint.port, vpcId: record.vpcEndpoint.vpc_id }
      : undefined,
    resources: (record.resources ?? []).map((r) => ({
      id: r.id,
      cpuMillis: r.spec.cpu_millis,
      memoryGbs: r.spec.memory_gbs,
      volumeType: r.spec.volume_type,
    })),
    haReplicas: record.ha_replicas
      ? {
          replicaCount: record.ha_replicas.replica_count,
          syncReplicaCount: record.ha_replicas.sync_replica_count,
        }
      : undefined,
    forkedFrom: forkedFrom
      ? {
          projectId: forkedFrom.project_id,
          serviceId: forkedFrom.service_id,
          isStandby: forkedFrom.is_standby,
        }
      : undefined,
    readReplicaSets: (record.read_replica_sets ?? []).map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      nodes: r.nodes,
    })),
    initialPassword: kept.initialPassword,
  };
}

/** Inputs that reproduce an observed service, so an imported or refreshed one shows no diff. */
function inputsOf(out: ServiceOutputs, projectInput?: unknown): Record<string, unknown> {
  return stripUndefined({
    projectId: projectInput,
    name: out.name,
    serviceType: out.serviceType,
    regionCode: out.regionCode,
    cpuMillis: out.cpuMillis,
    memoryGbs: out.memoryGbs,
    replicaCount: out.replicaCount,
    syncReplicaCount: out.syncReplicaCount,
    environment: out.environment,
    password: out.password,
    connectionPooler: out.connectionPooler,
    vpcId: out.vpcId,
    paused: out.paused,
    forkFrom: out.forkFrom,
  });
}

function stripUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

// ---------------------------------------------------------------------------------------
// Waiting
// ---------------------------------------------------------------------------------------

/** A settled status to wait for. */
type Target = "READY" | "PAUSED";

function judge(target: Target) {
  return (record: ServiceRecord): PollVerdict => {
    if (record.status === target) return { done: true };
    if (record.status === "DELETING" || record.status === "DELETED")
      return { failed: `the service is ${record.status}` };
    return { done: false, state: record.status };
  };
}

async function waitForStatus(
  api: MdbApi,
  projectId: string,
  serviceId: string,
  target: Target,
  deadline: number,
  extra?: (record: ServiceRecord) => boolean,
): Promise<ServiceRecord> {
  const base = judge(target);
  return waitFor(
    () => api.getService(projectId, serviceId),
    (record) => {
      const verdict = base(record);
      if ("done" in verdict && verdict.done && extra && !extra(record))
        return { done: false, state: record.status };
      return verdict;
    },
    {
      what: `service ${serviceId} to be ${target}`,
      timeoutMs: Math.max(0, deadline - Date.now()),
      onProgress: progress,
    },
  );
}

// ---------------------------------------------------------------------------------------
// Update plan
// ---------------------------------------------------------------------------------------

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

/** Carries out `steps` on a service, waiting after each asynchronous one. */
async function runSteps(
  api: MdbApi,
  projectId: string,
  serviceId: string,
  steps: ServiceStep[],
  want: ServiceInputs,
  deadline: number,
  done: { password?: string },
): Promise<void> {
  const ready = (extra?: (r: ServiceRecord) => boolean) =>
    waitForStatus(api, projectId, serviceId, "READY", deadline, extra);
  /**
   * Sends an asynchronous action and waits until `settled`. A 409 means the service was busy,
   * possibly with this very action when a retried request's first attempt got through: wait
   * for READY, and send again only if the change has not happened.
   */
  const act = async (send: () => Promise<unknown>, settled: (r: ServiceRecord) => boolean) => {
    try {
      await send();
    } catch (error) {
      if (!(error instanceof MdbApiError && error.isConflict)) throw error;
      progress(`service ${serviceId} is busy (${error.apiMessage}); waiting for it to settle`);
      if (settled(await ready())) return;
      await send();
    }
    await ready(settled);
  };
  for (const step of steps) {
    progress(`service ${serviceId}: ${step.action}`);
    switch (step.action) {
      case "start":
        await api.startService(projectId, serviceId);
        await ready();
        break;
      case "stop":
        await api.stopService(projectId, serviceId);
        await waitForStatus(api, projectId, serviceId, "PAUSED", deadline);
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
        done.password = want.password;
        break;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Create: never a duplicate
// ---------------------------------------------------------------------------------------

/** True when `record` is the service a create with `want` would make (name, type, region, source). */
function isSameService(record: ServiceRecord, want: ServiceInputs): boolean {
  return (
    record.name === want.name &&
    record.region_code === want.regionCode &&
    record.service_type === want.serviceType &&
    (record.forked_from?.service_id ?? undefined) === want.forkFrom?.serviceId &&
    record.status !== "DELETING" &&
    record.status !== "DELETED"
  );
}

/**
 * Sends the create (or fork) and returns the new record. Before sending, an existing
 * service with the same name, type, region and source is looked for: one a previous,
 * interrupted run created is adopted when the name was generated by us, and refused with
 * advice otherwise. After an ambiguous failure, the list is read again before resending.
 */
async function createOnce(
  api: MdbApi,
  projectId: string,
  want: ServiceInputs,
  autoNamed: boolean,
): Promise<ServiceRecord> {
  const before = (await api.listServices(projectId)).filter((s) => isSameService(s, want));
  if (before.length > 0) {
    const found = before[0];
    if (autoNamed) {
      progress(
        `service ${want.name} already exists as ${found.service_id} (an interrupted run?); adopting it`,
      );
      return found;
    }
    throw new Error(
      `a service named "${want.name}" (${want.serviceType}, ${want.regionCode}) already exists in project ` +
        `${projectId} with id ${found.service_id}. Adopt it with the resource option { import: "${found.service_id}" }, ` +
        `or choose another name`,
    );
  }
  const known = new Set(before.map((s) => s.service_id));
  for (let attempt = 1; ; attempt++) {
    try {
      if (want.forkFrom) {
        return await api.forkService(want.forkFrom.projectId ?? projectId, want.forkFrom.serviceId, {
          strategy: want.forkFrom.strategy,
          targetTime: want.forkFrom.targetTime,
          name: want.name,
          cpuMillis: want.cpuMillis,
          memoryGbs: want.memoryGbs,
          environment: want.environment,
        });
      }
      return await api.createService(projectId, {
        name: want.name,
        serviceType: want.serviceType,
        regionCode: want.regionCode,
        cpuMillis: want.cpuMillis,
        memoryGbs: want.memoryGbs,
        replicaCount: want.replicaCount,
        environment: want.environment,
      });
    } catch (error) {
      if (!(error instanceof MdbApiError) || !error.ambiguous || attempt >= 4) throw error;
      progress(`create of service ${want.name} met ${error.code}; checking whether it was created`);
      await new Promise((r) => setTimeout(r, 250 * attempt));
      const made = (await api.listServices(projectId)).find(
        (s) => isSameService(s, want) && !known.has(s.service_id),
      );
      if (made) return made;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Provider implementation
// ---------------------------------------------------------------------------------------

function asInputs(raw: Record<string, unknown>): ServiceInputs {
  return ServiceInputsSchema.parse(raw);
}

function asOutputs(raw: Record<string, unknown>): ServiceOutputs {
  return raw as unknown as ServiceOutputs;
}

/** The provider functions of {@link Service}; loaded in the provider host by {@link lazyProvider}. */
export const impl = {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req.config);
  },

  async check(
    _olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<pulumi.dynamic.CheckResult> {
    return checkInputs(ServiceInputsSchema, news);
  },

  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return diffByRules(olds, news, SERVICE_RULES, ["serviceId", "projectId", "created"]);
  },

  async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
    const adopted = await adoptIfImported(impl, "service", inputs);
    if (adopted) return adopted;
    const want = asInputs(inputs);
    const api = getApi();
    const projectId = await resolveProjectId(want.projectId);
    const deadline = Date.now() + timeoutsOf(inputs).create;
    if (want.forkFrom) await checkForkSource(api, projectId, want);
    const created = await createOnce(api, projectId, want, inputs.__autoNamed === true);
    const id = created.service_id;
    const kept = {
      initialPassword: created.initial_password,
      forkFrom: want.forkFrom,
      password: undefined as string | undefined,
    };
    progress(`service ${want.name} accepted as ${id} (${created.status}); waiting until READY`);
    return withPartialState(
      id,
      inputs,
      async () => {
        let record = await waitForStatus(api, projectId, id, "READY", deadline);
        const steps = planServiceUpdate(serviceOutputs(record, kept), want);
        await runSteps(api, projectId, id, steps, want, deadline, kept);
        if (steps.length > 0) record = await api.getService(projectId, id);
        return { id, outs: stateOf(serviceOutputs(record, kept), inputs) };
      },
      async () => stateOf(serviceOutputs(await api.getService(projectId, id), kept), inputs),
    );
  },

  async read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
    const old = asOutputs(props ?? {});
    const [projectPart, servicePart] = id.includes("/") ? id.split("/", 2) : [undefined, id];
    const api = getApi();
    const projectId = await resolveProjectId(projectPart ?? (old.projectId as string | undefined));
    const record = await unlessGone(api.getService(projectId, servicePart));
    if (!record) return {};
    if (record.status === "DELETED") return {};
    const outs = serviceOutputs(record, {
      password: old.password,
      initialPassword: old.initialPassword,
      forkFrom: old.forkFrom,
    });
    return {
      id: record.service_id,
      props: stateOf(outs, props ?? {}),
      inputs: inputsOf(outs, props?.[PROJECT_INPUT]),
    };
  },

  async update(
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<pulumi.dynamic.UpdateResult> {
    const want = asInputs(news);
    const old = asOutputs(olds);
    const api = getApi();
    const projectId = await resolveProjectId(old.projectId);
    const deadline = Date.now() + timeoutsOf(news).update;
    const kept = { password: old.password, initialPassword: old.initialPassword, forkFrom: want.forkFrom };
    return withPartialState(
      id,
      news,
      async () => {
        // Plan from the service as it is now, not as the state remembers it.
        const current = await api.getService(projectId, id);
        if (current.status !== "READY" && current.status !== "PAUSED") {
          await waitForStatus(api, projectId, id, current.paused ? "PAUSED" : "READY", deadline);
        }
        const have = serviceOutputs(await api.getService(projectId, id), kept);
        await runSteps(api, projectId, id, planServiceUpdate(have, want), want, deadline, kept);
        return {
          outs: stateOf(serviceOutputs(await api.getService(projectId, id), kept), news),
        };
      },
      async () => stateOf(serviceOutputs(await api.getService(projectId, id), kept), news),
    );
  },

  async delete(id: string, props: Record<string, unknown>): Promise<void> {
    const old = asOutputs(props);
    const api = getApi();
    const projectId = await resolveProjectId(old.projectId);
    try {
      await api.deleteService(projectId, id);
    } catch (error) {
      if (isGone(error)) return;
      throw error;
    }
    await waitUntilGone(
      () => api.getService(projectId, id),
      `service ${id} to be deleted`,
      timeoutsOf(props).delete,
    );
  },
};

/** Fails before forking when the source does not exist or differs in type or region. */
async function checkForkSource(api: MdbApi, projectId: string, want: ServiceInputs): Promise<void> {
  const source = await api.getService(
    want.forkFrom?.projectId ?? projectId,
    want.forkFrom?.serviceId as string,
  );
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

// ---------------------------------------------------------------------------------------
// Resource class
// ---------------------------------------------------------------------------------------

/**
 * A managed database service. Waits until the service is READY (or PAUSED) before
 * reporting outputs. `password` and `initialPassword` are secret outputs.
 */
export class Service extends pulumi.dynamic.Resource {
  /** Id of the service. */
  declare readonly serviceId: pulumi.Output<string>;
  /** Project of the service. */
  declare readonly projectId: pulumi.Output<string>;
  /** Name of the service. */
  declare readonly name: pulumi.Output<string>;
  /** TIMESERIESDB, POSTGRES or VECTOR. */
  declare readonly serviceType: pulumi.Output<string>;
  /** Region code. */
  declare readonly regionCode: pulumi.Output<string>;
  /** CPU in milli-cores, as allocated. */
  declare readonly cpuMillis: pulumi.Output<number>;
  /** Memory in GiB, as allocated. */
  declare readonly memoryGbs: pulumi.Output<number>;
  /** Number of HA replicas. */
  declare readonly replicaCount: pulumi.Output<number>;
  /** Number of synchronous HA replicas. */
  declare readonly syncReplicaCount: pulumi.Output<number>;
  /** PROD or DEV. */
  declare readonly environment: pulumi.Output<string>;
  /** Password set through this resource (secret), if any. */
  declare readonly password: pulumi.Output<string | undefined>;
  /** Whether the connection pooler is on. */
  declare readonly connectionPooler: pulumi.Output<boolean>;
  /** VPC the service is attached to. */
  declare readonly vpcId: pulumi.Output<string | undefined>;
  /** Whether the service is paused. */
  declare readonly paused: pulumi.Output<boolean>;
  /** Fork source, as given. */
  declare readonly forkFrom: pulumi.Output<ForkFromArgs | undefined>;
  /** Status of the service (READY, PAUSED, ...). */
  declare readonly status: pulumi.Output<string>;
  /** Creation time (ISO 8601). */
  declare readonly created: pulumi.Output<string | undefined>;
  /** Host and port of the database. */
  declare readonly endpoint: pulumi.Output<EndpointOutput | undefined>;
  /** Host and port of the connection pooler, while enabled. */
  declare readonly poolerEndpoint: pulumi.Output<EndpointOutput | undefined>;
  /** VPC endpoint, while attached. */
  declare readonly vpcEndpoint: pulumi.Output<{ host?: string; port?: number; vpcId?: string } | undefined>;
  /** Compute allocated. */
  declare readonly resources: pulumi.Output<ResourceOutput[]>;
  /** HA configuration as the API reports it. */
  declare readonly haReplicas: pulumi.Output<
    { replicaCount?: number; syncReplicaCount?: number } | undefined
  >;
  /** Where a fork came from, as the API reports it. */
  declare readonly forkedFrom: pulumi.Output<
    { projectId?: string; serviceId?: string; isStandby?: boolean } | undefined
  >;
  /** Read replica sets of the service. */
  declare readonly readReplicaSets: pulumi.Output<
    Array<{ id: string; name: string; status: string; nodes: number }>
  >;
  /** Password the service was created with (secret); only known for services this stack created. */
  declare readonly initialPassword: pulumi.Output<string | undefined>;

  constructor(name: string, args: ServiceArgs, opts?: pulumi.CustomResourceOptions) {
    const { props, opts: rest } = registration(name, args, opts, { outputs: OUTPUT_NAMES, autoName: true });
    super(
      lazyProvider("service"),
      name,
      props,
      {
        ...rest,
        additionalSecretOutputs: [...(rest?.additionalSecretOutputs ?? []), "password", "initialPassword"],
      },
      "mdb",
      "Service",
    );
    // The service id never changes in place. Taken from the resource id, it stays known while
    // an update is previewed, so resources that use it do not show a spurious replacement.
    this.serviceId = this.id;
  }
}

const OUTPUT_NAMES = [
  "projectId",
  "status",
  "created",
  "endpoint",
  "poolerEndpoint",
  "vpcEndpoint",
  "resources",
  "haReplicas",
  "forkedFrom",
  "readReplicaSets",
  "initialPassword",
  "replicaCount",
  "syncReplicaCount",
  "environment",
  "connectionPooler",
  "vpcId",
  "paused",
  "password",
  "forkFrom",
];
