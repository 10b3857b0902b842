/**
 * The TypeScript types a Node.js program writes and reads, inferred from the declarations: the
 * args of a resource class (each input as a value, an Output, or an object or list of those;
 * optional when it may be absent), its properties (every row as a `pulumi.Output`), and a
 * component's args. The dynamic classes have them, and so do the native classes the plugin builds
 * a component's children with.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { FieldTable, ValueOf } from "./kit/fields/field-table";
import type { PlainMark } from "./kit/fields/type-facts";

/** An input as a program may give it: a value, an Output, or an object or array of those. */
export type Inputs<T> = undefined extends T ? DefinedInputs<NonNullable<T>> | undefined : DefinedInputs<T>;
/** {@link Inputs} of a value that is never undefined; a union of plain values stays one Input. */
type DefinedInputs<T> = [T] extends [readonly (infer E)[]]
  ? pulumi.Input<Inputs<E>[]>
  : [T] extends [object]
    ? pulumi.Input<{ [K in keyof T]: Inputs<T[K]> }>
    : pulumi.Input<T>;

/**
 * The args of a resource class: each input as a program writes it; optional when it may be absent.
 * Rows are told apart by their `role` and read through their zod type's `_zod.input` directly:
 * structural checks against zod's classes cost a user's compiler tens of thousands of type
 * instantiations per class (`tsc --extendedDiagnostics`).
 */
export type ArgsOf<F extends FieldTable> = {
  [K in keyof F as F[K] extends InputRole ? (MayOmit<F[K]> extends true ? never : K) : never]: Inputs<
    InputOf<F[K]>
  >;
} & {
  [K in keyof F as F[K] extends InputRole ? (MayOmit<F[K]> extends true ? K : never) : never]?: Inputs<
    InputOf<F[K]>
  >;
};
/** What an input row has that an output row has not. */
type InputRole = { readonly role: "input" };
/** True when a program may leave the input out: it has a default, is optional, or is a generated name. */
type MayOmit<Rw> = Rw extends { generated: true } ? true : undefined extends InputOf<Rw> ? true : false;
/** The value a program gives for row `Rw`: its zod type's input (what `z.input` reads). */
type InputOf<Rw> = Rw extends { readonly type: { readonly _zod: { readonly input: infer I } } } ? I : never;

/**
 * The class's properties: every row as a `pulumi.Output`; a row the resource may not have is
 * `null` when it has none (`absentAsNull`: known at a preview, no warning at an `up`), and
 * undefined in a state an earlier release wrote, until the resource is next refreshed or updated.
 */
export type OutputProps<F extends FieldTable> = {
  readonly [K in keyof F]: pulumi.Output<MayBeNull<ValueOf<F[K]>>>;
};

/**
 * The args of a declaration written as one zod object (a component's): each field as a program
 * gives it, an Input unless marked plain (`plain()` outermost), where a plain object's own
 * fields are Inputs; optional when it may be absent.
 */
export type ArgsOfObject<Z extends z.ZodType> = {
  [K in keyof z.input<Z>]: FieldArg<FieldOf<Z, K>, z.input<Z>[K]>;
};
/** The zod type of field `K` of the object type `Z`. */
type FieldOf<Z, K> = Z extends { readonly shape: infer S } ? (K extends keyof S ? S[K] : never) : never;
/** A field as a program gives it: plain (its own value, an object's fields as Inputs), or an Input. */
type FieldArg<F, T> = F extends PlainMark
  ? undefined extends T
    ? PlainArg<NonNullable<T>> | undefined
    : PlainArg<T>
  : Inputs<T>;
/** A plain value: itself, or an object of Inputs. */
type PlainArg<T> = [T] extends [object] ? { [K in keyof T]: Inputs<T[K]> } : T;
/** `T`, or `null` too when it may be undefined. */
type MayBeNull<T> = undefined extends T ? T | null : T;
