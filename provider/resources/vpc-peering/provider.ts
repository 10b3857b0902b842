/**
 * The provider functions of `VpcPeering`: its own API calls, run by the kit: the wait until
 * active, and its identity (the peer: it has no name).
 */
import type { VpcPeering as PeeringRecord } from "../../client/schemas";
import { unlessGone } from "../../kit/lifecycle/delete";
import type { CheckContext, Props, ResourceOps } from "../../kit/spec";
import { judgeStatus, phaseOf } from "../../kit/lifecycle/statuses";
import { PollVerdict, waitUntil } from "../../kit/lifecycle/wait";
import { existingVpc, lookupDue } from "../../kit/lifecycle/lookups";
import { type VpcPeeringInputs, type VpcPeeringOutputs } from "./fields";
import { planVpcPeering } from "./plan";

/**
 * Verdict on a peering awaited to be active: pending is progress, `failed` a failed terminal
 * state (quoting the API's reason), any other status unexpected.
 */
export const judgePeering: (record: PeeringRecord) => PollVerdict = judgeStatus<PeeringRecord>({
  settled: "active",
  inProgress: ["pending"],
  failed: {
    failed: (record) =>
      `the API reports peering ${record.id} failed: ${record.error_message || "no reason given"}. ` +
      "Run `pulumi up` again to replace it with a new attempt, or `pulumi destroy` to remove it",
  },
});

/** The peer a peering connects to, for messages. */
function peerOf(want: VpcPeeringInputs): string {
  return `account ${want.peerAccountId}, region ${want.peerRegionCode}, VPC ${want.peerVpcId}`;
}

/** Check-time lookup of the peering's own VPC, when `vpcId` is known and changed: it must exist. */
async function verifyVpc(ctx: CheckContext, want: VpcPeeringInputs, olds: Props) {
  if (!lookupDue(want, olds, ["vpcId"])) return [];
  const vpc = await existingVpc(ctx, ctx.projectId, want.vpcId);
  if (typeof vpc !== "string") return [];
  return [{ property: "vpcId", reason: `${vpc}; give the id of an existing VPC of this project` }];
}

/** Its own API calls and records. */
export const OPS: ResourceOps<VpcPeeringInputs, VpcPeeringOutputs, PeeringRecord, "vpcId" | "peeringId"> = {
  find: (api, ref) => unlessGone(api.getPeering(ref.projectId, ref.vpcId, ref.peeringId)),
  recordId: (record) => record.id,
  plan: planVpcPeering,
  verify: verifyVpc,
  // Every input change replaces a peering, so the engine calls update only to finish a create
  // that did not (a peering still pending when the create's wait ran out): wait until active.
  phase: (record) => phaseOf(record.status, ["active", "failed"], ["deleting"]),
  settle: (ctx, record) =>
    record.status === "active"
      ? Promise.resolve(record)
      : waitUntil(
          ctx,
          () => ctx.api.getPeering(ctx.ref.projectId, ctx.ref.vpcId, ctx.ref.peeringId),
          judgePeering,
          `VPC peering ${ctx.ref.peeringId} to be active`,
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
    key: {
      property: "peerVpcId",
      of: (want) => [want.vpcId, want.peerAccountId, want.peerRegionCode, want.peerVpcId],
    },
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
    create: (want) => ({ op: "createPeering", detail: `to ${peerOf(want)}` }),
    remove: () => [{ op: "deletePeering" }],
  },
  remove: "deletePeering",
};
