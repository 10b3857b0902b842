/**
 * What every resource class hands to `pulumi.CustomResource`, read from its spec: the dynamic
 * resource type token, the provider's text (as `pulumi.dynamic.Resource` would store it, see
 * `../pulumi-contract/provider-text.ts`), the program's inputs plus the hidden ones the provider needs (a
 * generated name, the id to adopt for `import`, the resource's own name, the `customTimeouts`), the
 * inputs that follow another resource of the program when left out (`links.ts`), every output name
 * registered, and the options without `import`, with the spec's secret outputs and
 * delete-before-replace; and {@link SpecResource}, the base class that registers with them.
 */
import * as pulumi from "@pulumi/pulumi";
import { providerText } from "../../pulumi-contract/provider-text";
import { AUTO_NAMED_INPUT } from "../../kit/hidden";
import { autoName } from "../../kit/fields/naming";
import type { FieldTable, ResourceDefinition } from "../../kit/fields/field-table";
import { type ResourceSpec, specOf } from "../../kit/spec";
import type { ArgsOf, OutputProps } from "../../program-types";
import { IMPORT_INPUT, PROVIDER_INPUT, RESOURCE_NAME_INPUT, TIMEOUTS_INPUT } from "./hidden";
import { dynamicTypeToken } from "../../type-tokens";
import { type ProgramClass, ProgramResource, withOutputs } from "../../program-resource";
import { takeImport, timeoutsInput } from "./options";

/** Arguments of `super(type, name, props, opts)`. */
export interface Registration {
  /** The type token: `pulumi-nodejs:dynamic/mdb:<typeName>`, Pulumi's dynamic provider's. */
  type: string;
  /** Inputs, hidden inputs (the provider text among them) and registered output names. */
  props: Record<string, unknown>;
  /** Options for the resource. */
  opts: pulumi.CustomResourceOptions;
}

/**
 * Properties and options for `super(...)` of the class of `spec`. Exported for the benchmark
 * (`scripts/bench/setup.js`), whose same-shape control program registers these property names.
 */
export function registration(
  spec: ResourceSpec,
  resourceName: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): Registration {
  const { opts: rest = {}, importId } = takeImport(opts);
  const props: Record<string, unknown> = { ...args, [PROVIDER_INPUT]: providerText(spec.kind) };
  if (importId !== undefined) props[IMPORT_INPUT] = importId;
  if (spec.naming === "generated" && props.name === undefined) {
    props.name = autoName(pulumi.getProject(), pulumi.getStack(), resourceName);
    props[AUTO_NAMED_INPUT] = true;
  }
  props[RESOURCE_NAME_INPUT] = resourceName;
  props[TIMEOUTS_INPUT] = timeoutsInput(rest.customTimeouts);
  withOutputs(spec, props);
  const secrets = spec.secretOutputs;
  return {
    type: dynamicTypeToken(spec.typeName),
    props,
    opts: {
      ...rest,
      ...(secrets.length > 0
        ? { additionalSecretOutputs: [...(rest.additionalSecretOutputs ?? []), ...secrets] }
        : {}),
      // Two at once make no sense for some resources (a peering to one peer): delete first.
      ...(spec.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
    },
  };
}

/**
 * The base of the four resource classes: registers the resource of `spec` with Pulumi, as
 * {@link registration} describes, without Pulumi's per-promise debug stacks (`../../program-resource.ts`).
 */
export abstract class SpecResource extends ProgramResource {
  protected constructor(
    spec: ResourceSpec,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    const r = registration(spec, name, args, opts);
    super(spec, r.type, name, r.props, r.opts);
  }
}

/**
 * A resource class made by {@link resourceClass}: `new Service(name, args, opts)`; `A` names its
 * args and `I` its instances (see {@link ProgramClass}).
 */
export type ResourceClass<
  F extends FieldTable,
  A = ArgsOf<F>,
  I = ProgramResource & OutputProps<F>,
> = ProgramClass<F, A, I>;

/**
 * The class of the resource `def` declares: its args and properties are those of its field
 * table (with the rows' docs); rows marked `fromId` are the Pulumi id itself (`ProgramResource`),
 * so resources that use them do not show a spurious replacement.
 */
export function resourceClass<F extends FieldTable, P extends string>(
  def: ResourceDefinition<F, P>,
): ResourceClass<F> {
  const spec = specOf(def);
  class Resource extends SpecResource {
    constructor(name: string, args: ArgsOf<F>, opts?: pulumi.CustomResourceOptions) {
      super(spec, name, args, opts);
    }
  }
  Object.defineProperty(Resource, "name", { value: def.typeName });
  return Resource as unknown as ResourceClass<F>;
}
