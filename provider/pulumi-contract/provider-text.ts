/**
 * RELIANCE on Pulumi's dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`), which
 * Pulumi does not document: it stores the `__provider` input of a dynamic resource in state,
 * loads that text with `require-from-string` and calls its `handler()` for the provider
 * functions (`test/unit/pulumi-contract.test.ts` checks the installed release still does). Why:
 * writing the text ourselves instead of running Pulumi's closure serializer saves hundreds of
 * milliseconds of every preview (docs/bench.md), and it keeps a small, stable module id in
 * users' state.
 *
 * The provider text stored with every resource's state, and the entries that states written
 * by older releases load.
 *
 * STATE CONTRACT. Pulumi's dynamic provider host runs the `__provider` text stored in a
 * resource's state, and for `read` (refresh) and `delete` (destroy) it uses the text of the
 * OLD state, written by whatever release created or last updated the resource. So every
 * module id a release ever stored must keep loading, in every later release:
 * - since 0.2.0: `pulumi-managed-db/dist/provider/host`, exporting `providerOf(kind)`, with a
 *   kind of `resources/registry.ts`, then the absolute path of the host module (0.2.0
 *   stored Pulumi's serialization of a provider object, later releases {@link providerText};
 *   both load the host the same way, `test/unit/serialized-provider.test.ts` runs each);
 * - 0.1.0: `pulumi-managed-db/dist/provider/resources/{service,read-replica-set,vpc,vpc-peering}`,
 *   exporting `impl`, then the absolute path of that module (see {@link legacyEntry}); each is
 *   now the folder of that resource, whose `index.js` exports `impl`.
 * package.json's `exports` lists each of these ids exactly (a `./dist/*` pattern does not add
 * the `.js` the ids lack); `test/e2e/state-0.1.0.test.ts` runs a recorded 0.1.0 stack.
 */
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";

/** The functions of a dynamic provider. */
type ProviderImpl = pulumi.dynamic.ResourceProvider;

/** The input under which Pulumi's dynamic provider host finds the provider text. */
export const PROVIDER_INPUT = "__provider";

/** The module id the serialized provider names first: stable across releases. */
export const HOST_MODULE = "pulumi-managed-db/dist/provider/host";

/** What the host module exports. */
export interface HostModule {
  /** The provider functions of a resource kind. */
  providerOf(kind: string): ProviderImpl;
}

/** Calls a provider function `fn` the loaded provider has (all of ours have every one). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function call(fn: ((...args: any[]) => any) | undefined, ...args: unknown[]): any {
  return (fn as (...a: unknown[]) => unknown)(...args);
}

/** Provider functions that each load `load()` at call time and call the same function of it. */
function delegating(load: () => ProviderImpl): ProviderImpl {
  return {
    configure: async (req) => {
      const impl = load();
      if (impl.configure) await impl.configure(req);
    },
    check: (olds, news) => call(load().check, olds, news),
    diff: (id, olds, news) => call(load().diff, id, olds, news),
    create: (inputs) => call(load().create, inputs),
    read: (id, props) => call(load().read, id, props),
    update: (id, olds, news) => call(load().update, id, olds, news),
    delete: (id, props) => call(load().delete, id, props),
  };
}

/** The provider text of each kind, made once per program. */
const texts = new Map<string, string>();

/**
 * The provider of resources of `kind`, as the module text stored in state under `__provider`
 * (what Pulumi's provider host loads with `require-from-string` and calls `handler()` of). It
 * holds two strings and a small loader, and `require`s the host at call time inside the
 * provider host, so it stays small and never freezes a source file's path. The host is found
 * by package name first (a stack moved to another machine still works), then by the absolute
 * path of this installation.
 *
 * Written here rather than made by Pulumi's closure serializer (which `pulumi.dynamic.Resource`
 * runs): the serializer loads TypeScript's parser and inspects each closure, hundreds of
 * milliseconds of every program's preview, for a text that only ever varies in the kind and
 * the path. It behaves like the serialized form releases before 0.3.0 stored (recorded in
 * `test/fixtures/provider-text-0.2.0`, which keeps loading).
 */
export function providerText(kind: string): string {
  let text = texts.get(kind);
  if (text === undefined) {
    text = newProviderText(kind);
    texts.set(kind, text);
  }
  return text;
}

/** See {@link providerText}. */
function newProviderText(kind: string): string {
  const byPath = path.join(__dirname, "..", "host");
  const methods = ["check", "diff", "create", "read", "update", "delete"]
    .map((m) => `    ${m}: function () { var impl = load(); return impl.${m}.apply(impl, arguments); },`)
    .join("\n");
  return [
    "// pulumi-managed-db: the provider of one resource kind; loads the package's host at call time.",
    "exports.handler = function () {",
    `  var byPackage = ${JSON.stringify(HOST_MODULE)};`,
    `  var byPath = ${JSON.stringify(byPath)};`,
    `  var kind = ${JSON.stringify(kind)};`,
    "  function load() {",
    "    var host;",
    "    try {",
    "      host = require(byPackage);",
    "    } catch (error) {",
    '      if (!error || error.code !== "MODULE_NOT_FOUND") throw error;',
    "      host = require(byPath);",
    "    }",
    "    return host.providerOf(kind);",
    "  }",
    "  return {",
    "    configure: async function (req) { var impl = load(); if (impl.configure) await impl.configure(req); },",
    methods,
    "  };",
    "};",
    "",
  ].join("\n");
}

/**
 * The `impl` a 0.1.0 state loads from `dist/provider/resources/<kind>`: the provider `load()`
 * gives, loaded at call time (so a program loading the resource class does not load it).
 */
export function legacyEntry(load: () => ProviderImpl): ProviderImpl {
  return delegating(load);
}
