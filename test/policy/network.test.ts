import { blocksOverlap, isPrivateBlock, parseCidr, vpcCidr, vpcCidrNoOverlap } from "../../policy/policies";
import {
  resourceArgs,
  runResourcePolicy,
  runStackPolicy,
  stackResource,
  UNKNOWN_STRING,
  urnOf,
  FACES,
} from "./helpers";

describe.each(FACES)("%s", (_face, T) => {
  const vpcArgs = (name: string, cidr: unknown, config?: object) =>
    resourceArgs(T.Vpc, name, { name, cidr, regionCode: "us-east-1" }, { config });

  describe("CIDR helpers (ipaddr.js)", () => {
    it("parses strict dotted-quad IPv4 blocks, tells IPv6 and rubbish apart", () => {
      const parsed = parseCidr("10.1.0.0/16");
      expect(parsed).toMatchObject({ kind: "ipv4", prefixLength: 16, hostBitsSet: false });
      expect(parseCidr("10.1.2.3/16")).toMatchObject({ kind: "ipv4", hostBitsSet: true });
      expect(parseCidr("fd00::/48")).toEqual({ kind: "ipv6" });
      for (const bad of ["10.0.0.0", "10.0/16", "10.0.0.0/33", "300.0.0.0/16", "ten/8", ""]) {
        expect(parseCidr(bad)).toEqual({ kind: "invalid" });
      }
    });

    it("knows the RFC 1918 ranges, including their edges", () => {
      const block = (cidr: string) => {
        const parsed = parseCidr(cidr);
        if (parsed.kind !== "ipv4") throw new Error(cidr);
        return parsed;
      };
      const isPrivate = (cidr: string) => isPrivateBlock(block(cidr).network, block(cidr).prefixLength);
      for (const cidr of [
        "10.0.0.0/8",
        "10.255.0.0/16",
        "172.16.0.0/12",
        "172.31.240.0/20",
        "192.168.0.0/16",
      ]) {
        expect(isPrivate(cidr)).toBe(true);
      }
      for (const cidr of [
        "8.8.0.0/16",
        "172.32.0.0/16",
        "172.0.0.0/8",
        "192.169.0.0/16",
        "192.168.0.0/15",
        "0.0.0.0/0",
      ]) {
        expect(isPrivate(cidr)).toBe(false);
      }
      expect(blocksOverlap(block("10.0.0.0/16"), block("10.0.255.0/24"))).toBe(true);
      expect(blocksOverlap(block("10.0.0.0/16"), block("10.1.0.0/16"))).toBe(false);
    });
  });

  describe("mdb-vpc-cidr", () => {
    it("accepts private blocks from /16 to /28 by default", async () => {
      for (const cidr of ["10.0.0.0/16", "172.20.0.0/20", "192.168.10.0/24", "10.9.8.16/28"]) {
        expect(await runResourcePolicy(vpcCidr, vpcArgs("main", cidr))).toEqual([]);
      }
    });

    it("reports a public range, with the private ranges to use", async () => {
      expect(await runResourcePolicy(vpcCidr, vpcArgs("edge", "8.8.0.0/16"))).toEqual([
        'Vpc "edge" has cidr "8.8.0.0/16", which is not a private (RFC 1918) range; ' +
          "use a block inside 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16.",
      ]);
    });

    it("reports a block that starts private but spills out of its RFC 1918 range", async () => {
      const messages = await runResourcePolicy(
        vpcCidr,
        vpcArgs("wide", "192.168.0.0/15", { minPrefixLength: 8 }),
      );
      expect(messages).toEqual([
        'Vpc "wide" has cidr "192.168.0.0/15", which is not a private (RFC 1918) range; ' +
          "use a block inside 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16.",
      ]);
    });

    it("reports blocks too large or too small for the default /16../28", async () => {
      expect(await runResourcePolicy(vpcCidr, vpcArgs("huge", "10.0.0.0/8"))).toEqual([
        'Vpc "huge" has cidr "10.0.0.0/8", a /8 block, which is too large; use a prefix length from /16 to /28 ' +
          "(policy config: minPrefixLength, maxPrefixLength).",
      ]);
      expect(await runResourcePolicy(vpcCidr, vpcArgs("tiny", "10.0.0.0/30"))).toEqual([
        'Vpc "tiny" has cidr "10.0.0.0/30", a /30 block, which is too small; use a prefix length from /16 to /28 ' +
          "(policy config: minPrefixLength, maxPrefixLength).",
      ]);
    });

    it("takes the prefix range from the config", async () => {
      const config = { minPrefixLength: 8, maxPrefixLength: 20 };
      expect(await runResourcePolicy(vpcCidr, vpcArgs("huge", "10.0.0.0/8", config))).toEqual([]);
      const [message] = await runResourcePolicy(vpcCidr, vpcArgs("small", "10.0.0.0/24", config));
      expect(message).toContain("a /24 block, which is too small; use a prefix length from /8 to /20");
    });

    it("refuses a config whose minimum prefix is above its maximum", async () => {
      const args = vpcArgs("main", "10.0.0.0/16", { minPrefixLength: 24, maxPrefixLength: 16 });
      await expect(runResourcePolicy(vpcCidr, args)).rejects.toThrow(
        "minPrefixLength (24) is greater than maxPrefixLength (16)",
      );
    });

    it("reports host bits, IPv6 and malformed blocks with the fix", async () => {
      expect(await runResourcePolicy(vpcCidr, vpcArgs("sloppy", "10.0.3.7/16"))).toEqual([
        'Vpc "sloppy" has cidr "10.0.3.7/16", whose host bits are set; use its network address 10.0.0.0/16.',
      ]);
      expect(await runResourcePolicy(vpcCidr, vpcArgs("v6", "fd00::/48"))).toEqual([
        'Vpc "v6" has cidr "fd00::/48", an IPv6 block; VPCs take a private IPv4 (RFC 1918) range, e.g. 10.0.0.0/16.',
      ]);
      expect(await runResourcePolicy(vpcCidr, vpcArgs("typo", "10.0.0/16"))).toEqual([
        'Vpc "typo" has cidr "10.0.0/16", which is not an IPv4 CIDR block; write a private range in CIDR notation, ' +
          "e.g. 10.0.0.0/16.",
      ]);
    });

    it("reports each problem of a block that has several", async () => {
      const messages = await runResourcePolicy(vpcCidr, vpcArgs("bad", "8.0.0.0/8"));
      expect(messages).toHaveLength(2);
      expect(messages[0]).toContain("not a private (RFC 1918) range");
      expect(messages[1]).toContain("a /8 block, which is too large");
    });

    it("does not report a cidr unknown during preview, nor other resource types", async () => {
      expect(await runResourcePolicy(vpcCidr, vpcArgs("main", UNKNOWN_STRING))).toEqual([]);
      const svc = resourceArgs(T.Service, "db", { cidr: "8.8.8.8/32", regionCode: "us-east-1" });
      expect(await runResourcePolicy(vpcCidr, svc)).toEqual([]);
    });
  });

  describe("mdb-vpc-cidr-no-overlap", () => {
    const vpc = (name: string, cidr: unknown) =>
      stackResource(T.Vpc, name, { name, cidr, regionCode: "us-east-1" });

    it("accepts VPCs with separate ranges", async () => {
      const resources = [vpc("a", "10.0.0.0/16"), vpc("b", "10.1.0.0/16"), vpc("c", "192.168.0.0/24")];
      expect(await runStackPolicy(vpcCidrNoOverlap, resources)).toEqual([]);
    });

    it("reports a VPC inside another one's range, on the later VPC, naming both", async () => {
      const resources = [vpc("a", "10.0.0.0/16"), vpc("b", "10.0.128.0/20")];
      expect(await runStackPolicy(vpcCidrNoOverlap, resources)).toEqual([
        {
          message:
            'Vpc "b" has cidr "10.0.128.0/20", which overlaps cidr "10.0.0.0/16" of Vpc "a"; ' +
            "give each VPC of the stack its own range.",
          urn: urnOf(T.Vpc, "b"),
        },
      ]);
    });

    it("reports each overlapping pair once, identical ranges included", async () => {
      const resources = [vpc("a", "10.0.0.0/16"), vpc("b", "10.0.0.0/16"), vpc("c", "10.0.0.0/8")];
      const violations = await runStackPolicy(vpcCidrNoOverlap, resources);
      expect(violations.map((v) => [v.urn, v.message.match(/of Vpc "(\w)"/)?.[1]])).toEqual([
        [urnOf(T.Vpc, "b"), "a"],
        [urnOf(T.Vpc, "c"), "a"],
        [urnOf(T.Vpc, "c"), "b"],
      ]);
    });

    it("skips unknown and malformed blocks and resources other than VPCs", async () => {
      const resources = [
        vpc("a", "10.0.0.0/16"),
        vpc("b", UNKNOWN_STRING),
        vpc("c", "not-a-cidr"),
        stackResource(T.Service, "db", { cidr: "10.0.0.0/16" }),
      ];
      expect(await runStackPolicy(vpcCidrNoOverlap, resources)).toEqual([]);
    });
  });
});
