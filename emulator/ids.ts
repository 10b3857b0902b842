/**
 * Random identifiers and secrets of emulated resources. Short lowercase alphanumerics, like the
 * service's own ids, so they are safe in host names and URLs.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { Dialect } from "../api/dialects";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** `length` random lowercase alphanumeric characters. */
export function randomId(length: number): string {
  let id = "";
  for (let i = 0; i < length; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** A new service id: 10 lowercase alphanumerics. */
export const newServiceId = (): string => randomId(10);
/** A new read replica set id: `rrs-` and 8 lowercase alphanumerics. */
export const newReplicaSetId = (): string => `rrs-${randomId(8)}`;
/** `length` random decimal digits, the first not 0. */
export function randomDigits(length: number): string {
  let id = String(1 + randomInt(9));
  while (id.length < length) id += String(randomInt(10));
  return id;
}

/**
 * A new VPC id: `vpc-` and 8 lowercase alphanumerics in the seed dialect; 10 digits in `vendor`,
 * whose current document types VPC ids `^[0-9]+$`.
 */
export const newVpcId = (dialect: Dialect = "seed"): string =>
  dialect === "vendor" ? randomDigits(10) : `vpc-${randomId(8)}`;
/** A new VPC peering id: `pcx-` and 8 lowercase alphanumerics; 10 digits in `vendor`, as VPC ids. */
export const newPeeringId = (dialect: Dialect = "seed"): string =>
  dialect === "vendor" ? randomDigits(10) : `pcx-${randomId(8)}`;
/** A new id of a service's compute resource entry. */
export const newResourceId = (): string => randomId(8);
/** Provider-side id a peering receives once provisioned. */
export const newProvisionedId = (): string => `pcx-prov-${randomId(12)}`;

/** A random initial password: 24 URL-safe characters (144 bits). */
export function newPassword(): string {
  return randomBytes(18).toString("base64url");
}
