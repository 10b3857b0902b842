/**
 * The JSON Schema of whole-number fields (api/json-forms.ts) says exactly what the server takes:
 * every string of digits the pattern matches is a value of the range, and every value of the range
 * matches, leading zeros included; the integer schema's bounds and step likewise.
 */
import {
  CPU_MILLIS,
  HA_REPLICAS,
  MEMORY_GBS,
  REPLICA_SET_NODES,
  inRange,
  type WholeRange,
} from "../../api/limits";
import { digitsPattern, integerSchema } from "../../api/json-forms";

const RANGES: [string, WholeRange][] = [
  ["cpu_millis", CPU_MILLIS],
  ["memory_gbs", MEMORY_GBS],
  ["replica set nodes", REPLICA_SET_NODES],
  ["HA replicas", HA_REPLICAS],
  ["a step that divides no power of ten", { min: 3, max: 200, step: 3 }],
  ["a step from an offset", { min: 7, max: 1007, step: 50 }],
  ["a step of ten thousands", { min: 0, max: 123_456, step: 1000 }],
  ["a span across digit counts", { min: 95, max: 10_342 }],
  ["at least 60", { min: 60 }],
];

describe.each(RANGES)("%s", (_name, range) => {
  const pattern = new RegExp(digitsPattern(range));
  const top = (range.max ?? 100_000) * 2 + 10;

  it("matches the digits of exactly the values in range, with or without leading zeros", () => {
    const wrong: string[] = [];
    for (let n = 0; n <= top; n++) {
      for (const text of [String(n), `0${n}`, `00${n}`]) {
        if (pattern.test(text) !== inRange(n, range)) wrong.push(text);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it("matches nothing else: no sign, blank, fraction, exponent or other digit", () => {
    const value = String(range.min);
    for (const text of [
      "",
      " ",
      `+${value}`,
      `-${value}`,
      `${value}.0`,
      `${value}e0`,
      ` ${value}`,
      `${value}\n`,
      "１",
    ])
      expect([text, pattern.test(text)]).toEqual([text, false]);
  });

  it("as a JSON number: integer, its bounds, its step when the step counts from a multiple of it", () => {
    const schema = integerSchema(range);
    expect(schema).toMatchObject({ type: "integer", minimum: range.min });
    expect(schema.maximum).toBe(range.max);
    expect(schema.multipleOf).toBe(
      range.step !== undefined && range.min % range.step === 0 ? range.step : undefined,
    );
  });
});

it('an extra alternative: the sizes of create and fork take "shared" too', () => {
  const pattern = new RegExp(digitsPattern(MEMORY_GBS, ["shared"]));
  expect(["shared", "8", "0008"].map((t) => pattern.test(t))).toEqual([true, true, true]);
  expect(["Shared", "shared8", "0"].map((t) => pattern.test(t))).toEqual([false, false, false]);
});
