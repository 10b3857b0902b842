/**
 * Field tables: a resource declares each of its inputs and outputs once, as one row of a table
 * (`resources/<kind>/fields.ts`), with the row's doc comment as its documentation. Everything
 * else is derived here or by inference from the table: the args, inputs and outputs types, the
 * class's properties (docs included, through the row's doc comment), the `check` schema, the diff
 * rules, the registered output names, the secret outputs, the stables, the outputs a record
 * shows, and the docs tables (`scripts/docs.js`). See docs/architecture.md, "Adding an input".
 */
import { z } from "zod";
import type { OperationId } from "../../../api/operations";
import type { DiffRule } from "./diff";
import type { IdShape, ResourceRef } from "./ids";
import { withoutUndefined } from "./outputs";

/** How a change of an input is carried out: the three ways, and what each needs. */
export type Change =
  /** The API cannot change it: the resource is replaced; `replace` says why, for the preview. */
  | { replace: string | true }
  /**
   * In place, by the API actions named (operation ids; the plan makes the calls); a change
   * `replaceIf` holds for cannot be, and replaces the resource, for the reason `why`.
   */
  | {
      update: readonly OperationId[];
      replaceIf?: (desired: unknown, observed: unknown) => boolean;
      why?: string;
    }
  /** In place with no API call: only the stack keeps it (a setting the delete or the outputs read). */
  | { stackOnly: true };

/** What a row of either kind may say. */
interface RowFacts<R> {
  /** Pulumi keeps it secret (`additionalSecretOutputs`); previews print `[secret]`. */
  secret?: boolean;
  /** Never changes in place (an id): listed in diff's `stables`. */
  stable?: boolean;
  /** The class's property is the Pulumi id itself (known during preview), not a registered output. */
  fromId?: boolean;
  /**
   * Its observed value in a record of the API; absent for what no record shows (a setting, a
   * write-only input), which the outputs take from what the stack remembers. `memory` is what
   * the stack remembers of the resource (its settings and what its provider keeps), for a value
   * the record shows only in part.
   */
  read?: (record: R, ref: ResourceRef<string>, memory: Readonly<Record<string, unknown>>) => unknown;
  /**
   * Its value right after the create call, from the checked inputs `want`, when the create
   * does not carry it (a setting made by a later call); absent: the input's own value. The
   * preview of a replacement plans the calls that follow the create from these.
   */
  created?: (want: Record<string, unknown>) => unknown;
}

/**
 * An input of a resource (also an output: its value as observed). `OZ` is the output's type
 * when it differs from the input's (a `projectId` given or not is always resolved; a setting
 * may be absent from states written before it existed).
 */
export interface InputRow<
  Z extends z.ZodType = z.ZodType,
  R = never,
  OZ extends z.ZodType = Z,
> extends RowFacts<R> {
  /** Which kind of row. */
  readonly role: "input";
  /** Type and limits; a `.default()` is the value an absent input means, in check and diff. */
  readonly type: Z;
  /** Its type as an output (the value observed): `type` itself unless it differs. */
  readonly outputType: OZ;
  /** How a change is carried out. */
  readonly change: Change;
  /** Equality of desired and observed values, where plain deep equality is wrong. */
  readonly equals?: (desired: unknown, observed: unknown) => boolean;
}

/** An output only: what the API (or the provider) adds, of type `Z` (never parsed: it describes). */
export interface OutputRow<Z extends z.ZodType = z.ZodType, R = never> extends RowFacts<R> {
  /** Which kind of row. */
  readonly role: "output";
  /** Its type, for the class, the schema and the docs. */
  readonly type: Z;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- a table's rows read records of its own type */
/** An input row of any table. */
export type AnyInputRow = InputRow<z.ZodType, any, z.ZodType>;
/** A row of a field table. */
export type Row = AnyInputRow | OutputRow<z.ZodType, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A field table: the rows of a resource, by property name. */
export type FieldTable = Record<string, Row>;

/** What a secret row's type says of it, so types can tell secret rows apart (see {@link SecretName}). */
export interface SecretMark {
  /** Secret. */
  readonly secret: true;
}

/** The facts of an input row. */
type InputFacts<R> = RowFacts<R> & { equals?: InputRow["equals"] };

/** The row builders of a resource whose API record is `R` (see {@link rowsOf}). */
export interface RowBuilders<R> {
  /** An input of type `type`, changed as `change` says. */
  input<Z extends z.ZodType>(
    type: Z,
    change: Change,
    facts: InputFacts<R> & SecretMark,
  ): InputRow<Z, R> & SecretMark;
  input<Z extends z.ZodType>(type: Z, change: Change, facts?: InputFacts<R>): InputRow<Z, R>;
  /**
   * A setting: an input only the stack keeps (no record shows it, no call carries it), so its
   * output may be absent (states written before it existed).
   */
  setting<Z extends z.ZodType>(
    type: Z,
    facts: RowFacts<R> & SecretMark,
  ): InputRow<Z, R, z.ZodOptional<Z>> & SecretMark;
  setting<Z extends z.ZodType>(type: Z, facts?: RowFacts<R>): InputRow<Z, R, z.ZodOptional<Z>>;
  /** The resource's `name`: optional in the args, since the class generates a missing one (see `naming.ts`). */
  name<Z extends z.ZodType>(
    type: Z,
    change: Change,
    facts?: RowFacts<R>,
  ): InputRow<Z, R> & { readonly generated: true };
  /** An output of type `type`. */
  output<Z extends z.ZodType>(type: Z, facts: RowFacts<R> & SecretMark): OutputRow<Z, R> & SecretMark;
  output<Z extends z.ZodType>(type: Z, facts?: RowFacts<R>): OutputRow<Z, R>;
}

/** The row builders of a resource whose API record is `R`, so `read` is typed. */
export function rowsOf<R>(): RowBuilders<R> {
  return {
    input: (type: z.ZodType, change: Change, facts: InputFacts<R> = {}) =>
      ({ role: "input", type, outputType: type, change, ...facts }) as never,
    setting: (type: z.ZodType, facts: RowFacts<R> = {}) =>
      ({ role: "input", type, outputType: type.optional(), change: { stackOnly: true }, ...facts }) as never,
    name: (type: z.ZodType, change: Change, facts: RowFacts<R> = {}) =>
      ({ role: "input", type, outputType: type, change, generated: true, ...facts }) as never,
    output: (type: z.ZodType, facts: RowFacts<R> = {}) => ({ role: "output", type, ...facts }) as never,
  };
}

/** Names of the secret rows of table `F`. */
export type SecretName<F extends FieldTable> = {
  [K in keyof F]: F[K] extends { readonly secret: true } ? K : never;
}[keyof F] &
  string;

/** A row's type as an output: its own, or its `outputType` for an input whose output differs. */
export type OutputTypeOf<Rw> = Rw extends { readonly role: "input"; readonly outputType: infer OZ }
  ? OZ
  : Rw extends { readonly role: "output"; readonly type: infer Z }
    ? Z
    : never;

/** Input names of table `F`. */
export type InputName<F extends FieldTable> = {
  [K in keyof F]: F[K] extends AnyInputRow ? K : never;
}[keyof F] &
  string;

/** The inputs after check: defaults filled in; an input that may still be absent is optional. */
export type InputsOf<F extends FieldTable> = Optionals<{
  [K in keyof F as F[K] extends AnyInputRow ? K : never]: F[K] extends {
    readonly type: infer Z extends z.ZodType;
  }
    ? z.output<Z>
    : never;
}>;

/** `T` with the keys whose values may be undefined made optional. */
type Optionals<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: T[K];
};

/** The value of a row in the outputs: its output type's. */
export type ValueOf<Rw> = z.output<OutputTypeOf<Rw>>;

/** The outputs the provider reports: every row, as observed (an output may be absent). */
export type OutputsOf<F extends FieldTable> = Optionals<{ [K in keyof F]: ValueOf<F[K]> }>;

/** A resource, declared: its names, its id, its field table and the rules across fields. */
export interface ResourceDefinition<F extends FieldTable = FieldTable, P extends string = string> {
  /** Dispatch key of its provider, stored in users' state: never renamed or reused (see `registry.ts`). */
  kind: string;
  /** Class name, the last part of the type token `pulumi-nodejs:dynamic/mdb:<typeName>`. */
  typeName: string;
  /** What it is, for messages: `read replica set`. */
  label: string;
  /** One line on what it is, for the docs. */
  summary: string;
  /** Shape of its Pulumi id (`serviceId/replicaSetId`, ...). */
  id: IdShape<P>;
  /** `generated`: a missing `name` is derived from project, stack and resource name. */
  naming: "generated" | "none";
  /** The field table. */
  fields: F;
  /** Rules across fields, added to the check schema (e.g. one count that must not exceed another). */
  refine?: (inputs: InputsOf<F>, ctx: z.RefinementCtx) => void;
  /** A status the API reports for a failed terminal state: a resource seen in it is replaced. */
  failedStatus?: string;
  /** Replacements delete the old resource first. */
  deleteBeforeReplace?: boolean;
  /**
   * The output-only rows the checked `inputs` show the resource will not have (a pooler's
   * endpoint while `connectionPooler` is false), so a preview knows them to be none rather than
   * unknown. A value unknown during preview decides nothing.
   */
  absentOutputs?: (inputs: Record<string, unknown>) => string[];
  /**
   * Inputs that, left out of the program, follow another resource of the same program: the input
   * `via` holds that resource's id, and the input takes the first of its `outputs` that has a
   * value, as it changes (a read replica set's `password`: its service's current one). How a face
   * reaches the other resource is its own (see `adapters/dynamic/links.ts`).
   */
  follows?: Readonly<Record<string, Follow>>;
}

/** Where an input a program leaves out is taken from (see `ResourceDefinition.follows`). */
export interface Follow {
  /** The input that holds the other resource's id. */
  via: string;
  /** The kind of that resource (`resources/registry.ts`). */
  kind: string;
  /** Its outputs to take, in order: the first with a value. */
  outputs: readonly string[];
}

/** What the kit reads of a definition, derived once from its table (see {@link factsOf}). */
export interface DerivedFacts {
  /** Check schema: the inputs, defaults filled in, hidden inputs passed through. */
  inputs: z.ZodType;
  /** Input names, in table order. */
  inputNames: string[];
  /** Diff rule per input. */
  diffRules: Record<string, DiffRule>;
  /** Outputs that never change in place. */
  stables: string[];
  /** Names registered as outputs of the class (every row but those taken from the id). */
  registered: string[];
  /** Output names that are not inputs (giving one is refused as such). */
  outputNames: string[];
  /** Outputs Pulumi keeps secret. */
  secretOutputs: string[];
  /** Inputs only the stack keeps. */
  settings: string[];
  /** Inputs no record shows (settings, write-only inputs): their observed value is what the stack remembers. */
  unobservable: string[];
  /** Rows whose class property is the Pulumi id. */
  fromId: string[];
}

/** The value an absent input means: the schema's default, if it has one. */
export function defaultOf(type: z.ZodType): unknown {
  const parsed = type.safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Whether an observed value is in the row's words: a string (or nothing) its type refuses is not
 * (a service type or region the API added); values of other shapes are compared as they are.
 */
function knownBy(type: z.ZodType): (observed: unknown) => boolean {
  return (observed) =>
    (typeof observed !== "string" && observed !== undefined) || type.safeParse(observed).success;
}

/** The diff rule of an input row. */
function diffRuleOf(row: AnyInputRow): DiffRule {
  const fallback = defaultOf(row.type);
  const replaces = "replace" in row.change || ("update" in row.change && row.change.replaceIf !== undefined);
  return {
    ...(replaces ? { known: knownBy(row.type) } : {}),
    change: "replace" in row.change ? "replace" : "update",
    ...(fallback !== undefined ? { default: fallback } : {}),
    ...(row.equals ? { equals: row.equals } : {}),
    ...("replace" in row.change && row.change.replace !== true ? { why: row.change.replace } : {}),
    ...("update" in row.change && row.change.replaceIf
      ? { replaceIf: row.change.replaceIf, ...(row.change.why ? { why: row.change.why } : {}) }
      : {}),
    ...("stackOnly" in row.change ? { stackOnly: true } : {}),
  };
}

const derived = new WeakMap<object, DerivedFacts>();

/** The facts of `def`, derived from its table once. */
export function factsOf<F extends FieldTable, P extends string>(def: ResourceDefinition<F, P>): DerivedFacts {
  let facts = derived.get(def);
  if (facts) return facts;
  const rows = Object.entries(def.fields as FieldTable);
  const inputRows = rows.filter((e): e is [string, AnyInputRow] => e[1].role === "input");
  const shape = z.object(Object.fromEntries(inputRows.map(([name, row]) => [name, row.type])));
  const refine = def.refine as ((v: unknown, ctx: z.RefinementCtx) => void) | undefined;
  facts = {
    inputs: refine ? shape.loose().superRefine(refine) : shape.loose(),
    inputNames: inputRows.map(([name]) => name),
    diffRules: Object.fromEntries(inputRows.map(([name, row]) => [name, diffRuleOf(row)])),
    stables: rows.filter(([, row]) => row.stable).map(([name]) => name),
    registered: rows.filter(([, row]) => !row.fromId).map(([name]) => name),
    outputNames: rows.filter(([, row]) => row.role === "output").map(([name]) => name),
    secretOutputs: rows.filter(([, row]) => row.secret).map(([name]) => name),
    settings: inputRows.filter(([, row]) => "stackOnly" in row.change).map(([name]) => name),
    unobservable: inputRows.filter(([, row]) => !row.read).map(([name]) => name),
    fromId: rows.filter(([, row]) => row.fromId).map(([name]) => name),
  };
  derived.set(def, facts);
  return facts;
}

/**
 * The outputs `record` shows, by the table: each row's `read` of the record, else what the
 * stack remembers (`memory`: settings, write-only inputs), which also wins over a read when set.
 */
export function readOutputs<F extends FieldTable, P extends string>(
  def: ResourceDefinition<F, P>,
  record: unknown,
  ref: ResourceRef<string>,
  memory: Partial<OutputsOf<F>>,
): OutputsOf<F> {
  const kept = memory as Record<string, unknown>;
  const outs: Record<string, unknown> = {};
  for (const [name, row] of Object.entries(def.fields as FieldTable))
    outs[name] = kept[name] !== undefined ? kept[name] : row.read?.(record as never, ref, kept);
  return outs as OutputsOf<F>;
}

/** The outputs of a resource just created from `want`, as far as the rows' `created` facts say. */
export function createdOutputs<F extends FieldTable, P extends string>(
  def: ResourceDefinition<F, P>,
  want: InputsOf<F>,
): OutputsOf<F> {
  const values: Record<string, unknown> = { ...want };
  for (const [name, row] of Object.entries(def.fields as FieldTable))
    if (row.created) values[name] = row.created(want as Record<string, unknown>);
  return values as OutputsOf<F>;
}

/**
 * The outputs a record shows on its own, as the functions return them: what the table reads of
 * it, nothing the stack remembers, and no secret.
 */
export function recordOutputs<F extends FieldTable, P extends string>(
  def: ResourceDefinition<F, P>,
  record: unknown,
  ref: ResourceRef<string>,
): Partial<OutputsOf<F>> {
  const outs = readOutputs(def, record, ref, {}) as Record<string, unknown>;
  for (const name of factsOf(def).secretOutputs) delete outs[name];
  return withoutUndefined(outs) as Partial<OutputsOf<F>>;
}
