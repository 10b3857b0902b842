/**
 * The native classes the plugin builds a component's children with: each registers the type
 * `mdb:index:<typeName>` with the engine (so this same plugin serves it), the program's args as
 * inputs and every row of its table as an output, the table's secret rows secret, as a
 * generated SDK's class does. Rows marked `fromId` are the resource's id, known during preview.
 * An input that follows another resource of the component (a read replica set's password) does
 * so as in the dynamic classes (`program-links.ts`). Each has its dynamic type token as an alias,
 * so a stack whose component a Node.js program made with the dynamic classes moves over with no
 * replacement.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ChildClasses } from "../../../components/production-database";
import type { FieldTable, ResourceDefinition } from "../../../kit/fields/field-table";
import { specOf } from "../../../kit/spec";
import { applyFollows, rememberResource } from "../../../program-links";
import type { ArgsOf } from "../../../program-types";
import { REGISTRY } from "../../../resources/registry";
import { dynamicTypeToken } from "../../../type-tokens";
import { tokenOf } from "../kinds";

/** The native class of the resource `def` declares. */
function nativeClass(def: ResourceDefinition<FieldTable, string>): unknown {
  const spec = specOf(def);
  const type = tokenOf(spec.typeName);
  class NativeResource extends pulumi.CustomResource {
    constructor(name: string, args: ArgsOf<FieldTable>, opts?: pulumi.CustomResourceOptions) {
      const props: Record<string, unknown> = { ...args };
      applyFollows(props, spec.follows);
      for (const out of spec.registered) if (!(out in props)) props[out] = undefined;
      super(type, name, props, {
        ...opts,
        // A stack whose ProductionDatabase the dynamic classes made keeps each child as it is.
        aliases: [...(opts?.aliases ?? []), { type: dynamicTypeToken(spec.typeName) }],
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
