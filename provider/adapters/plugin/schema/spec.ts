/**
 * The parts of Pulumi's package schema (its metaschema `pkg/codegen/schema/pulumi.json`) that the
 * generator writes: a type reference, a property, an object or enum type, a resource, a
 * function and the package around them. Only what we emit is typed here.
 */

/** A reference to a type: a primitive, a list, a map, a named type, or a union of those. */
export type TypeSpec =
  | { type: "boolean" | "integer" | "number" | "string" }
  | { type: "array"; items: TypeSpec }
  | { type: "object"; additionalProperties: TypeSpec }
  | { $ref: string }
  | { oneOf: TypeSpec[] };

/** A property of a resource, an object type, a function's inputs or outputs, or the config. */
export type PropertySpec = TypeSpec & {
  /** What it is (Markdown): its doc comment. */
  description?: string;
  /** The value an absent input means (a boolean, number or string). */
  default?: boolean | number | string;
  /** Environment variables that give the value when the program does not. */
  defaultInfo?: { environment: string[] };
  /** Its doc comment's `@deprecated` text. */
  deprecationMessage?: string;
  /** Kept secret by the engine and the SDKs. */
  secret?: boolean;
  /** A change replaces the resource. */
  replaceOnChanges?: boolean;
  /** An input given as it is, never as an Output. */
  plain?: boolean;
};

/** An object type's properties and which are always there. */
export interface ObjectTypeSpec {
  /** What it is (Markdown). */
  description?: string;
  /** Its properties by name. */
  properties?: Record<string, PropertySpec>;
  /** Properties a program must give (inputs) and always has (outputs). */
  required?: string[];
}

/** A named type of the package: an object type or an enum. */
export type ComplexTypeSpec =
  | (ObjectTypeSpec & { type: "object" })
  | {
      description?: string;
      type: "string" | "integer" | "number" | "boolean";
      enum: { value: string | number | boolean }[];
    };

/** A resource, the provider or a component. */
export interface ResourceSpec extends ObjectTypeSpec {
  /** Its inputs by name. */
  inputProperties?: Record<string, PropertySpec>;
  /** Inputs a program must give. */
  requiredInputs?: string[];
  /** Its doc comment's `@deprecated` text. */
  deprecationMessage?: string;
  /** A component (served by Construct), not a custom resource. */
  isComponent?: boolean;
}

/** A function (an invoke). */
export interface FunctionSpec {
  /** What it does (Markdown). */
  description?: string;
  /** Its arguments. */
  inputs?: ObjectTypeSpec;
  /** Its result, an object. */
  outputs: ObjectTypeSpec;
  /** Its doc comment's `@deprecated` text. */
  deprecationMessage?: string;
}

/** The package schema. */
export interface PackageSpec {
  /** The package's name: the first part of every token. */
  name: string;
  /** Its human-friendly name. */
  displayName: string;
  /** Its version (semver), the npm package's. */
  version: string;
  /** What it is (Markdown). */
  description: string;
  /** Words it is found by. */
  keywords: string[];
  /** Its home page. */
  homepage?: string;
  /** Where its sources are. */
  repository?: string;
  /** Its license. */
  license?: string;
  /** Who publishes it. */
  publisher?: string;
  /** The provider's configuration. */
  config: { variables: Record<string, PropertySpec>; defaults?: string[] };
  /** The provider resource (an explicit provider's inputs). */
  provider: ResourceSpec;
  /** Named object and enum types, by token. */
  types: Record<string, ComplexTypeSpec>;
  /** Resources and components, by token. */
  resources: Record<string, ResourceSpec>;
  /** Functions, by token. */
  functions: Record<string, FunctionSpec>;
  /** What each language's SDK generator reads. */
  language: Record<string, Record<string, unknown>>;
}
