/**
 * `VpcPeering`, declared: its field table and facts. The API has no call that changes a
 * peering, so every input replaces it; two peerings to one peer at once make no sense, so a
 * replacement deletes the old one first; a peering observed `failed` cannot be repaired, so the
 * next `pulumi up` replaces it with a new attempt.
 */
import { z } from "zod";
import type { VpcPeering as PeeringRecord } from "../../client/schemas";
import { type InputsOf, type OutputsOf, type ResourceDefinition, rowsOf } from "../../kit/fields/field-table";
import { PROJECT_ID_ROW } from "../../kit/fields/rows";
import { nonEmpty } from "../../kit/fields/rules";

const { input, output } = rowsOf<PeeringRecord>();

/** Every input of a peering: the API has no call that changes one. */
const REPLACE = { replace: "the API cannot change a peering" } as const;

/** The field table of {@link VpcPeering}. */
export const VPC_PEERING_FIELDS = {
  /** Id of the peering. */
  peeringId: output(z.string(), { stable: true, read: (r) => r.id }),
  /** Project of the VPC. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId: PROJECT_ID_ROW,
  /**
   * Id of the VPC (of this API) to peer from. Checked before anything is created (at preview
   * too, when the id is known): a VPC that does not exist fails. Change: replace.
   */
  vpcId: input(nonEmpty, REPLACE, { stable: true, read: (_r, ref) => ref.vpcId }),
  /** Account that owns the peer VPC. Change: replace. */
  peerAccountId: input(nonEmpty, REPLACE, { read: (r) => r.peer_account_id }),
  /** Region code of the peer VPC. Change: replace. */
  peerRegionCode: input(nonEmpty, REPLACE, { read: (r) => r.peer_region_code }),
  /** Id of the peer VPC in its own cloud. Change: replace. */
  peerVpcId: input(nonEmpty, REPLACE, { read: (r) => r.peer_vpc_id }),
  /** Id the cloud gave the connection once provisioned. */
  provisionedId: output(z.string().optional(), { read: (r) => r.provisioned_id ?? undefined }),
  /** pending, active or failed. */
  status: output(z.string(), { read: (r) => r.status }),
  /** Why the peering failed, when it did. */
  errorMessage: output(z.string().optional(), { read: (r) => r.error_message ?? undefined }),
};

/**
 * A peering from a VPC to a peer VPC of another account. Creation waits until it is active;
 * a `failed` peering fails the create but stays in the stack (and is replaced by the next
 * `pulumi up`). Replacements always delete the old peering first. The Pulumi id is
 * `vpcId/peeringId`; import with that id (or `projectId/vpcId/peeringId`).
 */
export const VPC_PEERING: ResourceDefinition<typeof VPC_PEERING_FIELDS, "vpcId" | "peeringId"> = {
  kind: "vpc-peering",
  typeName: "VpcPeering",
  label: "VPC peering",
  summary: "A peering connection from a VPC to a VPC of another account.",
  id: { label: "VPC peering", parts: ["vpcId", "peeringId"], parent: "vpc" },
  naming: "none",
  fields: VPC_PEERING_FIELDS,
  failedStatus: "failed",
  deleteBeforeReplace: true,
};

/** Inputs of a peering after check. */
export type VpcPeeringInputs = InputsOf<typeof VPC_PEERING_FIELDS>;
/** Outputs of a peering, as the provider reports them. */
export type VpcPeeringOutputs = OutputsOf<typeof VPC_PEERING_FIELDS>;
