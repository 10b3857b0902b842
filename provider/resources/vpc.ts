/**
 * `Vpc`: a virtual private cloud that services attach to and peerings connect. What is its
 * own: args, the CIDR rule, diff rules (only the name changes in place), record -> outputs,
 * the create and delete calls; the kit does the rest. A VPC is created synchronously (201
 * with the record), and a delete refused while it is in use is tried again.
 */
import * as pulumi from "@pulumi/pulumi";
import * as ipaddr from "ipaddr.js";
import { z } from "zod";
import type { MdbApi } from "../client/api";
import type { BackoffPolicy } from "../client/backoff";
import type { Vpc as VpcRecord } from "../client/schemas";
import type { Blocker } from "../kit/blockers";
import { unlessGone } from "../kit/delete";
import { DiffRule, PROJECT_DIFF_RULE } from "../kit/diff";
import { legacyEntry } from "../kit/entry";
import { nonEmpty, projectIdField, resourceName } from "../kit/fields";
import { resourceProvider } from "../kit/lifecycle";
import { SpecResource } from "../kit/register";
import type { ResourceRef } from "../kit/ids";
import { DELETION_PROTECTION_RULE, deletionProtectionField, keptSettings } from "../kit/settings";
import type { ResourceOps, ResourceSpec } from "../kit/spec";
import { progress } from "../runtime";

/** Inputs of a {@link Vpc}. */
export interface VpcArgs {
  /** Project of the VPC. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId?: pulumi.Input<string>;
  /**
   * Name of the VPC, 1 to 128 characters. Default: the Pulumi resource name plus a stable suffix (so a re-run
   * finds a VPC an interrupted run created). Change: in place (rename).
   */
  name?: pulumi.Input<string>;
  /** IPv4 block in CIDR notation, written at its network address, e.g. `10.0.0.0/16`. Change: replace. */
  cidr: pulumi.Input<string>;
  /** Region code, e.g. `us-east-1`; services attach only to a VPC of their region. Change: replace. */
  regionCode: pulumi.Input<string>;
  /**
   * While true, deleting the VPC (`pulumi destroy`, a replacement, removing it from the
   * program) fails before any API call. Default false. Change: in place, no API call; to
   * delete a protected VPC, set it false and run `pulumi up` first.
   */
  deletionProtection?: pulumi.Input<boolean>;
}

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

const VpcFieldsSchema = z.object({
  projectId: projectIdField,
  name: resourceName,
  cidr: z.string().superRefine((cidr, ctx) => {
    const problem = ipv4CidrProblem(cidr);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  regionCode: nonEmpty,
  deletionProtection: deletionProtectionField,
});

/** Validation of the inputs; hidden inputs pass through. */
export const VpcInputsSchema = VpcFieldsSchema.loose();

/** Inputs after check. */
export type VpcInputs = z.output<typeof VpcFieldsSchema>;

/** Outputs of the provider: the observed VPC, named like the inputs. */
export interface VpcOutputs extends Omit<VpcInputs, "deletionProtection"> {
  /** Whether deletes are refused; absent in states written before 0.2.0 (false). */
  deletionProtection?: boolean;
  /** Id of the VPC. */
  vpcId: string;
  /** Project of the VPC, resolved. */
  projectId: string;
}

/** Diff rules of a VPC: the name is renamed in place, the rest replaces it. */
export const VPC_DIFF_RULES: Record<keyof VpcInputs, DiffRule> = {
  projectId: PROJECT_DIFF_RULE,
  name: { change: "update" },
  cidr: { change: "replace" },
  regionCode: { change: "replace" },
  deletionProtection: DELETION_PROTECTION_RULE,
};

/** The facts of {@link Vpc} that the kit reads. */
export const VPC_SPEC: ResourceSpec<"vpcId"> = {
  kind: "vpc",
  typeName: "Vpc",
  label: "VPC",
  inputs: VpcInputsSchema,
  diffRules: VPC_DIFF_RULES,
  stables: ["vpcId", "projectId"],
  id: { label: "VPC", parts: ["vpcId"] },
  naming: "generated",
  outputNames: ["projectId", "deletionProtection"],
};

/** Inputs of a VPC that only the stack keeps: no record shows them, no call carries them. */
const VPC_SETTINGS = ["deletionProtection"] as const;

/** The outputs a VPC record shows; the record does not name its project; `kept`: the settings. */
export function vpcOutputs(
  record: VpcRecord,
  projectId: string,
  kept: Partial<Pick<VpcOutputs, "deletionProtection">> = {},
): VpcOutputs {
  return {
    vpcId: record.id,
    projectId,
    name: record.name,
    cidr: record.cidr,
    regionCode: record.region_code,
    deletionProtection: kept.deletionProtection,
  };
}

/** One API action of an update. */
export type VpcStep = { action: "rename"; name: string };

/** The actions that bring the observed VPC `have` to `want`: a rename when the name differs. */
export function planVpcUpdate(have: VpcOutputs, want: VpcInputs): VpcStep[] {
  return have.name !== want.name ? [{ action: "rename", name: want.name }] : [];
}

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
      .filter((s) => s.vpcEndpoint?.vpc_id === ref.vpcId)
      .map((s) => ({
        what: `service ${s.service_id} (${s.name}, ${s.status})`,
        deleting: s.status === "DELETING" || s.status === "DELETED",
      })),
  ];
}

const VPC_OPS: ResourceOps<VpcInputs, VpcOutputs, VpcRecord, "vpcId", VpcStep> = {
  find: (api, ref) => unlessGone(api.getVpc(ref.projectId, ref.vpcId)),
  recordId: (record) => record.id,
  outputs: (record, ref, memory) => vpcOutputs(record, ref.projectId, memory),
  remember: ({ olds, want }) => keptSettings(VPC_SETTINGS, { olds, want }),
  plan: planVpcUpdate,
  async run({ api, ref }, steps) {
    let record: VpcRecord | undefined;
    for (const step of steps) {
      progress(`VPC ${ref.vpcId}: ${step.action} to ${step.name}`);
      record = await api.renameVpc(ref.projectId, ref.vpcId, step.name);
    }
    return record;
  },
  create: {
    what: (want) => `VPC ${want.name}`,
    list: ({ api, ref }) => api.listVpcs(ref.projectId),
    // Identity: same name, block and region in the project.
    same: (record, want) =>
      record.name === want.name && record.cidr === want.cidr && record.region_code === want.regionCode,
    identity: "name, CIDR block and region",
    send: ({ api, ref }, want) =>
      api.createVpc(ref.projectId, { name: want.name, cidr: want.cidr, regionCode: want.regionCode }),
    refusal: (found, want, { ref }) =>
      `a VPC named "${want.name}" (${want.cidr}, ${want.regionCode}) already exists in project ` +
      `${ref.projectId} with id ${found.id}`,
    otherwise: "choose another name",
  },
  calls: {
    runs: false,
    step: (step, have) => ({ op: "renameVpc", detail: `${have.name} → ${step.name}` }),
    create: (want) => ({ op: "createVpc", detail: `${want.name} ${want.cidr}` }),
    // The create carries every input the API knows.
    created: (want) => ({ ...want }) as VpcOutputs,
    remove: () => [{ op: "deleteVpc" }],
  },
  remove: (api, ref) => api.deleteVpc(ref.projectId, ref.vpcId),
  removedAtOnce: true,
  // A 409 means a service or peering still uses it: worth waiting for only while it is deleting.
  whileInUse: {
    poll: VPC_DELETE_RETRY,
    advice: "Detach the services attached to it and delete its peerings",
  },
  blockers: vpcBlockers,
};

/** The provider functions of {@link Vpc}, as the dispatch map in `../host.ts` holds them. */
export const VPC_PROVIDER = resourceProvider(VPC_SPEC, VPC_OPS);

/**
 * STATE CONTRACT (see `../kit/entry.ts`): stacks written by 0.1.0 load this module,
 * `dist/provider/resources/vpc`, and call its `impl`. Never move, rename or remove it.
 */
export const impl = legacyEntry("vpc");

/**
 * A VPC. Created at once. Deleting waits (up to the delete timeout) while the services or
 * peerings that use it are being deleted, and fails within about 10 s, naming them, when they
 * are not. Import with the VPC id (or `projectId/vpcId`).
 */
export class Vpc extends SpecResource {
  /** Id of the VPC. */
  declare readonly vpcId: pulumi.Output<string>;
  /** Project of the VPC. */
  declare readonly projectId: pulumi.Output<string>;
  /** Name of the VPC. */
  declare readonly name: pulumi.Output<string>;
  /** IPv4 block in CIDR notation. */
  declare readonly cidr: pulumi.Output<string>;
  /** Region code. */
  declare readonly regionCode: pulumi.Output<string>;
  /** Whether deletes are refused (see {@link VpcArgs.deletionProtection}). */
  declare readonly deletionProtection: pulumi.Output<boolean>;

  constructor(name: string, args: VpcArgs, opts?: pulumi.CustomResourceOptions) {
    super(VPC_SPEC, name, args, opts);
    // The VPC id never changes in place. Taken from the resource id, it stays known while a
    // rename is previewed, so services and peerings in the VPC do not show a spurious change.
    this.vpcId = this.id;
  }
}
