/**
 * `ReadReplicaSet`: a set of read-only replicas of a service. Inputs, outputs, check, diff,
 * CRUD and the resource class. The API has no GET of one replica set: every read goes
 * through the service's list. Each input change maps to one API action (see
 * {@link READ_REPLICA_SET_RULES} and the update order in {@link planReplicaSetUpdate}).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { MdbApi } from "../client/api";
import { MdbApiError } from "../client/errors";
import { ENVIRONMENTS, ReadReplicaSet as ReplicaSetRecord } from "../client/schemas";
import { configureRuntime, getApi, progress, resolveProjectId } from "../runtime";
import { PollVerdict, waitFor } from "../wait";
import { checkInputs } from "./check";
import { withoutUndefined } from "./clean";
import { DetailedDiffResult, DiffRule, diffByRules } from "./diff";
import { withPartialState } from "./failure";
import { isGone, unlessGone, waitUntilGone } from "./gone";
import { adoptIfImported } from "./adopt";
import { lazyProvider } from "./lazy";
import { registration } from "./register";
import { type EndpointOutput } from "./service";
import { PROJECT_INPUT, stateOf, timeoutsOf } from "./timeouts";

// ---------------------------------------------------------------------------------------
// Inputs and outputs
// ---------------------------------------------------------------------------------------

/** Inputs of a {@link ReadReplicaSet}. */
export interface ReadReplicaSetArgs {
  /** Project of the service. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId?: pulumi.Input<string>;
  /** Id of the service whose data the set replicates. Change: replace. */
  serviceId: pulumi.Input<string>;
  /**
   * Name of the set, unique on its service. Default: the Pulumi resource name plus a stable
   * suffix (so a re-run finds a set an interrupted run created). Change: replace.
   */
  name?: pulumi.Input<string>;
  /** Number of nodes, 1 or more. Change: in place (resize, waits until active). */
  nodes: pulumi.Input<number>;
  /** CPU per node in milli-cores, a positive multiple of 250. Change: in place (resize, waits until active). */
  cpuMillis: pulumi.Input<number>;
  /** Memory per node in GiB, 1 or more. Change: in place (resize, waits until active). */
  memoryGbs: pulumi.Input<number>;
  /** `PROD` or `DEV`. Default `DEV`. Change: in place (setEnvironment). */
  environment?: pulumi.Input<"PROD" | "DEV">;
  /** Whether the set's connection pooler is on. Default false. Change: in place (enable/disablePooler). */
  connectionPooler?: pulumi.Input<boolean>;
}

const nonEmpty = z.string().trim().min(1, "must not be empty");

const positiveInt = (unit: string) =>
  z
    .number({ message: `must be a number (${unit})` })
    .int("must be a whole number")
    .positive("must be positive");

const ReadReplicaSetFieldsSchema = z.object({
  projectId: nonEmpty.optional(),
  serviceId: nonEmpty,
  name: nonEmpty.max(128, "must be at most 128 characters"),
  nodes: positiveInt("nodes"),
  cpuMillis: positiveInt("milli-cores").refine((n) => n % 250 === 0, "must be a multiple of 250"),
  memoryGbs: positiveInt("GiB"),
  environment: z.enum(ENVIRONMENTS, { message: "must be PROD or DEV" }).default("DEV"),
  connectionPooler: z.boolean({ message: "must be true or false" }).default(false),
});

/** Validation of the inputs, with defaults filled in; hidden inputs pass through. */
export const ReadReplicaSetInputsSchema = ReadReplicaSetFieldsSchema.loose();

/** Inputs after check. */
export type ReadReplicaSetInputs = z.output<typeof ReadReplicaSetFieldsSchema>;

/** Outputs of the provider: the observed set, named like the inputs, plus what the API adds. */
export interface ReadReplicaSetOutputs extends ReadReplicaSetInputs {
  /** Id of the set (the API's `id`). */
  replicaSetId: string;
  /** Project of the service, resolved. */
  projectId: string;
  /** creating, active, resizing, deleting or error. */
  status: string;
  /** Host and port of the set. */
  endpoint?: EndpointOutput;
  /** Host and port of the set's connection pooler, while enabled. */
  poolerEndpoint?: EndpointOutput;
}

// ---------------------------------------------------------------------------------------
// Ids: the set is addressed through its service
// ---------------------------------------------------------------------------------------

/** The Pulumi id of a set: `serviceId/replicaSetId`, the form `import` takes as well. */
export function replicaSetResourceId(serviceId: string, replicaSetId: string): string {
  return `${serviceId}/${replicaSetId}`;
}

/**
 * Reads an id of a set: `serviceId/replicaSetId` or `projectId/serviceId/replicaSetId`; a bare
 * `replicaSetId` is accepted when the state knows the service.
 */
export function parseReplicaSetId(
  id: string,
  knownServiceId?: string,
): { projectId?: string; serviceId: string; replicaSetId: string } {
  const parts = id.split("/");
  if (parts.some((p) => p === "") || parts.length > 3 || (parts.length === 1 && !knownServiceId)) {
    throw new Error(
      `"${id}" is not a read replica set id: use "<serviceId>/<replicaSetId>" or "<projectId>/<serviceId>/<replicaSetId>"`,
    );
  }
  if (parts.length === 3) return { projectId: parts[0], serviceId: parts[1], replicaSetId: parts[2] };
  if (parts.length === 2) return { serviceId: parts[0], replicaSetId: parts[1] };
  return { serviceId: knownServiceId as string, replicaSetId: parts[0] };
}

// ---------------------------------------------------------------------------------------
// Diff
// ---------------------------------------------------------------------------------------

/** What each input change does: replace, or which in-place action. */
export const READ_REPLICA_SET_RULES: Record<string, DiffRule> = {
  projectId: { change: "replace", equals: (d, o) => d === undefined || d === o },
  serviceId: { change: "replace" },
  name: { change: "replace" },
  nodes: { change: "update" },
  cpuMillis: { change: "update" },
  memoryGbs: { change: "update" },
  environment: { change: "update", default: "DEV" },
  connectionPooler: { change: "update", default: false },
};

/**
 * Diff of a set: desired inputs against the last observed outputs. A set observed in the
 * failed terminal state `error` cannot be repaired in place, so it is replaced (deleted first:
 * the new set takes the same name).
 */
export function diffReplicaSet(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): DetailedDiffResult {
  const result = diffByRules(olds, news, READ_REPLICA_SET_RULES, ["replicaSetId", "serviceId", "projectId"]);
  if (olds.status !== "error") return result;
  return {
    ...result,
    changes: true,
    replaces: [...result.replaces, "status"],
    detailedDiff: { ...result.detailedDiff, status: { kind: "UPDATE_REPLACE", inputDiff: false } },
    deleteBeforeReplace: true,
  };
}

// ---------------------------------------------------------------------------------------
// Mapping records to outputs
// ---------------------------------------------------------------------------------------

/** The outputs a replica set record shows; the record does not name its service nor project. */
export function replicaSetOutputs(
  record: ReplicaSetRecord,
  serviceId: string,
  projectId: string,
): ReadReplicaSetOutputs {
  const env = record.metadata?.environment;
  const pooler = record.connection_pooler?.endpoint;
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
    endpoint: record.endpoint ? { host: record.endpoint.host, port: record.endpoint.port } : undefined,
    poolerEndpoint: pooler ? { host: pooler.host, port: pooler.port } : undefined,
  };
}

/** Inputs that reproduce an observed set, so an imported or refreshed one shows no diff. */
function inputsOf(out: ReadReplicaSetOutputs, projectInput: unknown): Record<string, unknown> {
  return withoutUndefined({
    projectId: projectInput ?? undefined,
    serviceId: out.serviceId,
    name: out.name,
    nodes: out.nodes,
    cpuMillis: out.cpuMillis,
    memoryGbs: out.memoryGbs,
    environment: out.environment,
    connectionPooler: out.connectionPooler,
  });
}

// ---------------------------------------------------------------------------------------
// Looking and waiting
// ---------------------------------------------------------------------------------------

/** The set as the service's list shows it; undefined when the set or its service is gone. */
async function findReplicaSet(
  api: MdbApi,
  projectId: string,
  serviceId: string,
  replicaSetId: string,
): Promise<ReplicaSetRecord | undefined> {
  const sets = await unlessGone(api.listReplicaSets(projectId, serviceId));
  return sets?.find((r) => r.id === replicaSetId);
}

/** Like {@link findReplicaSet}, but a set that is gone is an error. */
async function mustFindReplicaSet(
  api: MdbApi,
  projectId: string,
  serviceId: string,
  replicaSetId: string,
): Promise<ReplicaSetRecord> {
  const record = await findReplicaSet(api, projectId, serviceId, replicaSetId);
  if (!record) {
    throw new Error(
      `read replica set ${replicaSetId} of service ${serviceId} no longer exists; run \`pulumi refresh\``,
    );
  }
  return record;
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

/** Waits until the set is active (and `extra` holds), failing on `error`. */
function waitForActive(
  api: MdbApi,
  projectId: string,
  serviceId: string,
  replicaSetId: string,
  deadline: number,
  extra?: (record: ReplicaSetRecord) => boolean,
): Promise<ReplicaSetRecord> {
  return waitFor(
    () => mustFindReplicaSet(api, projectId, serviceId, replicaSetId),
    (record) => {
      const verdict = judgeReplicaSet(record);
      if ("done" in verdict && verdict.done && extra && !extra(record))
        return { done: false, state: `${record.status} (change not visible yet)` };
      return verdict;
    },
    {
      what: `read replica set ${replicaSetId} to be active`,
      timeoutMs: Math.max(0, deadline - Date.now()),
      onProgress: progress,
    },
  );
}

/** Waits until the service is READY: a set can only be created on a running, settled service. */
function waitForServiceReady(api: MdbApi, projectId: string, serviceId: string, deadline: number) {
  return waitFor(
    () => api.getService(projectId, serviceId),
    (service): PollVerdict => {
      if (service.status === "READY") return { done: true };
      if (service.status === "PAUSED" || service.status === "PAUSING")
        return {
          failed: `service ${serviceId} is ${service.status}; a read replica set needs a running service (set paused: false)`,
        };
      if (service.status === "DELETING" || service.status === "DELETED")
        return { failed: `service ${serviceId} is ${service.status}` };
      return { done: false, state: service.status };
    },
    {
      what: `service ${serviceId} to be READY before creating a read replica set`,
      timeoutMs: Math.max(0, deadline - Date.now()),
      onProgress: progress,
    },
  );
}

// ---------------------------------------------------------------------------------------
// Update plan
// ---------------------------------------------------------------------------------------

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

/**
 * Resizes a set and waits until it is active with the new sizes. A 409 means the set was busy,
 * possibly with this very resize when a retried request's first attempt got through (its answer
 * lost to a 5xx or a dropped connection): wait until active, and send again only if the sizes
 * have not changed.
 */
async function resize(
  api: MdbApi,
  projectId: string,
  serviceId: string,
  replicaSetId: string,
  step: Extract<ReplicaSetStep, { action: "resize" }>,
  deadline: number,
): Promise<void> {
  const sizes = { nodes: step.nodes, cpuMillis: step.cpuMillis, memoryGbs: step.memoryGbs };
  const resized = (r: ReplicaSetRecord) =>
    r.nodes === step.nodes && r.cpu_millis === step.cpuMillis && r.memory_gbs === step.memoryGbs;
  try {
    await api.resizeReplicaSet(projectId, serviceId, replicaSetId, sizes);
  } catch (error) {
    if (!(error instanceof MdbApiError && error.isConflict)) throw error;
    progress(`read replica set ${replicaSetId} is busy (${error.apiMessage}); waiting for it to settle`);
    const settled = await waitForActive(api, projectId, serviceId, replicaSetId, deadline);
    if (!resized(settled)) await api.resizeReplicaSet(projectId, serviceId, replicaSetId, sizes);
  }
  await waitForActive(api, projectId, serviceId, replicaSetId, deadline, resized);
}

/** Carries out `steps` on a set, waiting after the asynchronous resize. */
async function runSteps(
  api: MdbApi,
  projectId: string,
  serviceId: string,
  replicaSetId: string,
  steps: ReplicaSetStep[],
  deadline: number,
): Promise<void> {
  for (const step of steps) {
    progress(`read replica set ${replicaSetId}: ${step.action}`);
    switch (step.action) {
      case "resize":
        await resize(api, projectId, serviceId, replicaSetId, step, deadline);
        break;
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

// ---------------------------------------------------------------------------------------
// Create: never a duplicate
// ---------------------------------------------------------------------------------------

/** True when `record` is the set a create with `want` would make (same name, not on its way out). */
function isSameReplicaSet(record: ReplicaSetRecord, want: ReadReplicaSetInputs): boolean {
  return record.name === want.name && record.status !== "deleting";
}

/**
 * Sends the create and returns the new record. Before sending, a set with the same name on
 * the service is looked for: one an interrupted run created is adopted when the name was
 * generated by us, and refused with advice otherwise. After an ambiguous failure, the list is
 * read again before resending. A 409 because the service left READY in the meantime (another
 * change of it) is a definite refusal: wait until READY, then send again.
 */
async function createOnce(
  api: MdbApi,
  projectId: string,
  want: ReadReplicaSetInputs,
  autoNamed: boolean,
  deadline: number,
): Promise<ReplicaSetRecord> {
  const before = await api.listReplicaSets(projectId, want.serviceId);
  const found = before.find((r) => isSameReplicaSet(r, want));
  if (found) {
    if (autoNamed) {
      progress(
        `read replica set ${want.name} already exists as ${found.id} (an interrupted run?); adopting it`,
      );
      return found;
    }
    throw new Error(
      `a read replica set named "${want.name}" already exists on service ${want.serviceId} with id ${found.id}. ` +
        `Adopt it with the resource option { import: "${replicaSetResourceId(want.serviceId, found.id)}" }, ` +
        "or choose another name",
    );
  }
  const known = new Set(before.map((r) => r.id));
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.createReplicaSet(projectId, want.serviceId, {
        name: want.name,
        nodes: want.nodes,
        cpuMillis: want.cpuMillis,
        memoryGbs: want.memoryGbs,
      });
    } catch (error) {
      if (!(error instanceof MdbApiError) || attempt >= 4) throw error;
      if (error.isConflict) {
        const service = await api.getService(projectId, want.serviceId);
        if (service.status === "READY") throw error;
        progress(
          `service ${want.serviceId} is ${service.status}; waiting until READY to create ${want.name}`,
        );
        await waitForServiceReady(api, projectId, want.serviceId, deadline);
        continue;
      }
      if (!error.ambiguous) throw error;
      progress(`create of read replica set ${want.name} met ${error.code}; checking whether it was created`);
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      const made = (await api.listReplicaSets(projectId, want.serviceId)).find(
        (r) => isSameReplicaSet(r, want) && !known.has(r.id),
      );
      if (made) return made;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Provider implementation
// ---------------------------------------------------------------------------------------

function asInputs(raw: Record<string, unknown>): ReadReplicaSetInputs {
  return ReadReplicaSetInputsSchema.parse(raw);
}

function asOutputs(raw: Record<string, unknown>): Partial<ReadReplicaSetOutputs> {
  return raw as Partial<ReadReplicaSetOutputs>;
}

/** The provider functions of {@link ReadReplicaSet}; loaded in the provider host by {@link lazyProvider}. */
export const impl = {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req.config);
  },

  async check(
    _olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<pulumi.dynamic.CheckResult> {
    return checkInputs(ReadReplicaSetInputsSchema, news);
  },

  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return diffReplicaSet(olds, news);
  },

  async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
    const adopted = await adoptIfImported(impl, "read replica set", inputs);
    if (adopted) return adopted;
    const want = asInputs(inputs);
    const api = getApi();
    const projectId = await resolveProjectId(want.projectId);
    const deadline = Date.now() + timeoutsOf(inputs).create;
    const { serviceId } = want;
    await waitForServiceReady(api, projectId, serviceId, deadline);
    const created = await createOnce(api, projectId, want, inputs.__autoNamed === true, deadline);
    const id = replicaSetResourceId(serviceId, created.id);
    progress(
      `read replica set ${want.name} accepted as ${created.id} (${created.status}); waiting until active`,
    );
    return withPartialState(
      id,
      inputs,
      async () => {
        let record = await waitForActive(api, projectId, serviceId, created.id, deadline);
        // The set may start with other settings than asked (e.g. the service's environment).
        const steps = planReplicaSetUpdate(replicaSetOutputs(record, serviceId, projectId), want);
        await runSteps(api, projectId, serviceId, created.id, steps, deadline);
        if (steps.length > 0) record = await mustFindReplicaSet(api, projectId, serviceId, created.id);
        return { id, outs: stateOf(replicaSetOutputs(record, serviceId, projectId), inputs) };
      },
      async () =>
        stateOf(
          replicaSetOutputs(
            await mustFindReplicaSet(api, projectId, serviceId, created.id),
            serviceId,
            projectId,
          ),
          inputs,
        ),
    );
  },

  async read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
    const old = asOutputs(props ?? {});
    const ref = parseReplicaSetId(id, old.serviceId);
    const api = getApi();
    const projectId = await resolveProjectId(ref.projectId ?? old.projectId);
    const record = await findReplicaSet(api, projectId, ref.serviceId, ref.replicaSetId);
    if (!record) return {};
    const outs = replicaSetOutputs(record, ref.serviceId, projectId);
    return {
      id: replicaSetResourceId(ref.serviceId, record.id),
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
    const ref = parseReplicaSetId(id, old.serviceId);
    const api = getApi();
    const projectId = await resolveProjectId(old.projectId ?? ref.projectId);
    const deadline = Date.now() + timeoutsOf(news).update;
    const look = () => mustFindReplicaSet(api, projectId, ref.serviceId, ref.replicaSetId);
    return withPartialState(
      id,
      news,
      async () => {
        // Plan from the set as it is now, once it has settled, not as the state remembers it.
        let current = await look();
        if (current.status !== "active")
          current = await waitForActive(api, projectId, ref.serviceId, ref.replicaSetId, deadline);
        const steps = planReplicaSetUpdate(replicaSetOutputs(current, ref.serviceId, projectId), want);
        await runSteps(api, projectId, ref.serviceId, ref.replicaSetId, steps, deadline);
        return { outs: stateOf(replicaSetOutputs(await look(), ref.serviceId, projectId), news) };
      },
      async () => {
        const record = await findReplicaSet(api, projectId, ref.serviceId, ref.replicaSetId);
        return record ? stateOf(replicaSetOutputs(record, ref.serviceId, projectId), news) : olds;
      },
    );
  },

  async delete(id: string, props: Record<string, unknown>): Promise<void> {
    const old = asOutputs(props);
    const ref = parseReplicaSetId(id, old.serviceId);
    const api = getApi();
    const projectId = await resolveProjectId(old.projectId ?? ref.projectId);
    try {
      await api.deleteReplicaSet(projectId, ref.serviceId, ref.replicaSetId);
    } catch (error) {
      if (isGone(error)) return;
      throw error;
    }
    await waitUntilGone(
      () => findReplicaSet(api, projectId, ref.serviceId, ref.replicaSetId),
      `read replica set ${ref.replicaSetId} to be deleted`,
      timeoutsOf(props).delete,
    );
  },
};

// ---------------------------------------------------------------------------------------
// Resource class
// ---------------------------------------------------------------------------------------

/**
 * A read replica set of a service. Creation waits until the service is READY and the set is
 * active. The Pulumi id is `serviceId/replicaSetId`; import with that id (or
 * `projectId/serviceId/replicaSetId`).
 */
export class ReadReplicaSet extends pulumi.dynamic.Resource {
  /** Id of the set. */
  declare readonly replicaSetId: pulumi.Output<string>;
  /** Id of the service it replicates. */
  declare readonly serviceId: pulumi.Output<string>;
  /** Project of the service. */
  declare readonly projectId: pulumi.Output<string>;
  /** Name of the set. */
  declare readonly name: pulumi.Output<string>;
  /** creating, active, resizing, deleting or error. */
  declare readonly status: pulumi.Output<string>;
  /** Number of nodes, as observed. */
  declare readonly nodes: pulumi.Output<number>;
  /** CPU per node in milli-cores, as observed. */
  declare readonly cpuMillis: pulumi.Output<number>;
  /** Memory per node in GiB, as observed. */
  declare readonly memoryGbs: pulumi.Output<number>;
  /** PROD or DEV. */
  declare readonly environment: pulumi.Output<string>;
  /** Whether the connection pooler is on. */
  declare readonly connectionPooler: pulumi.Output<boolean>;
  /** Host and port of the set. */
  declare readonly endpoint: pulumi.Output<EndpointOutput | undefined>;
  /** Host and port of the connection pooler, while enabled. */
  declare readonly poolerEndpoint: pulumi.Output<EndpointOutput | undefined>;

  constructor(name: string, args: ReadReplicaSetArgs, opts?: pulumi.CustomResourceOptions) {
    const { props, opts: rest } = registration(name, args, opts, { outputs: OUTPUT_NAMES, autoName: true });
    super(lazyProvider("read-replica-set"), name, props, rest, "mdb", "ReadReplicaSet");
  }
}

const OUTPUT_NAMES = [
  "replicaSetId",
  "projectId",
  "status",
  "environment",
  "connectionPooler",
  "endpoint",
  "poolerEndpoint",
];
