/**
 * Zod schemas of every wire shape of the Managed Database Service Control API, in snake_case as on
 * the wire, and the limits the service enforces: the contract the client and the emulator both stand
 * on. This folder imports nothing else of the package. Notes on the spec's gaps: docs/api.md.
 */
export * from "./dialects";
export * from "./enums";
export * from "./limits";
export * from "./records";
export * from "./requests";
