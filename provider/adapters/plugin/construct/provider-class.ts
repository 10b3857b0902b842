/**
 * The explicit provider of the native entry, `Provider` (`pulumi:providers:mdb`), as a generated
 * SDK has it: a program that needs settings other than the stack's (another API key or project,
 * other limits) declares one and passes it as the `provider` option of the native classes. Its
 * arguments are the configuration's keys (`config-declaration.ts`), the secret key kept secret,
 * and every value that is not text sent as its JSON text, as a generated SDK sends it, so a stack
 * records the same settings whichever route made it. A key left out falls back to its environment
 * variable in the plugin, as the default provider's do.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { PROVIDER_CONFIG } from "../../../config-declaration";
import { typeFactsOf } from "../../../kit/fields/type-facts";
import { NATIVE_PACKAGE as PACKAGE } from "../../../type-tokens";

/** The arguments of a {@link Provider}: each key of the configuration, as stack config `mdb:<key>` takes it. */
export type ProviderArgs = {
  [K in keyof z.input<typeof PROVIDER_CONFIG>]?: pulumi.Input<
    NonNullable<z.input<typeof PROVIDER_CONFIG>[K]>
  >;
};

/** The configuration's keys whose values the engine keeps secret (the API's secret key). */
const SECRET_KEYS: ReadonlySet<string> = new Set(
  Object.entries(PROVIDER_CONFIG.shape)
    .filter(([, type]) => typeFactsOf((type as z.ZodOptional<z.ZodType>).unwrap()).secret)
    .map(([key]) => key),
);

/** A provider of the plugin `mdb` with its own settings, for the native classes' `provider` option. */
export class Provider extends pulumi.ProviderResource {
  /** Whether `value` is a {@link Provider} (of any copy of this package). */
  static isInstance(value: unknown): value is Provider {
    return (value as { __pulumiType?: unknown } | undefined)?.__pulumiType === `pulumi:providers:${PACKAGE}`;
  }

  /** Declares the provider `name` with the settings `args` (each left out: its environment variable). */
  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const inputs: pulumi.Inputs = {};
    for (const [key, value] of Object.entries(args)) {
      if (value === undefined) continue;
      const text = pulumi.output(value).apply((v) => (typeof v === "string" ? v : JSON.stringify(v)));
      inputs[key] = SECRET_KEYS.has(key) ? pulumi.secret(text) : text;
    }
    super(PACKAGE, name, inputs, opts);
  }
}
