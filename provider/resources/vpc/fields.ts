/**
 * `Vpc`, declared: its field table (every input and output once; the row's doc comment is its
 * documentation) and its facts. Only the name changes in place (renameVpc); the block and the
 * region replace it.
 */
import * as ipaddr from "ipaddr.js";
import { z } from "zod";
import type { Vpc as VpcRecord } from "../../client/schemas";
import { type InputsOf, type OutputsOf, type ResourceDefinition, rowsOf } from "../../kit/fields/field-table";
import { DELETION_PROTECTION_ROW, PROJECT_ID_ROW } from "../../kit/fields/rows";
import { nonEmpty, resourceName } from "../../kit/fields/rules";

const { input, name, output } = rowsOf<VpcRecord>();

/**
 * Why `text` is not a usable IPv4 block, or undefined when it is: it must be `a.b.c.d/n` in
 * plain decimal with a prefix of 0..32, and the address must be the block's network address
 * (`10.0.0.1/16` is refused: it means `10.0.0.0/16`).
 */
export function ipv4CidrProblem(text: string): string | undefined {
  let address: ipaddr.IPv4;
  let prefix: number;
  try {
    [address, prefix] = ipaddr.IPv4.parseCIDR(text);
  } catch {
    return "must be an IPv4 block in CIDR notation, e.g. 10.0.0.0/16";
  }
  // ipaddr.js also reads octal, hex and short forms (`010.0.0.0/8`, `10.0/8`); refuse them.
  if (`${address.toString()}/${prefix}` !== text)
    return "must be written a.b.c.d/n in plain decimal, e.g. 10.0.0.0/16";
  const network = ipaddr.IPv4.networkAddressFromCIDR(text).toString();
  if (network !== address.toString())
    return `has host bits set: write the block's network address, ${network}/${prefix}`;
  return undefined;
}

/** An IPv4 block the API takes, at its network address. */
const cidrField = z.string().superRefine((cidr, ctx) => {
  const problem = ipv4CidrProblem(cidr);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** The field table of {@link Vpc}. */
export const VPC_FIELDS = {
  /** Id of the VPC. */
  vpcId: output(z.string(), { stable: true, fromId: true, read: (r) => r.id }),
  /** Project of the VPC. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId: PROJECT_ID_ROW,
  /**
   * Name of the VPC, 1 to 128 characters. Default: the Pulumi resource name plus a stable suffix (so a re-run
   * finds a VPC an interrupted run created). Change: in place (renameVpc).
   */
  name: name(resourceName, { update: ["renameVpc"] }, { read: (r) => r.name }),
  /** IPv4 block in CIDR notation, written at its network address, e.g. `10.0.0.0/16`. Change: replace. */
  cidr: input(cidrField, { replace: true }, { read: (r) => r.cidr }),
  /** Region code, e.g. `us-east-1`; services attach only to a VPC of their region. Change: replace. */
  regionCode: input(nonEmpty, { replace: true }, { read: (r) => r.region_code }),
  /**
   * While true, deleting the VPC (`pulumi destroy`, a replacement, removing it from the
   * program) fails before any API call. Default false. Change: in place, no API call; to
   * delete a protected VPC, set it false and run `pulumi up` first. A destroy reaches it only
   * after deleting what depends on it and beside the rest: with Pulumi's option `protect: true`
   * on every resource of the stack, `pulumi destroy` refuses before it deletes anything.
   */
  deletionProtection: DELETION_PROTECTION_ROW,
};

/**
 * A VPC. Created at once. Deleting waits (up to the delete timeout) while the services or
 * peerings that use it are being deleted, and fails within about 10 s, naming them, when they
 * are not. Import with the VPC id (or `projectId/vpcId`).
 */
export const VPC: ResourceDefinition<typeof VPC_FIELDS, "vpcId"> = {
  kind: "vpc",
  typeName: "Vpc",
  label: "VPC",
  summary: "A VPC that services attach to and peerings connect.",
  id: { label: "VPC", parts: ["vpcId"] },
  naming: "generated",
  fields: VPC_FIELDS,
};

/** Inputs of a VPC after check. */
export type VpcInputs = InputsOf<typeof VPC_FIELDS>;
/** Outputs of a VPC, as the provider reports them. */
export type VpcOutputs = OutputsOf<typeof VPC_FIELDS>;
