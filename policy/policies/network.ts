// VPC address ranges: private (RFC 1918), of a sensible size, and not overlapping one another.

import type { ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import * as ipaddr from "ipaddr.js";
import { resolveConfig, VpcCidrConfig, vpcCidrSchema } from "../config";
import { describe, isKnown, readString, isKind } from "../resources";

/** The private IPv4 ranges of RFC 1918. */
export const RFC1918_RANGES: readonly string[] = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"];

const privateRanges = RFC1918_RANGES.map((range) => ipaddr.IPv4.parseCIDR(range));

/** A CIDR block as written, read by ipaddr.js. */
export type ParsedCidr =
  | { kind: "invalid" }
  | { kind: "ipv6" }
  | {
      kind: "ipv4";
      /** The block's network address (host bits cleared). */
      network: ipaddr.IPv4;
      prefixLength: number;
      /** True when the address as written has host bits set (10.0.0.1/16 instead of 10.0.0.0/16). */
      hostBitsSet: boolean;
    };

/** Parses a CIDR block; only strict dotted-quad IPv4 notation counts as IPv4. */
export function parseCidr(cidr: string): ParsedCidr {
  const text = cidr.trim();
  if (ipaddr.IPv4.isValidCIDRFourPartDecimal(text)) {
    const [address, prefixLength] = ipaddr.IPv4.parseCIDR(text);
    const network = ipaddr.IPv4.networkAddressFromCIDR(text);
    return { kind: "ipv4", network, prefixLength, hostBitsSet: address.toString() !== network.toString() };
  }
  return ipaddr.IPv6.isValidCIDR(text) ? { kind: "ipv6" } : { kind: "invalid" };
}

/** True when the block lies entirely inside one of the RFC 1918 ranges. */
export function isPrivateBlock(network: ipaddr.IPv4, prefixLength: number): boolean {
  return privateRanges.some(
    ([rangeAddress, rangePrefix]) => prefixLength >= rangePrefix && network.match(rangeAddress, rangePrefix),
  );
}

/** True when two blocks share at least one address: they agree on the bits of the shorter prefix. */
export function blocksOverlap(
  a: { network: ipaddr.IPv4; prefixLength: number },
  b: { network: ipaddr.IPv4; prefixLength: number },
): boolean {
  return a.network.match(b.network, Math.min(a.prefixLength, b.prefixLength));
}

/** `mdb-vpc-cidr`: a VPC's CIDR block is a private (RFC 1918) IPv4 range of an allowed size. */
export const vpcCidr: ResourceValidationPolicy = {
  name: "mdb-vpc-cidr",
  description:
    "VPC CIDR blocks are private (RFC 1918) IPv4 ranges with a prefix length in the allowed range " +
    "(config: minPrefixLength, maxPrefixLength).",
  enforcementLevel: "mandatory",
  severity: "high",
  configSchema: vpcCidrSchema,
  validateResource: (args, reportViolation) => {
    if (!isKind(args.type, "Vpc")) {
      return;
    }
    const cidr = readString(args.props, "cidr");
    if (!isKnown(cidr)) {
      return;
    }
    const config = resolveConfig<VpcCidrConfig>(vpcCidrSchema, () => args.getConfig());
    if (config.minPrefixLength > config.maxPrefixLength) {
      throw new Error(
        `policy config of mdb-vpc-cidr: minPrefixLength (${config.minPrefixLength}) is greater than ` +
          `maxPrefixLength (${config.maxPrefixLength})`,
      );
    }
    const what = `${describe(args)} has cidr "${cidr}"`;
    const example = "e.g. 10.0.0.0/16";
    const parsed = parseCidr(cidr);
    if (parsed.kind === "invalid") {
      reportViolation(
        `${what}, which is not an IPv4 CIDR block; write a private range in CIDR notation, ${example}.`,
      );
      return;
    }
    if (parsed.kind === "ipv6") {
      reportViolation(`${what}, an IPv6 block; VPCs take a private IPv4 (RFC 1918) range, ${example}.`);
      return;
    }
    const { network, prefixLength } = parsed;
    if (parsed.hostBitsSet) {
      reportViolation(
        `${what}, whose host bits are set; use its network address ${network}/${prefixLength}.`,
      );
    }
    if (!isPrivateBlock(network, prefixLength)) {
      reportViolation(
        `${what}, which is not a private (RFC 1918) range; ` +
          `use a block inside ${RFC1918_RANGES.slice(0, -1).join(", ")} or ${RFC1918_RANGES[RFC1918_RANGES.length - 1]}.`,
      );
    }
    if (prefixLength < config.minPrefixLength || prefixLength > config.maxPrefixLength) {
      const size = prefixLength < config.minPrefixLength ? "too large" : "too small";
      reportViolation(
        `${what}, a /${prefixLength} block, which is ${size}; use a prefix length from ` +
          `/${config.minPrefixLength} to /${config.maxPrefixLength} (policy config: minPrefixLength, maxPrefixLength).`,
      );
    }
  },
};

/** `mdb-vpc-cidr-no-overlap`: no two VPCs of the stack have overlapping CIDR blocks. */
export const vpcCidrNoOverlap: StackValidationPolicy = {
  name: "mdb-vpc-cidr-no-overlap",
  description: "No two VPCs of the stack have overlapping CIDR blocks.",
  enforcementLevel: "mandatory",
  severity: "high",
  validateStack: (args, reportViolation) => {
    const seen: { name: string; cidr: string; network: ipaddr.IPv4; prefixLength: number }[] = [];
    for (const resource of args.resources) {
      if (!isKind(resource.type, "Vpc")) {
        continue;
      }
      // Unknown or malformed blocks are skipped here; mdb-vpc-cidr reports the malformed ones.
      const cidr = readString(resource.props, "cidr");
      const parsed = isKnown(cidr) ? parseCidr(cidr) : undefined;
      if (!isKnown(cidr) || parsed?.kind !== "ipv4") {
        continue;
      }
      const block = { name: resource.name, cidr, network: parsed.network, prefixLength: parsed.prefixLength };
      for (const other of seen.filter((earlier) => blocksOverlap(earlier, block))) {
        reportViolation(
          `${describe(resource)} has cidr "${cidr}", which overlaps cidr "${other.cidr}" of Vpc "${other.name}"; ` +
            `give each VPC of the stack its own range.`,
          resource.urn,
        );
      }
      seen.push(block);
    }
  },
};

/** The policies on VPC address ranges. */
export const networkPolicies = [vpcCidr, vpcCidrNoOverlap];
