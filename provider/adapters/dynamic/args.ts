/**
 * The TypeScript types of the dynamic classes, inferred from a field table: the args a program
 * writes (each input as a value, an Output, or an object or list of those; optional when it may
 * be absent) and the class's properties (every row as a `pulumi.Output`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { AnyInputRow, FieldTable, ValueOf } from "../../kit/fields/field-table";

/** An input as a program may give it: a value, an Output, or an object or array of those. */
export type Inputs<T> = undefined extends T ? DefinedInputs<NonNullable<T>> | undefined : DefinedInputs<T>;
/** {@link Inputs} of a value that is never undefined; a union of plain values stays one Input. */
type DefinedInputs<T> = [T] extends [readonly (infer E)[]]
  ? pulumi.Input<Inputs<E>[]>
  : [T] extends [object]
    ? pulumi.Input<{ [K in keyof T]: Inputs<T[K]> }>
    : pulumi.Input<T>;

/** The args of a resource class: each input as a program writes it; optional when it may be absent. */
export type ArgsOf<F extends FieldTable> = {
  [K in keyof F as F[K] extends AnyInputRow ? (MayOmit<F[K]> extends true ? never : K) : never]: ArgOf<F[K]>;
} & {
  [K in keyof F as F[K] extends AnyInputRow ? (MayOmit<F[K]> extends true ? K : never) : never]?: ArgOf<F[K]>;
};
/** True when a program may leave the input out: it has a default, is optional, or is a generated name. */
type MayOmit<Rw> = Rw extends { generated: true }
  ? true
  : Rw extends { readonly type: infer Z extends z.ZodType }
    ? undefined extends z.input<Z>
      ? true
      : false
    : false;
/** An input as a program gives it. */
type ArgOf<Rw> = Rw extends { readonly type: infer Z extends z.ZodType } ? Inputs<z.input<Z>> : never;

/**
 * The class's properties: every row as a `pulumi.Output`; a row the resource may not have is
 * `null` when it has none (`absentAsNull`: known at a preview, no warning at an `up`), and
 * undefined in a state an earlier release wrote, until the resource is next refreshed or updated.
 */
export type OutputProps<F extends FieldTable> = {
  readonly [K in keyof F]: pulumi.Output<MayBeNull<ValueOf<F[K]>>>;
};
/** `T`, or `null` too when it may be undefined. */
type MayBeNull<T> = undefined extends T ? T | null : T;
