/**
 * `VpcPeering`: a peering connection from a VPC to a VPC of another account. Inputs,
 * outputs, check, diff, CRUD and the resource class. Nothing of a peering changes in place:
 * any input change replaces it, deleting the old one first.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { MdbApi } from "../client/api";
import { MdbApiError } from "../client/errors";
import type { VpcPeering as PeeringRecord } from "../client/schemas";
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
import { PROJECT_INPUT, stateOf, timeoutsOf } from "./timeouts";

// ---------------------------------------------------------------------------------------
// Inputs and outputs
// ---------------------------------------------------------------------------------------

/** Inputs of a {@link VpcPeering}. Every change replaces the peering (the old one is deleted first). */
export interface VpcPeeringArgs {
  /** Project of the VPC. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId?: pulumi.Input<string>;
  /** Id of the VPC (of this API) to peer from. Change: replace. */
  vpcId: pulumi.Input<string>;
  /** Account that owns the peer VPC. Change: replace. */
  peerAccountId: pulumi.Input<string>;
  /** Region code of the peer VPC. Change: replace. */
  peerRegionCode: pulumi.Input<string>;
  /** Id of the peer VPC in its own cloud. Change: replace. */
  peerVpcId: pulumi.Input<string>;
}

const nonEmpty = z.string({ message: "must be a string" }).trim().min(1, "must not be empty");

const VpcPeeringFieldsSchema = z.object({
  projectId: nonEmpty.optional(),
  vpcId: nonEmpty,
  peerAccountId: nonEmpty,
  peerRegionCode: nonEmpty,
  peerVpcId: nonEmpty,
});

/** Validation of the inputs; hidden inputs pass through. */
export const VpcPeeringInputsSchema = VpcPeeringFieldsSchema.loose();

/** Inputs after check. */
export type VpcPeeringInputs = z.output<typeof VpcPeeringFieldsSchema>;

/** Outputs of the provider: the observed peering, named like the inputs, plus what the API adds. */
export interface VpcPeeringOutputs extends VpcPeeringInputs {
  /** Id of the peering. */
  peeringId: string;
  /** Project of the VPC, resolved. */
  projectId: string;
  /** Id the cloud gave the connection once provisioned. */
  provisionedId?: string;
  /** pending, active or failed. */
  status: string;
  /** Why the peering failed, when it did. */
  errorMessage?: string;
}

// ---------------------------------------------------------------------------------------
// Ids: the peering is addressed through its VPC
// ---------------------------------------------------------------------------------------

/** The Pulumi id of a peering: `vpcId/peeringId`, the form `import` takes as well. */
export function peeringResourceId(vpcId: string, peeringId: string): string {
  return `${vpcId}/${peeringId}`;
}

/**
 * Reads an id of a peering: `vpcId/peeringId` or `projectId/vpcId/peeringId`; a bare
 * `peeringId` is accepted when the state knows the VPC.
 */
export function parsePeeringId(
  id: string,
  knownVpcId?: string,
): { projectId?: string; vpcId: string; peeringId: string } {
  const parts = id.split("/");
  if (parts.some((p) => p === "") || parts.length > 3 || (parts.length === 1 && !knownVpcId)) {
    throw new Error(
      `"${id}" is not a VPC peering id: use "<vpcId>/<peeringId>" or "<projectId>/<vpcId>/<peeringId>"`,
    );
  }
  if (parts.length === 3) return { projectId: parts[0], vpcId: parts[1], peeringId: parts[2] };
  if (parts.length === 2) return { vpcId: parts[0], peeringId: parts[1] };
  return { vpcId: knownVpcId as string, peeringId: parts[0] };
}

// ---------------------------------------------------------------------------------------
// Diff
// ---------------------------------------------------------------------------------------

/** Every input replaces the peering. */
export const VPC_PEERING_RULES: Record<string, DiffRule> = {
  projectId: { change: "replace", equals: (d, o) => d === undefined || d === o },
  vpcId: { change: "replace" },
  peerAccountId: { change: "replace" },
  peerRegionCode: { change: "replace" },
  peerVpcId: { change: "replace" },
};

/**
 * Diff of a peering: any input change replaces it, deleting the old one first (two peerings
 * to the same peer at once make no sense). A peering observed `failed` cannot be repaired, so
 * it is replaced too: the next `pulumi up` tries again with a new one.
 */
export function diffPeering(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): DetailedDiffResult {
  const result = diffByRules(olds, news, VPC_PEERING_RULES, ["peeringId", "vpcId", "projectId"]);
  if (olds.status !== "failed") return { ...result, deleteBeforeReplace: true };
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

/** The outputs a peering record shows; the record does not name its VPC nor project. */
export function peeringOutputs(record: PeeringRecord, vpcId: string, projectId: string): VpcPeeringOutputs {
  return {
    peeringId: record.id,
    vpcId,
    projectId,
    peerAccountId: record.peer_account_id,
    peerRegionCode: record.peer_region_code,
    peerVpcId: record.peer_vpc_id,
    provisionedId: record.provisioned_id ?? undefined,
    status: record.status,
    errorMessage: record.error_message ?? undefined,
  };
}

/** Inputs that reproduce an observed peering, so an imported or refreshed one shows no diff. */
function inputsOf(out: VpcPeeringOutputs, projectInput: unknown): Record<string, unknown> {
  return withoutUndefined({
    projectId: projectInput ?? undefined,
    vpcId: out.vpcId,
    peerAccountId: out.peerAccountId,
    peerRegionCode: out.peerRegionCode,
    peerVpcId: out.peerVpcId,
  });
}

// ---------------------------------------------------------------------------------------
// Waiting
// ---------------------------------------------------------------------------------------

/** Verdict on a peering awaited to be active: `failed` is a failed terminal state. */
export function judgePeering(record: PeeringRecord): PollVerdict {
  if (record.status === "active") return { done: true };
  if (record.status === "failed")
    return {
      failed:
        `the API reports peering ${record.id} failed: ${record.error_message || "no reason given"}. ` +
        "Run `pulumi up` again to replace it with a new attempt, or `pulumi destroy` to remove it",
    };
  return { done: false, state: record.status };
}

function waitForActive(
  api: MdbApi,
  projectId: string,
  vpcId: string,
  peeringId: string,
  deadline: number,
): Promise<PeeringRecord> {
  return waitFor(() => api.getPeering(projectId, vpcId, peeringId), judgePeering, {
    what: `VPC peering ${peeringId} to be active`,
    timeoutMs: Math.max(0, deadline - Date.now()),
    onProgress: progress,
  });
}

// ---------------------------------------------------------------------------------------
// Create: never a duplicate
// ---------------------------------------------------------------------------------------

/** True when `record` connects to the peer `want` names (account, region and VPC). */
function isSamePeer(record: PeeringRecord, want: VpcPeeringInputs): boolean {
  return (
    record.peer_account_id === want.peerAccountId &&
    record.peer_region_code === want.peerRegionCode &&
    record.peer_vpc_id === want.peerVpcId
  );
}

/**
 * Sends the create and returns the new record.
 *
 * A peering has no name, so nothing proves that an existing peering to the same peer was
 * made by this resource: adopting it could give one peering two owners, and the first
 * `destroy` would cut the other's connection. So a live (pending or active) peering to the
 * same peer is refused with import advice; a `failed` one is ignored (it connects nothing;
 * it is reported, since it keeps the VPC from being deleted). Only after an ambiguous failure
 * of our own request is a peering adopted: one to the same peer that was not there before.
 */
async function createOnce(api: MdbApi, projectId: string, want: VpcPeeringInputs): Promise<PeeringRecord> {
  const before = await api.listPeerings(projectId, want.vpcId);
  const same = before.filter((p) => isSamePeer(p, want));
  const live = same.find((p) => p.status !== "failed");
  const peer = `account ${want.peerAccountId}, region ${want.peerRegionCode}, VPC ${want.peerVpcId}`;
  if (live) {
    throw new Error(
      `VPC ${want.vpcId} already has a peering to ${peer}: ${live.id} (${live.status}). ` +
        `Adopt it with the resource option { import: "${peeringResourceId(want.vpcId, live.id)}" }, or delete it`,
    );
  }
  if (same.length > 0) {
    progress(
      `VPC ${want.vpcId} has failed peering(s) to ${peer} not managed by this resource: ` +
        `${same.map((p) => p.id).join(", ")}; delete them, or the VPC cannot be deleted`,
    );
  }
  const known = new Set(before.map((p) => p.id));
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.createPeering(projectId, want.vpcId, {
        peerAccountId: want.peerAccountId,
        peerRegionCode: want.peerRegionCode,
        peerVpcId: want.peerVpcId,
      });
    } catch (error) {
      if (!(error instanceof MdbApiError) || !error.ambiguous || attempt >= 4) throw error;
      progress(`create of a peering to ${peer} met ${error.code}; checking whether it was created`);
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      const made = (await api.listPeerings(projectId, want.vpcId)).find(
        (p) => isSamePeer(p, want) && !known.has(p.id),
      );
      if (made) return made;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Provider implementation
// ---------------------------------------------------------------------------------------

function asInputs(raw: Record<string, unknown>): VpcPeeringInputs {
  return VpcPeeringInputsSchema.parse(raw);
}

/** The provider functions of {@link VpcPeering}; loaded in the provider host by {@link lazyProvider}. */
export const impl = {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req.config);
  },

  async check(
    _olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<pulumi.dynamic.CheckResult> {
    return checkInputs(VpcPeeringInputsSchema, news);
  },

  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return diffPeering(olds, news);
  },

  async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
    const adopted = await adoptIfImported(impl, "VPC peering", inputs);
    if (adopted) return adopted;
    const want = asInputs(inputs);
    const api = getApi();
    const projectId = await resolveProjectId(want.projectId);
    const deadline = Date.now() + timeoutsOf(inputs).create;
    const created = await createOnce(api, projectId, want);
    const id = peeringResourceId(want.vpcId, created.id);
    progress(
      `VPC peering ${created.id} of VPC ${want.vpcId} requested (${created.status}); waiting until active`,
    );
    // From here the peering exists: a failure keeps it in the stack, so `destroy` removes it.
    return withPartialState(
      id,
      inputs,
      async () => {
        const record = await waitForActive(api, projectId, want.vpcId, created.id, deadline);
        return { id, outs: stateOf(peeringOutputs(record, want.vpcId, projectId), inputs) };
      },
      async () =>
        stateOf(
          peeringOutputs(await api.getPeering(projectId, want.vpcId, created.id), want.vpcId, projectId),
          inputs,
        ),
    );
  },

  async read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
    const ref = parsePeeringId(id, props?.vpcId as string | undefined);
    const api = getApi();
    const projectId = await resolveProjectId(ref.projectId ?? (props?.projectId as string | undefined));
    const record = await unlessGone(api.getPeering(projectId, ref.vpcId, ref.peeringId));
    if (!record) return {};
    const outs = peeringOutputs(record, ref.vpcId, projectId);
    return {
      id: peeringResourceId(ref.vpcId, record.id),
      props: stateOf(outs, props ?? {}),
      inputs: inputsOf(outs, props?.[PROJECT_INPUT]),
    };
  },

  /**
   * Every input change replaces a peering, so the engine calls update only to finish a create
   * that did not (a peering still pending when the create's wait ran out): wait until active.
   */
  async update(
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<pulumi.dynamic.UpdateResult> {
    const ref = parsePeeringId(id, olds.vpcId as string | undefined);
    const api = getApi();
    const projectId = await resolveProjectId((olds.projectId as string | undefined) ?? ref.projectId);
    const deadline = Date.now() + timeoutsOf(news).update;
    const look = async () =>
      stateOf(
        peeringOutputs(await api.getPeering(projectId, ref.vpcId, ref.peeringId), ref.vpcId, projectId),
        news,
      );
    return withPartialState(
      id,
      news,
      async () => {
        await waitForActive(api, projectId, ref.vpcId, ref.peeringId, deadline);
        return { outs: await look() };
      },
      look,
    );
  },

  async delete(id: string, props: Record<string, unknown>): Promise<void> {
    const ref = parsePeeringId(id, props.vpcId as string | undefined);
    const api = getApi();
    const projectId = await resolveProjectId((props.projectId as string | undefined) ?? ref.projectId);
    try {
      await api.deletePeering(projectId, ref.vpcId, ref.peeringId);
    } catch (error) {
      if (isGone(error)) return;
      throw error;
    }
    await waitUntilGone(
      () => api.getPeering(projectId, ref.vpcId, ref.peeringId),
      `VPC peering ${ref.peeringId} to be deleted`,
      timeoutsOf(props).delete,
    );
  },
};

// ---------------------------------------------------------------------------------------
// Resource class
// ---------------------------------------------------------------------------------------

/**
 * A peering from a VPC to a peer VPC of another account. Creation waits until it is active;
 * a `failed` peering fails the create but stays in the stack (and is replaced by the next
 * `pulumi up`). Replacements always delete the old peering first. The Pulumi id is
 * `vpcId/peeringId`; import with that id (or `projectId/vpcId/peeringId`).
 */
export class VpcPeering extends pulumi.dynamic.Resource {
  /** Id of the peering. */
  declare readonly peeringId: pulumi.Output<string>;
  /** Id of the VPC it peers from. */
  declare readonly vpcId: pulumi.Output<string>;
  /** Project of the VPC. */
  declare readonly projectId: pulumi.Output<string>;
  /** Account of the peer. */
  declare readonly peerAccountId: pulumi.Output<string>;
  /** Region code of the peer. */
  declare readonly peerRegionCode: pulumi.Output<string>;
  /** VPC id of the peer. */
  declare readonly peerVpcId: pulumi.Output<string>;
  /** Id the cloud gave the connection once provisioned. */
  declare readonly provisionedId: pulumi.Output<string | undefined>;
  /** pending, active or failed. */
  declare readonly status: pulumi.Output<string>;
  /** Why the peering failed, when it did. */
  declare readonly errorMessage: pulumi.Output<string | undefined>;

  constructor(name: string, args: VpcPeeringArgs, opts?: pulumi.CustomResourceOptions) {
    const { props, opts: rest } = registration(name, args, opts, { outputs: OUTPUT_NAMES, autoName: false });
    // Two peerings to one peer at once make no sense: replacements delete the old one first.
    super(
      lazyProvider("vpc-peering"),
      name,
      props,
      { ...rest, deleteBeforeReplace: true },
      "mdb",
      "VpcPeering",
    );
  }
}

const OUTPUT_NAMES = ["peeringId", "projectId", "provisionedId", "status", "errorMessage"];
