/**
 * The dialects of the API and the published versions of its contract (docs/api.md#dialects).
 *
 * - Versions are the texts the facts come from: `seed` (api-spec.md, the 34 operations),
 *   `specEra` (the vendor's OpenAPI document at commit dc9c8fe) and `current` (the vendor's
 *   document at d7201d6, 40 operations).
 * - Dialects are what the emulator speaks (`mdb-emulator --dialect seed|vendor`): `seed` the seed's
 *   words, `vendor` the current document's. The client reads both.
 */

/** The dialects the emulator speaks; `seed` is the default. */
export const DIALECTS = ["seed", "vendor"] as const;
/** A dialect of the API: `seed` (api-spec.md's words) or `vendor` (the current vendor document's). */
export type Dialect = (typeof DIALECTS)[number];
/** The emulator's dialect when none is chosen. */
export const DEFAULT_DIALECT: Dialect = "seed";

/** True when `value` names a dialect. */
export function isDialect(value: unknown): value is Dialect {
  return (DIALECTS as readonly unknown[]).includes(value);
}

/** The published versions of the contract, oldest first. */
export const VERSIONS = ["seed", "specEra", "current"] as const;
/** A published version: `seed` (api-spec.md), `specEra` (vendor dc9c8fe), `current` (vendor d7201d6). */
export type Version = (typeof VERSIONS)[number];

/** Where each version's facts were read, for docs and messages. */
export const VERSION_SOURCES: Readonly<Record<Version, string>> = {
  seed: "api-spec.md (the seed)",
  specEra: "vendor openapi.yaml at timescale/tiger-cli dc9c8fe",
  current: "vendor openapi.yaml at timescale/tiger-cli d7201d6",
};

/**
 * Where an operation comes from: `spec`, one of the seed's 34; `vendor`, an addition of the
 * vendor's current document that the seed does not have.
 */
export type Origin = "spec" | "vendor";
