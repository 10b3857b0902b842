/**
 * The one module the serialized provider in users' state names
 * (`pulumi-managed-db/dist/provider/host`, see `pulumi-contract/provider-text.ts`): dispatch from resource kind to
 * provider functions, made from the registry's entries with this process's runtime. It never
 * moves, and its kinds are never renamed: state written by a release keeps working with every
 * later one. Loaded only in Pulumi's provider host.
 */
import "./compile-cache";
import { type ProviderImpl, dynamicProvider } from "./adapters/dynamic/provider";
import { watchEngine } from "./engine-watch";
import { resourceProvider } from "./kit/lifecycle/provider";
import { dynamicHost, onEngineCancel } from "./pulumi-contract/dynamic-host";
import { quietErrorEcho } from "./pulumi-contract/error-echo";
import { REGISTRY, type ResourceKind } from "./resources/registry";
import { PROCESS_RUNTIME } from "./runtime";

// In Pulumi's dynamic provider host (never in a program, nor a test): the engine's Cancel (the
// first Ctrl-C) cancels the run, the process exits once its engine is gone, and an error the
// engine shows under its resource is not printed a second time.
const host = dynamicHost();
if (host) {
  onEngineCancel(() => PROCESS_RUNTIME.cancel?.());
  watchEngine(host.engine);
  quietErrorEcho();
}

/** Provider functions per resource kind. */
export const PROVIDERS: Readonly<Record<ResourceKind, ProviderImpl>> = Object.fromEntries(
  Object.entries(REGISTRY).map(([kind, entry]) => [
    kind,
    dynamicProvider(resourceProvider(entry.definition, entry.ops as never, PROCESS_RUNTIME), PROCESS_RUNTIME),
  ]),
) as Record<ResourceKind, ProviderImpl>;

/** The provider functions of `kind`; a kind this release does not know is an error saying why. */
export function providerOf(kind: string): ProviderImpl {
  if (!Object.prototype.hasOwnProperty.call(PROVIDERS, kind)) {
    throw new Error(
      `pulumi-managed-db does not know the resource kind "${kind}" found in this stack's state: ` +
        "it was written by a newer release of the package; install that release or a later one",
    );
  }
  return PROVIDERS[kind as ResourceKind];
}
