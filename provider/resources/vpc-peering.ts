/**
 * `VpcPeering`: a peering connection from a VPC to a VPC of another account. What is its own:
 * args, diff rules (every input replaces it, deleting the old one first; a `failed` one is
 * replaced too), record -> outputs, the wait until active, and its identity (the peer: it has
 * no name). The kit does the rest.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { VpcPeering as PeeringRecord } from "../client/schemas";
import { unlessGone } from "../kit/delete";
import { DiffRule, PROJECT_DIFF_RULE } from "../kit/diff";
import { legacyEntry } from "../kit/entry";
import { nonEmpty, projectIdField } from "../kit/fields";
import { resourceProvider } from "../kit/lifecycle";
import { SpecResource } from "../kit/register";
import type { ResourceOps, ResourceSpec } from "../kit/spec";
import { PollVerdict, waitUntil } from "../kit/wait";

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

const VpcPeeringFieldsSchema = z.object({
  projectId: projectIdField,
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

/** Every input of a peering: the API has no call that changes one. */
const PEERING_REPLACE: DiffRule = { change: "replace", why: "the API cannot change a peering" };

/** Diff rules of a peering: every input replaces it. */
export const VPC_PEERING_DIFF_RULES: Record<keyof VpcPeeringInputs, DiffRule> = {
  projectId: PROJECT_DIFF_RULE,
  vpcId: PEERING_REPLACE,
  peerAccountId: PEERING_REPLACE,
  peerRegionCode: PEERING_REPLACE,
  peerVpcId: PEERING_REPLACE,
};

/**
 * The facts of {@link VpcPeering} that the kit reads. Two peerings to one peer at once make no
 * sense, so replacements delete the old one first; a peering observed `failed` cannot be
 * repaired, so the next `pulumi up` replaces it with a new attempt.
 */
export const VPC_PEERING_SPEC: ResourceSpec<"vpcId" | "peeringId"> = {
  kind: "vpc-peering",
  typeName: "VpcPeering",
  label: "VPC peering",
  inputs: VpcPeeringInputsSchema,
  diffRules: VPC_PEERING_DIFF_RULES,
  stables: ["peeringId", "vpcId", "projectId"],
  failedStatus: "failed",
  deleteBeforeReplace: true,
  id: { label: "VPC peering", parts: ["vpcId", "peeringId"] },
  naming: "none",
  outputNames: ["peeringId", "projectId", "provisionedId", "status", "errorMessage"],
};

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

/** The peer a peering connects to, for messages. */
function peerOf(want: VpcPeeringInputs): string {
  return `account ${want.peerAccountId}, region ${want.peerRegionCode}, VPC ${want.peerVpcId}`;
}

const VPC_PEERING_OPS: ResourceOps<
  VpcPeeringInputs,
  VpcPeeringOutputs,
  PeeringRecord,
  "vpcId" | "peeringId"
> = {
  find: (api, ref) => unlessGone(api.getPeering(ref.projectId, ref.vpcId, ref.peeringId)),
  recordId: (record) => record.id,
  outputs: (record, ref) => peeringOutputs(record, ref.vpcId, ref.projectId),
  // Every input change replaces a peering, so the engine calls update only to finish a create
  // that did not (a peering still pending when the create's wait ran out): wait until active.
  settle: ({ api, ref, deadline }, record) =>
    record.status === "active"
      ? Promise.resolve(record)
      : waitUntil(
          () => api.getPeering(ref.projectId, ref.vpcId, ref.peeringId),
          judgePeering,
          `VPC peering ${ref.peeringId} to be active`,
          deadline,
        ),
  // A peering has no name, so nothing proves that an existing live peering to the same peer was
  // made by this resource: adopting it unasked could give one peering two owners, and the first
  // `destroy` would cut the other's connection. So it is adopted only with mdb:adoptExisting,
  // else refused with advice; a `failed` one connects nothing and is only reported (it keeps
  // the VPC from being deleted).
  create: {
    what: (want) => `VPC peering to ${peerOf(want)}`,
    list: ({ api, ref }) => api.listPeerings(ref.projectId, ref.vpcId),
    same: (record, want) =>
      record.peer_account_id === want.peerAccountId &&
      record.peer_region_code === want.peerRegionCode &&
      record.peer_vpc_id === want.peerVpcId,
    identity: "VPC, peer account, peer region and peer VPC",
    live: (record) => record.status !== "failed",
    send: ({ api, ref }, want) =>
      api.createPeering(ref.projectId, ref.vpcId, {
        peerAccountId: want.peerAccountId,
        peerRegionCode: want.peerRegionCode,
        peerVpcId: want.peerVpcId,
      }),
    refusal: (found, want) =>
      `VPC ${want.vpcId} already has a peering to ${peerOf(want)}: ${found.id} (${found.status})`,
    otherwise: "delete it",
    ignored: (records, want) =>
      `VPC ${want.vpcId} has failed peering(s) to ${peerOf(want)} not managed by this resource: ` +
      `${records.map((p) => p.id).join(", ")}; delete them, or the VPC cannot be deleted`,
  },
  // Nothing is planned in place: every change is a replacement.
  calls: {
    runs: false,
    step: (step) => step,
    create: (want) => ({ op: "createPeering", detail: `to ${peerOf(want)}` }),
    created: (want) => ({ ...want }) as VpcPeeringOutputs,
    remove: () => [{ op: "deletePeering" }],
  },
  remove: (api, ref) => api.deletePeering(ref.projectId, ref.vpcId, ref.peeringId),
};

/** The provider functions of {@link VpcPeering}, as the dispatch map in `../host.ts` holds them. */
export const VPC_PEERING_PROVIDER = resourceProvider(VPC_PEERING_SPEC, VPC_PEERING_OPS);

/**
 * STATE CONTRACT (see `../kit/entry.ts`): stacks written by 0.1.0 load this module,
 * `dist/provider/resources/vpc-peering`, and call its `impl`. Never move, rename or remove it.
 */
export const impl = legacyEntry("vpc-peering");

/**
 * A peering from a VPC to a peer VPC of another account. Creation waits until it is active;
 * a `failed` peering fails the create but stays in the stack (and is replaced by the next
 * `pulumi up`). Replacements always delete the old peering first. The Pulumi id is
 * `vpcId/peeringId`; import with that id (or `projectId/vpcId/peeringId`).
 */
export class VpcPeering extends SpecResource {
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
    super(VPC_PEERING_SPEC, name, args, opts);
  }
}
