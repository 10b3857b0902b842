// The policy pack's one reliance on what @pulumi/policy does not publish: the marker strings the
// engine sends for values unknown during preview (`unknownStringValue` and the like in its
// `proxy` module). Its published API covers the rest (`UnknownValueError`, thrown when a policy
// reads an unknown value through the analyzer's proxy), but a marker can still reach a policy
// inside a value read whole. test/unit/release-pins.test.ts names this file: it fails when a
// release of @pulumi/policy moves the markers, and when another file of the pack takes a private path.

const proxy = require("@pulumi/policy/proxy") as Record<string, unknown>;

/** The markers @pulumi/policy uses for values unknown during preview (`unknown<Type>Value`). */
export const UNKNOWN_MARKERS: ReadonlySet<unknown> = new Set(
  Object.keys(proxy)
    .filter((key) => /^unknown[A-Z]\w*Value$/.test(key))
    .map((key) => proxy[key]),
);

/**
 * For the pack's tests, which play the analyzer: how it wraps a resource's properties (reading an
 * unknown value throws `UnknownValueError`), and the markers of an unknown string and number.
 */
export const ANALYZER = {
  wrap: proxy.unknownCheckingProxy as (props: Record<string, unknown>) => Record<string, unknown>,
  unknownString: proxy.unknownStringValue as string,
  unknownNumber: proxy.unknownNumberValue as string,
};
