/**
 * Outputs go to the engine as protobuf Structs, which cannot hold `undefined`: this drops
 * undefined members at every depth (an absent output and an undefined one mean the same).
 */

/** A copy of `value` without undefined members, at every depth. */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withoutUndefined(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = withoutUndefined(v);
    return out as T;
  }
  return value;
}
