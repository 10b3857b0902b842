/**
 * The provider object Pulumi serializes into every resource's state, and the entries that
 * states written by older releases load.
 *
 * STATE CONTRACT. Pulumi's dynamic provider host runs the `__provider` text stored in a
 * resource's state, and for `read` (refresh) and `delete` (destroy) it uses the text of the
 * OLD state, written by whatever release created or last updated the resource. So every
 * module id a release ever stored must keep loading, in every later release:
 * - since 0.2.0: `pulumi-managed-db/dist/provider/host`, exporting `providerOf(kind)`, with a
 *   kind of `ResourceKind` (`../host.ts`), then the absolute path of the host module;
 * - 0.1.0: `pulumi-managed-db/dist/provider/resources/{service,read-replica-set,vpc,vpc-peering}`,
 *   exporting `impl`, then the absolute path of that module (see {@link legacyEntry}).
 * package.json's `exports` lists each of these ids exactly (a `./dist/*` pattern does not add
 * the `.js` the ids lack); `test/e2e/state-0.1.0.test.ts` runs a recorded 0.1.0 stack.
 */
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderImpl } from "./lifecycle";
import type { ResourceKind } from "./spec";

/** The module id the serialized provider names first: stable across releases. */
export const HOST_MODULE = "pulumi-managed-db/dist/provider/host";

/** What the host module exports. */
export interface HostModule {
  /** The provider functions of a resource kind. */
  providerOf(kind: string): ProviderImpl;
}

/** Provider functions that each load `load()` at call time and call the same function of it. */
function delegating(load: () => ProviderImpl): ProviderImpl {
  return {
    configure: async (req) => {
      const impl = load();
      if (impl.configure) await impl.configure(req);
    },
    check: (olds, news) => load().check(olds, news),
    diff: (id, olds, news) => load().diff(id, olds, news),
    create: (inputs) => load().create(inputs),
    read: (id, props) => load().read(id, props),
    update: (id, olds, news) => load().update(id, olds, news),
    delete: (id, props) => load().delete(id, props),
  };
}

/** One provider object per kind: Pulumi caches a provider's serialized text by object identity. */
const providers = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/**
 * The provider of resources of `kind`, as serialized into state. It captures two strings, the
 * kind and a small loader, and `require`s the host at call time inside the provider host, so
 * the serialized text stays small and never freezes a source file's path. The host is found by
 * package name first (a stack moved to another machine still works), then by the absolute
 * path of this installation.
 *
 * The same object is returned for every resource of a kind, so the program serializes it once
 * per kind instead of once per resource (closure serialization costs tens of milliseconds).
 */
export function providerFor(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  let provider = providers.get(kind);
  if (provider === undefined) {
    provider = newProvider(kind);
    providers.set(kind, provider);
  }
  return provider;
}

/** A new provider object of `kind`; see {@link providerFor}. */
function newProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const byPackage = HOST_MODULE;
  const byPath = path.join(__dirname, "..", "host");
  return delegating(() => {
    let host: HostModule;
    try {
      host = require(byPackage);
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
      host = require(byPath);
    }
    return host.providerOf(kind);
  });
}

/**
 * The `impl` a 0.1.0 state loads from `dist/provider/resources/<kind>`: the host's provider of
 * that kind, loaded at call time (so the resource modules do not load the host's imports).
 */
export function legacyEntry(kind: ResourceKind): ProviderImpl {
  return delegating(() => (require("../host") as HostModule).providerOf(kind));
}
