/**
 * What the package schema is generated from, each declared once elsewhere: the resource kinds
 * (the registry's definitions and field tables), the functions' declarations, the component's
 * declaration and the configuration's.
 */
import { PRODUCTION_DATABASE } from "../../../components/production-database-args";
import { PROVIDER_CONFIG, configEnvVar, type ConfigKey } from "../../../config-declaration";
import { FUNCTIONS, type FunctionDeclaration } from "../../../functions/declarations";
import type { FieldTable, ResourceDefinition } from "../../../kit/fields/field-table";
import { REGISTRY } from "../../../resources/registry";
import type { ComponentDeclaration } from "./component";
import type { ConfigDeclaration } from "./config";

/** The declarations a package schema describes. */
export interface SchemaSources {
  /** The resource kinds, in the registry's order. */
  resources: ResourceDefinition<FieldTable, string>[];
  /** The functions, by name. */
  functions: Readonly<Record<string, FunctionDeclaration>>;
  /** The component. */
  component: ComponentDeclaration;
  /** The provider's configuration. */
  config: ConfigDeclaration;
}

/** This package's declarations. */
export const PACKAGE_SOURCES: SchemaSources = {
  resources: Object.values(REGISTRY).map((entry) => entry.definition),
  functions: FUNCTIONS,
  component: PRODUCTION_DATABASE,
  config: { keys: PROVIDER_CONFIG, envVar: (key) => configEnvVar(key as ConfigKey) },
};
