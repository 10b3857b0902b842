/**
 * `Vpc`: a virtual private cloud that services attach to and peerings connect. Inputs,
 * outputs, check, diff, CRUD and the resource class. A VPC is created synchronously (201
 * with the record); only its name can change in place (see {@link VPC_RULES}).
 */
import * as pulumi from "@pulumi/pulumi";
import * as ipaddr from "ipaddr.js";
import { z } from "zod";
import type { MdbApi } from "../client/api";
import { MdbApiError } from "../client/errors";
import type { BackoffPolicy } from "../client/backoff";
import type { Vpc as VpcRecord } from "../client/schemas";
import { configureRuntime, getApi, progress, resolveProjectId } from "../runtime";
import { WaitError, formatDuration, waitFor } from "../wait";
import { checkInputs } from "./check";
import { withoutUndefined } from "./clean";
import { DiffRule, diffByRules } from "./diff";
import { adoptIfImported } from "./adopt";
import { isGone, unlessGone } from "./gone";
import { lazyProvider } from "./lazy";
import { registration } from "./register";
import { PROJECT_INPUT, stateOf, timeoutsOf } from "./timeouts";

// ---------------------------------------------------------------------------------------
// Inputs and outputs
// ---------------------------------------------------------------------------------------

/** Inputs of a {@link Vpc}. */
export interface VpcArgs {
  /** Project of the VPC. Default: `mdb:projectId`, `MDB_PROJECT_ID`, else the API key's project. Change: replace. */
  projectId?: pulumi.Input<string>;
  /**
   * Name of the VPC. Default: the Pulumi resource name plus a stable suffix (so a re-run
   * finds a VPC an interrupted run created). Change: in place (rename).
   */
  name?: pulumi.Input<string>;
  /** IPv4 block in CIDR notation, written at its network address, e.g. `10.0.0.0/16`. Change: replace. */
  cidr: pulumi.Input<string>;
  /** Region code, e.g. `us-east-1`; services attach only to a VPC of their region. Change: replace. */
  regionCode: pulumi.Input<string>;
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

const nonEmpty = z.string().trim().min(1, "must not be empty");

const VpcFieldsSchema = z.object({
  projectId: nonEmpty.optional(),
  name: nonEmpty.max(128, "must be at most 128 characters"),
  cidr: z.string({ message: "must be a string" }).superRefine((cidr, ctx) => {
    const problem = ipv4CidrProblem(cidr);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  regionCode: nonEmpty,
});

/** Validation of the inputs; hidden inputs pass through. */
export const VpcInputsSchema = VpcFieldsSchema.loose();

/** Inputs after check. */
export type VpcInputs = z.output<typeof VpcFieldsSchema>;

/** Outputs of the provider: the observed VPC, named like the inputs. */
export interface VpcOutputs extends VpcInputs {
  /** Id of the VPC. */
  vpcId: string;
  /** Project of the VPC, resolved. */
  projectId: string;
}

// ---------------------------------------------------------------------------------------
// Diff
// ---------------------------------------------------------------------------------------

/** What each input change does: the name is renamed in place, the rest replaces the VPC. */
export const VPC_RULES: Record<string, DiffRule> = {
  projectId: { change: "replace", equals: (d, o) => d === undefined || d === o },
  name: { change: "update" },
  cidr: { change: "replace" },
  regionCode: { change: "replace" },
};

// ---------------------------------------------------------------------------------------
// Mapping records to outputs
// ---------------------------------------------------------------------------------------

/** The outputs a VPC record shows; the record does not name its project. */
export function vpcOutputs(record: VpcRecord, projectId: string): VpcOutputs {
  return {
    vpcId: record.id,
    projectId,
    name: record.name,
    cidr: record.cidr,
    regionCode: record.region_code,
  };
}

/** Inputs that reproduce an observed VPC, so an imported or refreshed one shows no diff. */
function inputsOf(out: VpcOutputs, projectInput: unknown): Record<string, unknown> {
  return withoutUndefined({
    projectId: projectInput ?? undefined,
    name: out.name,
    cidr: out.cidr,
    regionCode: out.regionCode,
  });
}

/** Reads an id of a VPC: `vpcId`, or `projectId/vpcId`. */
export function parseVpcId(id: string): { projectId?: string; vpcId: string } {
  const parts = id.split("/");
  if (parts.length > 2 || parts.some((p) => p === ""))
    throw new Error(`"${id}" is not a VPC id: use "<vpcId>" or "<projectId>/<vpcId>"`);
  return parts.length === 2 ? { projectId: parts[0], vpcId: parts[1] } : { vpcId: parts[0] };
}

// ---------------------------------------------------------------------------------------
// Update plan
// ---------------------------------------------------------------------------------------

/** One API action of an update. */
export type VpcStep = { action: "rename"; name: string };

/** The actions that bring the observed VPC `have` to `want`: a rename when the name differs. */
export function planVpcUpdate(have: VpcOutputs, want: VpcInputs): VpcStep[] {
  return have.name !== want.name ? [{ action: "rename", name: want.name }] : [];
}

// ---------------------------------------------------------------------------------------
// Create: never a duplicate
// ---------------------------------------------------------------------------------------

/** True when `record` is the VPC a create with `want` would make: same name, block and region. */
function isSameVpc(record: VpcRecord, want: VpcInputs): boolean {
  return record.name === want.name && record.cidr === want.cidr && record.region_code === want.regionCode;
}

/**
 * Sends the create and returns the new record. Before sending, a VPC with the same name,
 * block and region is looked for: one an interrupted run created is adopted when the name was
 * generated by us, and refused with advice otherwise. After an ambiguous failure, the list is
 * read again before resending.
 */
async function createOnce(
  api: MdbApi,
  projectId: string,
  want: VpcInputs,
  autoNamed: boolean,
): Promise<VpcRecord> {
  const before = await api.listVpcs(projectId);
  const found = before.find((v) => isSameVpc(v, want));
  if (found) {
    if (autoNamed) {
      progress(`VPC ${want.name} already exists as ${found.id} (an interrupted run?); adopting it`);
      return found;
    }
    throw new Error(
      `a VPC named "${want.name}" (${want.cidr}, ${want.regionCode}) already exists in project ${projectId} ` +
        `with id ${found.id}. Adopt it with the resource option { import: "${found.id}" }, or choose another name`,
    );
  }
  const known = new Set(before.map((v) => v.id));
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.createVpc(projectId, {
        name: want.name,
        cidr: want.cidr,
        regionCode: want.regionCode,
      });
    } catch (error) {
      if (!(error instanceof MdbApiError) || !error.ambiguous || attempt >= 4) throw error;
      progress(`create of VPC ${want.name} met ${error.code}; checking whether it was created`);
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      const made = (await api.listVpcs(projectId)).find((v) => isSameVpc(v, want) && !known.has(v.id));
      if (made) return made;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Delete: wait while the VPC is still in use
// ---------------------------------------------------------------------------------------

/** How often a delete refused with 409 (VPC in use) is tried again: 0.5 s growing to 5 s. */
export const VPC_DELETE_RETRY: BackoffPolicy = { initialMs: 500, maxMs: 5_000, factor: 2, jitter: 0.3 };

/**
 * Deletes a VPC. 404 means already gone. 409 means a service or peering still uses it, which
 * may be a detach or peering delete still settling: the delete is tried again with backoff until
 * `timeoutMs`, then fails quoting the API's reason.
 */
async function deleteWhenUnused(api: MdbApi, projectId: string, vpcId: string, timeoutMs: number) {
  let refusal: MdbApiError | undefined;
  const start = Date.now();
  try {
    await waitFor(
      async () => {
        try {
          await api.deleteVpc(projectId, vpcId);
          return { deleted: true, why: "" };
        } catch (error) {
          if (isGone(error)) return { deleted: true, why: "" };
          if (error instanceof MdbApiError && error.isConflict) {
            refusal = error;
            return { deleted: false, why: error.apiMessage };
          }
          throw error;
        }
      },
      (v) => (v.deleted ? { done: true } : { done: false, state: `still in use: ${v.why}` }),
      { what: `VPC ${vpcId} to be deleted`, timeoutMs, poll: VPC_DELETE_RETRY, onProgress: progress },
    );
  } catch (error) {
    if (error instanceof WaitError && error.kind === "timeout" && refusal) {
      throw new Error(
        `cannot delete VPC ${vpcId}: it is still in use after ${formatDuration(Date.now() - start)} of retries ` +
          `(${refusal.apiMessage}). Detach the services attached to it and delete its peerings, then run ` +
          "the command again; the customTimeouts option raises the wait",
        { cause: error },
      );
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------
// Provider implementation
// ---------------------------------------------------------------------------------------

function asInputs(raw: Record<string, unknown>): VpcInputs {
  return VpcInputsSchema.parse(raw);
}

/** The provider functions of {@link Vpc}; loaded in the provider host by {@link lazyProvider}. */
export const impl = {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req.config);
  },

  async check(
    _olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<pulumi.dynamic.CheckResult> {
    return checkInputs(VpcInputsSchema, news);
  },

  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return diffByRules(olds, news, VPC_RULES, ["vpcId", "projectId"]);
  },

  async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
    const adopted = await adoptIfImported(impl, "VPC", inputs);
    if (adopted) return adopted;
    const want = asInputs(inputs);
    const api = getApi();
    const projectId = await resolveProjectId(want.projectId);
    const record = await createOnce(api, projectId, want, inputs.__autoNamed === true);
    progress(`VPC ${want.name} created as ${record.id}`);
    return { id: record.id, outs: stateOf(vpcOutputs(record, projectId), inputs) };
  },

  async read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
    const ref = parseVpcId(id);
    const api = getApi();
    const projectId = await resolveProjectId(ref.projectId ?? (props?.projectId as string | undefined));
    const record = await unlessGone(api.getVpc(projectId, ref.vpcId));
    if (!record) return {};
    const outs = vpcOutputs(record, projectId);
    return {
      id: record.id,
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
    const ref = parseVpcId(id);
    const api = getApi();
    const projectId = await resolveProjectId((olds.projectId as string | undefined) ?? ref.projectId);
    // Plan from the VPC as it is now, not as the state remembers it.
    let record = await api.getVpc(projectId, ref.vpcId);
    for (const step of planVpcUpdate(vpcOutputs(record, projectId), want)) {
      progress(`VPC ${ref.vpcId}: ${step.action} to ${step.name}`);
      record = await api.renameVpc(projectId, ref.vpcId, step.name);
    }
    return { outs: stateOf(vpcOutputs(record, projectId), news) };
  },

  async delete(id: string, props: Record<string, unknown>): Promise<void> {
    const ref = parseVpcId(id);
    const api = getApi();
    const projectId = await resolveProjectId((props.projectId as string | undefined) ?? ref.projectId);
    await deleteWhenUnused(api, projectId, ref.vpcId, timeoutsOf(props).delete);
  },
};

// ---------------------------------------------------------------------------------------
// Resource class
// ---------------------------------------------------------------------------------------

/**
 * A VPC. Created at once; deleting waits (up to the delete timeout) while services or
 * peerings still use it. Import with the VPC id (or `projectId/vpcId`).
 */
export class Vpc extends pulumi.dynamic.Resource {
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

  constructor(name: string, args: VpcArgs, opts?: pulumi.CustomResourceOptions) {
    const { props, opts: rest } = registration(name, args, opts, { outputs: ["projectId"], autoName: true });
    super(lazyProvider("vpc"), name, props, rest, "mdb", "Vpc");
    // The VPC id never changes in place. Taken from the resource id, it stays known while a
    // rename is previewed, so services and peerings in the VPC do not show a spurious change.
    this.vpcId = this.id;
  }
}
