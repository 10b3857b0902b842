/**
 * The one list of resource kinds: each kind's definition (names, id, field table) and its
 * provider functions. The host dispatches through it, and the docs generator reads it; no
 * other file lists the kinds. A kind is stored in users' state by the serialized provider
 * (see `../kit/entry.ts`): never renamed or reused.
 */
import type { FieldTable, ResourceDefinition } from "../kit/field-table";
import type { ProviderImpl } from "../kit/lifecycle";
import { READ_REPLICA_SET } from "./read-replica-set/fields";
import { PROVIDER as READ_REPLICA_SET_PROVIDER } from "./read-replica-set/provider";
import { SERVICE } from "./service/fields";
import { PROVIDER as SERVICE_PROVIDER } from "./service/provider";
import { VPC } from "./vpc/fields";
import { PROVIDER as VPC_PROVIDER } from "./vpc/provider";
import { VPC_PEERING } from "./vpc-peering/fields";
import { PROVIDER as VPC_PEERING_PROVIDER } from "./vpc-peering/provider";

/** A kind of resource: what it is, and its provider. */
export interface RegistryEntry {
  /** Its definition. */
  definition: ResourceDefinition<FieldTable, string>;
  /** Its provider functions. */
  provider: ProviderImpl;
}

/** Every resource kind, by the key its serialized provider names. */
export const REGISTRY = {
  service: { definition: SERVICE, provider: SERVICE_PROVIDER },
  "read-replica-set": { definition: READ_REPLICA_SET, provider: READ_REPLICA_SET_PROVIDER },
  vpc: { definition: VPC, provider: VPC_PROVIDER },
  "vpc-peering": { definition: VPC_PEERING, provider: VPC_PEERING_PROVIDER },
} as unknown as Readonly<Record<ResourceKind, RegistryEntry>>;

/** The resource kinds of this release. */
export type ResourceKind = "service" | "read-replica-set" | "vpc" | "vpc-peering";
