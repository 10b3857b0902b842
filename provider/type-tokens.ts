/**
 * The type token each face gives a resource kind, in the stacks it writes: part of the state
 * contract (a stack moves from one face to the other by the dynamic token as an alias).
 */

/** The module part of every dynamic type token: `pulumi-nodejs:dynamic/mdb:<Class>`. */
export const TYPE_MODULE = "mdb";

/** The dynamic classes' type token of `typeName` (`Service`): `pulumi-nodejs:dynamic/mdb:Service`. */
export function dynamicTypeToken(typeName: string): string {
  return `pulumi-nodejs:dynamic/${TYPE_MODULE}:${typeName}`;
}

/** The native plugin's package name: the first part of its tokens, and the namespace of its config. */
export const NATIVE_PACKAGE = "mdb";

/** The native plugin's token of a type, function or component `name`: `mdb:index:<name>`. */
export function nativeToken(name: string): string {
  return `${NATIVE_PACKAGE}:index:${name}`;
}
