/**
 * The language sections of the package schema, as Pulumi's SDK generators read them: the
 * Pulumi SDK each generated SDK depends on (the npm package's own peer range of
 * `@pulumi/pulumi`), and versioned SDKs (`respectSchemaVersion`), so an SDK says which release
 * of the plugin it is for. Package names are the generators' defaults: `@pulumi/mdb`,
 * `pulumi_mdb`, `Pulumi.Mdb`, Go's `mdb`.
 */

/** The least release of a range like `^3.200.0` or `>=3.200.0`. */
export function leastRelease(range: string): string {
  const found = /(\d+)\.(\d+)\.(\d+)/.exec(range);
  if (!found) throw new Error(`cannot read a least release from the range "${range}"`);
  return found[0];
}

/** The language sections, for SDKs on the Pulumi SDK of `pulumiRange` (an npm range of major 3). */
export function languageSections(pulumiRange: string): Record<string, Record<string, unknown>> {
  const least = leastRelease(pulumiRange);
  const major = Number(least.split(".")[0]);
  return {
    nodejs: { dependencies: { "@pulumi/pulumi": pulumiRange }, respectSchemaVersion: true },
    python: { requires: { pulumi: `>=${least},<${major + 1}.0.0` }, respectSchemaVersion: true },
    go: { generateResourceContainerTypes: true, respectSchemaVersion: true },
    csharp: { packageReferences: { Pulumi: `[${least},${major + 1})` }, respectSchemaVersion: true },
  };
}
