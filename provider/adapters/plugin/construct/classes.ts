/**
 * The native classes the plugin builds a component's children with: each registers the type
 * `mdb:index:<typeName>` with the engine (so this same plugin serves it), the program's args as
 * inputs and every row of its table as an output, the table's secret rows secret, as a
 * generated SDK's class does. Rows marked `fromId` are the resource's id, known during preview.
 * An input that follows another resource of the component (a read replica set's password) does
 * so as in the dynamic classes (`program-links.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ChildClasses } from "../../../components/production-database";
import type { FieldTable, ResourceDefinition } from "../../../kit/fields/field-table";
import { specOf } from "../../../kit/spec";
import { followed, rememberResource } from "../../../program-links";
import type { ArgsOf } from "../../../program-types";
import { REGISTRY } from "../../../resources/registry";
import { tokenOf } from "../kinds";

/** The native class of the resource `def` declares. */
function nativeClass(def: ResourceDefinition<FieldTable, string>): unknown {
  const spec = specOf(def);
  const type = tokenOf(spec.typeName);
  class NativeResource extends pulumi.CustomResource {
    constructor(name: string, args: ArgsOf<FieldTable>, opts?: pulumi.CustomResourceOptions) {
      const props: Record<string, unknown> = { ...args };
      for (const [input, follow] of Object.entries(spec.follows))
        if (props[input] === undefined) props[input] = followed(props, follow);
      for (const out of spec.registered) if (!(out in props)) props[out] = undefined;
      super(type, name, props, {
        ...opts,
        additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...spec.secretOutputs],
      });
      for (const field of spec.fromId) (this as unknown as Record<string, unknown>)[field] = this.id;
      rememberResource(spec.kind, this);
    }
  }
  Object.defineProperty(NativeResource, "name", { value: spec.typeName });
  return NativeResource;
}

/**
 * The native classes of the four kinds, as a component's {@link ChildClasses}: they take the same
 * args and have the same properties as the dynamic classes, whose constructor types they stand in.
 */
export function nativeClasses(): ChildClasses {
  return {
    Vpc: nativeClass(REGISTRY.vpc.definition),
    Service: nativeClass(REGISTRY.service.definition),
    ReadReplicaSet: nativeClass(REGISTRY["read-replica-set"].definition),
    VpcPeering: nativeClass(REGISTRY["vpc-peering"].definition),
  } as ChildClasses;
}
