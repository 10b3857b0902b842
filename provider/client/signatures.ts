/**
 * The signature of each client method, derived from its row of `api/operations.ts` by type
 * alone: path parameters in template order, then the request body with the wire's snake_case
 * keys in camelCase, and the lenient answer. The fields the client's wire rules require
 * (`wire.ts`: both sizes on a resize, the strategy of a fork, the region of a VPC) are required.
 */
import type { OperationId, PathArgs, RequestOf, ResponseOf } from "../../api/operations";
import type { WireRules } from "./wire";

/** `cpu_millis` -> `cpuMillis`. */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** A request body with its top-level snake_case keys in camelCase. */
export type CamelBody<T> = T extends object ? { [K in keyof T as K extends string ? Camel<K> : K]: T[K] } : T;

/** The camelCase names of the fields the client's wire rule of `Id` requires. */
type RequiredFields<Id extends OperationId> = Id extends keyof WireRules
  ? WireRules[Id] extends { required: readonly (infer F extends string)[] }
    ? Camel<F>
    : never
  : never;

/** `T` with the keys `K` required and never undefined. */
type WithRequired<T, K extends PropertyKey> = [K] extends [never]
  ? T
  : Omit<T, K & keyof T> & { [P in K & keyof T]-?: Exclude<T[P], undefined> };

/** The body of operation `Id` as a caller of the client writes it. */
export type BodyOf<Id extends OperationId> = WithRequired<CamelBody<RequestOf<Id>>, RequiredFields<Id>>;

/** The arguments of operation `Id`: path parameters in order, then the body it takes (optional when every field is). */
export type CallArgs<Id extends OperationId> =
  RequestOf<Id> extends undefined
    ? PathArgs<Id>
    : object extends BodyOf<Id>
      ? [...PathArgs<Id>, body?: BodyOf<Id>]
      : [...PathArgs<Id>, body: BodyOf<Id>];

/** What the method of `Id` resolves to: the answer, or the record its wire rule reads back. */
export type AnswerOf<Id extends OperationId> = Id extends keyof WireRules
  ? WireRules[Id] extends { readBack: infer B extends OperationId }
    ? ResponseOf<B>
    : ResponseOf<Id>
  : ResponseOf<Id>;

/** One method per operation, named by its id: `api.getService(projectId, serviceId)`. */
export type OperationMethods = { [Id in OperationId]: (...args: CallArgs<Id>) => Promise<AnswerOf<Id>> };
