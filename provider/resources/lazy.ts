/**
 * Builds the provider object Pulumi serializes into every resource's state. It captures
 * only two strings and a small loader; the real code is `require`d at call time inside the
 * provider host, so the serialized text stays small (see `serializedProviderSize` in tests).
 */
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";

/** The CRUD functions a resource module exports for its provider. */
export type ProviderImpl = Required<Omit<pulumi.dynamic.ResourceProvider, "configure">> & {
  configure?: pulumi.dynamic.ResourceProvider["configure"];
};

/**
 * A provider whose methods load `moduleName` (a file of `provider/resources/`, compiled)
 * and call its exported `impl`. The module is found by package name first, so a stack
 * moved to another machine still works, then by the absolute path of this installation.
 */
export function lazyProvider(moduleName: string): pulumi.dynamic.ResourceProvider {
  const byPackage = `pulumi-managed-db/dist/provider/resources/${moduleName}`;
  const byPath = path.join(__dirname, moduleName);
  const load = (): ProviderImpl => {
    let mod: { impl: ProviderImpl };
    try {
      mod = require(byPackage);
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
      mod = require(byPath);
    }
    return mod.impl;
  };
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
