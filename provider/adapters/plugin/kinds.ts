/**
 * The plugin's resource types: one per kind of `resources/registry.ts`, its token
 * `mdb:index:<typeName>` (the definition's class name), each with its kit provider, all made
 * with the plugin's one runtime. A token the plugin does not serve is an error naming it and
 * the ones it serves, before anything else happens.
 */
import type { Runtime } from "../../kit/context";
import type { KitProvider } from "../../kit/lifecycle/kit-provider";
import { resourceProvider } from "../../kit/lifecycle/provider";
import { didYouMean } from "../../kit/messages/suggest";
import { type ResourceSpec, specOf } from "../../kit/spec";
import { REGISTRY } from "../../resources/registry";
import { NATIVE_PACKAGE as PACKAGE, nativeToken as tokenOf } from "../../type-tokens";

/** The plugin's package name (`mdb`) and the token of a name in it (`mdb:index:<name>`). */
export { PACKAGE, tokenOf };

/** One resource type the plugin serves. */
export interface Kind {
  /** Its token. */
  token: string;
  /** What generic code reads of it. */
  spec: ResourceSpec;
  /** Its provider functions. */
  kit: KitProvider;
}

/** The resource types of the plugin, by token. */
export class Kinds {
  private readonly byToken = new Map<string, Kind>();

  constructor(runtime: Runtime) {
    for (const entry of Object.values(REGISTRY)) {
      const spec = specOf(entry.definition);
      const kit = resourceProvider(entry.definition, entry.ops as never, runtime);
      this.byToken.set(tokenOf(spec.typeName), { token: tokenOf(spec.typeName), spec, kit });
    }
  }

  /** Every type served. */
  all(): Kind[] {
    return [...this.byToken.values()];
  }

  /** The type `token`; throws naming it and the types served when the plugin does not serve it. */
  of(token: string): Kind {
    const kind = this.byToken.get(token);
    if (kind) return kind;
    const known = [...this.byToken.keys()];
    throw new Error(
      `the ${PACKAGE} plugin has no resource type "${token}"${didYouMean(token, known)} ` +
        `(its types: ${known.join(", ")})`,
    );
  }
}
