/**
 * The provider functions of `Vpc`: its own API calls, run by the kit. A VPC is created
 * synchronously (201 with the record), and a delete refused while it is in use is tried again.
 */
import type { MdbApi } from "../../client/api";
import type { BackoffPolicy } from "../../client/backoff";
import { isLeavingService, vpcIdOf } from "../../client/readings";
import type { Vpc as VpcRecord } from "../../client/schemas";
import type { Blocker } from "../../kit/lifecycle/blockers";
import { unlessGone } from "../../kit/lifecycle/delete";
import type { ResourceRef } from "../../kit/fields/ids";
import type { ResourceOps } from "../../kit/spec";
import { type VpcInputs, type VpcOutputs } from "./fields";
import { planVpc } from "./plan";

/** How often a delete refused with 409 (VPC in use) is tried again: 0.5 s growing to 5 s. */
export const VPC_DELETE_RETRY: BackoffPolicy = { initialMs: 500, maxMs: 5_000, factor: 2, jitter: 0.3 };

/** The peerings of a VPC and the services attached to it: what keeps it from being deleted. */
async function vpcBlockers(api: MdbApi, ref: ResourceRef<"vpcId">): Promise<Blocker[]> {
  const [peerings, services] = await Promise.all([
    unlessGone(api.listPeerings(ref.projectId, ref.vpcId)),
    api.listServices(ref.projectId),
  ]);
  return [
    ...(peerings ?? []).map((p) => ({
      what:
        `peering ${p.id} (${p.status}, to account ${p.peer_account_id}, region ${p.peer_region_code}, ` +
        `VPC ${p.peer_vpc_id})`,
      deleting: /^delet/i.test(p.status),
    })),
    ...services
      .filter((s) => vpcIdOf(s) === ref.vpcId)
      .map((s) => ({
        what: `service ${s.service_id} (${s.name}, ${s.status})`,
        deleting: isLeavingService(s),
      })),
  ];
}

/** Its own API calls and records. */
export const OPS: ResourceOps<VpcInputs, VpcOutputs, VpcRecord, "vpcId"> = {
  find: (api, ref) => unlessGone(api.getVpc(ref.projectId, ref.vpcId)),
  recordId: (record) => record.id,
  plan: planVpc,
  create: {
    what: (want) => `VPC ${want.name}`,
    list: ({ api, ref }) => api.listVpcs(ref.projectId),
    // Identity: same name, block and region in the project.
    same: (record, want) =>
      record.name === want.name && record.cidr === want.cidr && record.region_code === want.regionCode,
    identity: "name, CIDR block and region",
    key: { property: "name", of: (want) => [want.name, want.cidr, want.regionCode] },
    send: ({ api, ref }, want) =>
      api.createVpc(ref.projectId, { name: want.name, cidr: want.cidr, regionCode: want.regionCode }),
    refusal: (found, want, { ref }) =>
      `a VPC named "${want.name}" (${want.cidr}, ${want.regionCode}) already exists in project ` +
      `${ref.projectId} with id ${found.id}`,
    otherwise: "choose another name",
  },
  calls: {
    runs: false,
    create: (want) => ({ op: "createVpc", detail: `${want.name} ${want.cidr}` }),
    remove: () => [{ op: "deleteVpc" }],
  },
  remove: "deleteVpc",
  removedAtOnce: true,
  // A 409 means a service or peering still uses it: worth waiting for only while it is deleting.
  whileInUse: {
    poll: VPC_DELETE_RETRY,
    advice: "Detach the services attached to it and delete its peerings",
  },
  blockers: vpcBlockers,
};
