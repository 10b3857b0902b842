/**
 * RELIANCE on the values Pulumi's engine and SDKs use on the wire for what plain JSON cannot say,
 * which the protocol's `Struct`s carry as ordinary strings and objects (Pulumi's SDKs keep them as
 * constants of their runtime: `unknownValue`, `specialSigKey`, `specialSecretSig`):
 * - a value not known yet (during preview) is the string {@link UNKNOWN};
 * - a secret is an object `{ [SIG_KEY]: SECRET_SIG, value }`.
 * Both faces meet them: the dynamic provider host hands unknowns through as they are, the plugin
 * gets unknowns and secrets in every request. `test/unit/pulumi-contract.test.ts` checks them
 * against the installed SDK.
 */

/** The string that stands for a value not known yet, during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The key whose value says what kind of special object a property holds. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";

/** The signature of a secret: `{ [SIG_KEY]: SECRET_SIG, value }`. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** The signature of a resource reference: `{ [SIG_KEY]: RESOURCE_SIG, urn, id?, packageVersion? }`. */
export const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";

/** The signature of an output value: `{ [SIG_KEY]: OUTPUT_SIG, value?, secret?, dependencies? }`. */
export const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";
