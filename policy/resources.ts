// Type tokens of our resources and safe reading of their properties.
//
// The analyzer hands policies the resource properties wrapped in a proxy that throws when a value
// unknown during preview is read (@pulumi/policy then turns the whole policy into an advisory
// "can't run during preview" note). We read through these helpers instead, so an unknown value
// simply means "cannot judge yet" and never produces a violation or noise.

import { UnknownValueError } from "@pulumi/policy";
import { UNKNOWN_MARKERS } from "./reliances";

/** Type tokens of the pulumi-managed-db dynamic resources (module `mdb` of `dynamic.Resource`). */
export const ResourceTypes = {
  Service: "pulumi-nodejs:dynamic/mdb:Service",
  ReadReplicaSet: "pulumi-nodejs:dynamic/mdb:ReadReplicaSet",
  Vpc: "pulumi-nodejs:dynamic/mdb:Vpc",
  VpcPeering: "pulumi-nodejs:dynamic/mdb:VpcPeering",
} as const;

/** Type tokens of the same resources served by the native plugin `mdb` (any Pulumi language). */
export const NativeResourceTypes = {
  Service: "mdb:index:Service",
  ReadReplicaSet: "mdb:index:ReadReplicaSet",
  Vpc: "mdb:index:Vpc",
  VpcPeering: "mdb:index:VpcPeering",
} as const;

/** A kind of resource of this package: `Service`, `ReadReplicaSet`, `Vpc`, `VpcPeering`. */
export type Kind = keyof typeof ResourceTypes;

/** Prefix shared by every dynamic type token of this package. */
export const TYPE_PREFIX = "pulumi-nodejs:dynamic/mdb:";

/** Prefix shared by every native type token of this package. */
export const NATIVE_TYPE_PREFIX = "mdb:index:";

/** True when `type` is the type token of `kind`, in either face (dynamic class or native plugin). */
export function isKind(type: string, kind: Kind): boolean {
  return type === ResourceTypes[kind] || type === NativeResourceTypes[kind];
}

/**
 * Marks a value a policy cannot judge: unknown during preview (an output of a resource not created
 * yet), or of a type the provider's own `check` will reject anyway.
 */
export const UNKNOWN: unique symbol = Symbol("unknown");

/** A property as a policy sees it: the value, `undefined` when it is not set, or {@link UNKNOWN}. */
export type Read<T> = T | undefined | typeof UNKNOWN;

/** Reads `props[key]`, turning a preview-unknown value into {@link UNKNOWN} and `null` into `undefined`. */
export function readProp(props: Record<string, unknown>, key: string): Read<unknown> {
  let value: unknown;
  try {
    value = props[key];
  } catch (err) {
    if (err instanceof UnknownValueError) {
      return UNKNOWN;
    }
    throw err;
  }
  if (typeof value === "string" && UNKNOWN_MARKERS.has(value)) {
    return UNKNOWN;
  }
  return value === null ? undefined : value;
}

/** Reads a string property; the empty string counts as not set. */
export function readString(props: Record<string, unknown>, key: string): Read<string> {
  const value = readProp(props, key);
  if (value === undefined || value === UNKNOWN) {
    return value;
  }
  if (typeof value !== "string") {
    return UNKNOWN;
  }
  return value === "" ? undefined : value;
}

/** Reads a number property; a string of digits (the API's own form for sizes) is read as its number. */
export function readNumber(props: Record<string, unknown>, key: string): Read<number> {
  const value = readProp(props, key);
  if (value === undefined || value === UNKNOWN) {
    return value;
  }
  if (typeof value === "number" && Number.isFinite(value)) {
    return value;
  }
  if (typeof value === "string" && /^\d+$/.test(value.trim())) {
    return Number(value.trim());
  }
  return UNKNOWN;
}

/** True when the value is known and set (neither `undefined` nor {@link UNKNOWN}). */
export function isKnown<T>(value: Read<T>): value is T {
  return value !== undefined && value !== UNKNOWN;
}

/** Environment of a service or replica set: a missing one is the API's default, DEV. */
export function readEnvironment(props: Record<string, unknown>): Read<string> {
  const environment = readString(props, "environment");
  return environment === undefined ? "DEV" : environment;
}

/** Short name of a resource type for messages: `Service` for `pulumi-nodejs:dynamic/mdb:Service` or `mdb:index:Service`. */
export function kindOf(type: string): string {
  for (const prefix of [TYPE_PREFIX, NATIVE_TYPE_PREFIX])
    if (type.startsWith(prefix)) return type.slice(prefix.length);
  return type;
}

/** How a message names a resource: its kind and its name from the URN, e.g. `Service "orders-db"`. */
export function describe(resource: { type: string; name: string }): string {
  return `${kindOf(resource.type)} "${resource.name}"`;
}
