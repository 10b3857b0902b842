/**
 * The signature of each client method, derived from its row of `api/operations.ts` by type
 * alone: path parameters in template order, then the request body with the wire's snake_case
 * keys in camelCase, and the lenient answer.
 */
import type { OperationId, PathArgs, RequestOf, ResponseOf } from "../../api/operations";

/** `cpu_millis` -> `cpuMillis`. */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** A request body with its top-level snake_case keys in camelCase. */
export type CamelBody<T> = T extends object ? { [K in keyof T as K extends string ? Camel<K> : K]: T[K] } : T;

/** The arguments of operation `Id`: path parameters in order, then the body it takes (optional when every field is). */
export type CallArgs<Id extends OperationId> =
  RequestOf<Id> extends undefined
    ? PathArgs<Id>
    : object extends CamelBody<RequestOf<Id>>
      ? [...PathArgs<Id>, body?: CamelBody<RequestOf<Id>>]
      : [...PathArgs<Id>, body: CamelBody<RequestOf<Id>>];

/** One method per operation, named by its id: `api.getService(projectId, serviceId)`. */
export type OperationMethods = { [Id in OperationId]: (...args: CallArgs<Id>) => Promise<ResponseOf<Id>> };
