import { resolveConfig, vpcCidrSchema } from "../../policy/config";
import { policies } from "../../policy/policies";
import { readNumber, readProp, readString, ResourceTypes, UNKNOWN } from "../../policy/resources";
import { asAnalyzerProps, T, UNKNOWN_NUMBER, UNKNOWN_STRING } from "./helpers";

describe("the pack's policies", () => {
  it("have unique names the CLI accepts, and a description", () => {
    const names = policies.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const policy of policies) {
      expect(policy.name).toMatch(/^mdb-[a-z0-9-]+$/);
      expect(policy.name).not.toBe("all"); // reserved for "every policy" in the config file
      expect(policy.description.length).toBeGreaterThan(20);
    }
  });

  it("give every config property a default that its own schema accepts, and leave enforcementLevel to the CLI", () => {
    for (const policy of policies.filter((p) => p.configSchema)) {
      const { properties, required } = policy.configSchema!;
      expect(properties).not.toHaveProperty("enforcementLevel"); // the pack would refuse to start
      expect(required ?? []).toEqual([]);
      for (const [key, schema] of Object.entries(properties)) {
        if (typeof schema !== "object") throw new Error(`${policy.name}.${key}`);
        const value = schema.default;
        expect(value).toBeDefined();
        expect(schema.description).toBeTruthy();
        if (schema.type === "integer") {
          expect(Number.isInteger(value)).toBe(true);
          expect(value as number).toBeGreaterThanOrEqual(schema.minimum ?? -Infinity);
          expect(value as number).toBeLessThanOrEqual(schema.maximum ?? Infinity);
        } else {
          expect(schema.type).toBe("array");
          expect((value as unknown[]).length).toBeGreaterThanOrEqual(schema.minItems ?? 0);
        }
      }
    }
  });
});

describe("resolveConfig", () => {
  it("fills in the schema's defaults and keeps what the user set", () => {
    expect(resolveConfig(vpcCidrSchema, () => ({}))).toEqual({ minPrefixLength: 16, maxPrefixLength: 28 });
    expect(resolveConfig(vpcCidrSchema, () => ({ maxPrefixLength: 24, other: 1 }))).toEqual({
      minPrefixLength: 16,
      maxPrefixLength: 24,
      other: 1,
    });
    expect(resolveConfig(vpcCidrSchema, () => ({ minPrefixLength: null }) as never)).toMatchObject({
      minPrefixLength: 16,
    });
  });
});

describe("reading resource properties", () => {
  it("uses the package's type tokens", () => {
    expect(ResourceTypes).toEqual(T);
  });

  it("turns the analyzer's unknown values into UNKNOWN instead of throwing", () => {
    const props = asAnalyzerProps({ a: UNKNOWN_STRING, b: UNKNOWN_NUMBER, c: "x", d: null });
    expect(() => props.a).toThrow("can't be known during preview"); // what a plain read does
    expect(readProp(props, "a")).toBe(UNKNOWN);
    expect(readNumber(props, "b")).toBe(UNKNOWN);
    expect(readString(props, "c")).toBe("x");
    expect(readProp(props, "d")).toBeUndefined();
    expect(readProp(props, "missing")).toBeUndefined();
    // the raw sentinel, should a value ever reach a policy unwrapped
    expect(readString({ a: UNKNOWN_STRING }, "a")).toBe(UNKNOWN);
  });

  it("treats values of the wrong type as not judgeable, and rethrows other errors", () => {
    expect(readNumber({ n: "12" }, "n")).toBe(12);
    expect(readNumber({ n: "1.5e3" }, "n")).toBe(UNKNOWN);
    expect(readNumber({ n: true }, "n")).toBe(UNKNOWN);
    expect(readString({ s: 3 }, "s")).toBe(UNKNOWN);
    expect(readString({ s: "" }, "s")).toBeUndefined();
    const broken = new Proxy(
      {},
      {
        get: () => {
          throw new Error("boom");
        },
      },
    );
    expect(() => readProp(broken, "x")).toThrow("boom");
  });
});
