/**
 * The provider's configuration in the package schema: `config.variables` (stack config
 * `mdb:<key>`) and the provider resource's inputs (an explicit provider's), both from the
 * configuration's declaration (`provider/config-declaration.ts`), each with its environment
 * variable. The provider's inputs take no environment default for the credentials: an SDK
 * would read them in the program's process and store them in the provider's state, while the
 * provider reads them at run time itself. An SDK hands a provider its non-text inputs as JSON
 * text (`"true"`, `"5000"`), as stack config holds them.
 */
import type { z } from "zod";
import { type DocSource, SUBJECTS } from "./docs";
import type { PropertySpec, ResourceSpec } from "./spec";
import type { TypeCatalog } from "./zod-types";

/** The configuration, declared: its keys (a zod object) and the variable each falls back to. */
export interface ConfigDeclaration {
  /** Every key, by its name after `mdb:`. */
  keys: z.ZodObject;
  /** The environment variable of `key`. */
  envVar(key: string): string;
}

/** Keys an SDK must not fill from the program's environment into a provider's inputs. */
const CREDENTIALS = new Set(["publicKey", "secretKey"]);

/** The configuration's variables, each with its environment default. */
export function configVariables(
  config: ConfigDeclaration,
  catalog: TypeCatalog,
): Record<string, PropertySpec> {
  const { properties } = catalog.objectOf(config.keys.shape, { subject: SUBJECTS.config, path: [] });
  return Object.fromEntries(
    Object.entries(properties).map(([key, spec]) => [
      key,
      { ...spec, defaultInfo: { environment: [config.envVar(key)] } },
    ]),
  );
}

/** The provider resource: an explicit provider's inputs, the configuration's keys. */
export function providerSpec(config: ConfigDeclaration, catalog: TypeCatalog, docs: DocSource): ResourceSpec {
  const variables = configVariables(config, catalog);
  const inputs: Record<string, PropertySpec> = {};
  const properties: Record<string, PropertySpec> = {};
  for (const [key, variable] of Object.entries(variables)) {
    const { defaultInfo, ...spec } = variable;
    inputs[key] = CREDENTIALS.has(key) || !defaultInfo ? spec : variable;
    // An SDK reads a provider's outputs as text: the non-secret text settings.
    if (!spec.secret && "type" in spec && spec.type === "string") properties[key] = spec;
  }
  const description = docs.field(SUBJECTS.config, [])?.description;
  return { ...(description ? { description } : {}), inputProperties: inputs, properties };
}
