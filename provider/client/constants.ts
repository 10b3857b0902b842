/**
 * The API's enumerations and limits without its wire schemas: what the field tables need at load.
 * A re-export of `api/enums.ts` and `api/limits.ts`, so that a program that only declares resources
 * never builds the record and request schemas (`./schemas` re-exports those too).
 */
export * from "../../api/enums";
export * from "../../api/limits";
