/**
 * The package schema of the plugin `mdb`, generated from the declarations (`sources.ts`) and
 * their doc comments: never written by hand. `npm run docs` writes it to `plugin/schema.json`,
 * which the plugin's GetSchema answers with; `test/unit/docs.test.ts` fails when the file and
 * the declarations disagree.
 */
import { componentSpec } from "./component";
import { configVariables, providerSpec } from "./config";
import type { DocSource } from "./docs";
import { functionSpecs } from "./functions";
import { languageSections } from "./languages";
import { resourceSpec } from "./resources";
import type { SchemaSources } from "./sources";
import type { PackageSpec, ResourceSpec } from "./spec";
import { PACKAGE, tokenOf as token } from "../kinds";
import { TypeCatalog } from "./zod-types";

/** The npm package's manifest, for what the schema repeats of it. */
export interface Manifest {
  /** The package's version: the plugin's. */
  version: string;
  /** Its home page. */
  homepage?: string;
  /** Where its sources are. */
  repository?: string | { url?: string };
  /** Its license. */
  license?: string;
  /** Its peer dependencies: `@pulumi/pulumi`'s range is the generated SDKs'. */
  peerDependencies?: Record<string, string>;
}

/** What the package is, for the registry and the SDKs' READMEs. */
const DESCRIPTION =
  "Managed database services, read replica sets, VPCs and VPC peerings of the Managed Database " +
  "Service Control API, with a production bundle (`ProductionDatabase`) and lookups.";

/** `object` with its keys in sorted order, for a stable file. */
function sorted<T>(object: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The package schema of `sources`, described by `docs`, at `manifest`'s version. */
export function packageSchema(sources: SchemaSources, manifest: Manifest, docs: DocSource): PackageSpec {
  const catalog = new TypeCatalog(docs);
  const resources: Record<string, ResourceSpec> = {};
  for (const def of sources.resources) resources[token(def.typeName)] = resourceSpec(def, catalog, docs);
  resources[token(sources.component.name)] = componentSpec(sources.component, catalog, docs);
  const functions = functionSpecs(sources.functions, catalog, docs);
  const variables = configVariables(sources.config, catalog);
  const repository = typeof manifest.repository === "string" ? manifest.repository : manifest.repository?.url;
  return {
    name: PACKAGE,
    displayName: "Managed Database",
    version: manifest.version,
    description: DESCRIPTION,
    keywords: ["pulumi", PACKAGE, "database", "postgresql", "category/database", "kind/native"],
    ...(manifest.homepage ? { homepage: manifest.homepage } : {}),
    ...(repository ? { repository: repository.replace(/^git\+/, "").replace(/\.git$/, "") } : {}),
    ...(manifest.license ? { license: manifest.license } : {}),
    config: { variables },
    provider: providerSpec(sources.config, catalog, docs),
    types: sorted(catalog.types),
    resources,
    functions,
    language: languageSections(manifest.peerDependencies?.["@pulumi/pulumi"] ?? "^3.0.0"),
  };
}
