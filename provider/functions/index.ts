/**
 * Functions for Pulumi programs: each in an async form (`getService`) taking plain values and
 * an Output form (`getServiceOutput`) taking `pulumi.Input`s, as Pulumi's own packages give
 * them. They read the API from the program's process with the resources' settings.
 */
export * from "./invokes";
export * from "./output-forms";
export type * from "./types";
export { MdbLookupError } from "./lookup";
export { resetFunctionsClient, resolveFunctionsProjectId } from "./session";
