/**
 * The one list of resource kinds: each kind's definition (names, id, field table) and its own
 * operations; the host makes their providers, and the docs generator reads the definitions. No
 * other file lists the kinds. A kind is stored in users' state by the serialized provider (see
 * `../pulumi-contract/provider-text.ts`): never renamed or reused.
 */
import type { FieldTable, ResourceDefinition } from "../kit/fields/field-table";
import type { ResourceOps } from "../kit/spec";
import { READ_REPLICA_SET } from "./read-replica-set/fields";
import { OPS as READ_REPLICA_SET_OPS } from "./read-replica-set/provider";
import { SERVICE } from "./service/fields";
import { OPS as SERVICE_OPS } from "./service/provider";
import { VPC } from "./vpc/fields";
import { OPS as VPC_OPS } from "./vpc/provider";
import { VPC_PEERING } from "./vpc-peering/fields";
import { OPS as VPC_PEERING_OPS } from "./vpc-peering/provider";

/** A kind of resource: what it is, and its own API calls. */
export interface RegistryEntry {
  /** Its definition. */
  definition: ResourceDefinition<FieldTable, string>;
  /** Its own operations (`provider.ts`). */
  ops: ResourceOps<never, never, never, string>;
}

/** The resource kinds of this release. */
export type ResourceKind = "service" | "read-replica-set" | "vpc" | "vpc-peering";

/** Every resource kind, by the key its serialized provider names. */
export const REGISTRY = {
  service: { definition: SERVICE, ops: SERVICE_OPS },
  "read-replica-set": { definition: READ_REPLICA_SET, ops: READ_REPLICA_SET_OPS },
  vpc: { definition: VPC, ops: VPC_OPS },
  "vpc-peering": { definition: VPC_PEERING, ops: VPC_PEERING_OPS },
} as unknown as Readonly<Record<ResourceKind, RegistryEntry>>;
