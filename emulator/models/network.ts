/**
 * The VPCs and VPC peerings of the emulated service (moto's "models"): one method per operation,
 * named like it in api/operations.ts.
 */
import type {
  CreatePeeringRequest,
  CreateVpcRequest,
  RenameVpcRequest,
  Vpc,
  VpcPeering,
} from "../../api/schemas";
import { DEFAULT_REGION_CODE } from "../defaults";
import { conflict } from "../errors";
import { newPeeringId, newProvisionedId, newVpcId } from "../ids";
import { beginPeering } from "../lifecycle";
import type { PeeringData, VpcData } from "../store";
import { peeringView, vpcView } from "../views";
import type { State } from "./state";

/** Peers whose VPC id starts with this cannot be reached: their peerings end `failed`. */
export const UNREACHABLE_PEER_PREFIX = "unreachable";

/** The VPC and peering operations of the emulated service. */
export class NetworkModel {
  constructor(private readonly state: State) {}

  /** Every VPC of the project, oldest first. */
  listVpcs(projectId: string): Vpc[] {
    return this.state.project(projectId).vpcs.map(vpcView);
  }

  /** Creates a VPC, in the default region when the request names none; it is usable at once. */
  createVpc(projectId: string, body: CreateVpcRequest): Vpc {
    const vpc: VpcData = {
      id: newVpcId(this.state.dialect),
      name: body.name,
      cidr: body.cidr,
      region_code: body.region_code ?? DEFAULT_REGION_CODE,
      peerings: [],
    };
    this.state.project(projectId).vpcs.push(vpc);
    this.state.commit();
    return vpcView(vpc);
  }

  /** One VPC. */
  getVpc(projectId: string, vpcId: string): Vpc {
    return vpcView(this.state.vpc(projectId, vpcId));
  }

  /** Renames a VPC. */
  renameVpc(projectId: string, vpcId: string, body: RenameVpcRequest): Vpc {
    const vpc = this.state.vpc(projectId, vpcId);
    vpc.name = body.name;
    this.state.commit();
    return vpcView(vpc);
  }

  /** Deletes a VPC that no service uses (attached, attaching or detaching) and that has no peerings. */
  deleteVpc(projectId: string, vpcId: string): void {
    const project = this.state.project(projectId);
    const vpc = this.state.vpc(projectId, vpcId);
    const users = project.services.filter(
      (s) => s.attached_vpc_id === vpcId || s.vpcEndpoint?.vpc_id === vpcId,
    );
    if (users.length > 0) {
      throw conflict(`VPC ${vpcId} is in use by service ${users.map((s) => s.service_id).join(", ")}`);
    }
    if (vpc.peerings.length > 0) {
      throw conflict(
        `VPC ${vpcId} has peerings ${vpc.peerings.map((p) => p.id).join(", ")}; delete them first`,
      );
    }
    project.vpcs = project.vpcs.filter((v) => v !== vpc);
    this.state.commit();
  }

  /** The peerings of a VPC. */
  listPeerings(projectId: string, vpcId: string): VpcPeering[] {
    return this.state.vpc(projectId, vpcId).peerings.map(peeringView);
  }

  /**
   * Requests a peering: pending, then active with a `provisioned_id`, or failed with an
   * `error_message` when the peer VPC id starts with `unreachable`.
   */
  createPeering(projectId: string, vpcId: string, body: CreatePeeringRequest): VpcPeering {
    const vpc = this.state.vpc(projectId, vpcId);
    const peering: PeeringData = {
      id: newPeeringId(this.state.dialect),
      peer_account_id: body.peer_account_id,
      peer_region_code: body.peer_region_code,
      peer_vpc_id: body.peer_vpc_id,
      status: "pending",
      provisioned_id: null,
      error_message: null,
      steps: [],
    };
    const outcome = body.peer_vpc_id.startsWith(UNREACHABLE_PEER_PREFIX)
      ? {
          error_message:
            `peer VPC ${body.peer_vpc_id} of account ${body.peer_account_id} in ${body.peer_region_code}` +
            " cannot be reached",
        }
      : { provisioned_id: newProvisionedId() };
    beginPeering(peering, this.state.now(), this.state.transitionMs, outcome);
    vpc.peerings.push(peering);
    this.state.commit();
    return peeringView(peering);
  }

  /** One peering of a VPC. */
  getPeering(projectId: string, vpcId: string, peeringId: string): VpcPeering {
    return peeringView(this.state.peering(projectId, vpcId, peeringId));
  }

  /** Deletes a peering, at once, whatever its status. */
  deletePeering(projectId: string, vpcId: string, peeringId: string): void {
    const vpc = this.state.vpc(projectId, vpcId);
    const peering = this.state.peering(projectId, vpcId, peeringId);
    vpc.peerings = vpc.peerings.filter((p) => p !== peering);
    this.state.commit();
  }
}
