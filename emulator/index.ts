/**
 * Public surface of the emulator (`pulumi-managed-db/emulator`): start one in-process (in a dialect), and the
 * defaults the CLI, docs and tests share.
 */
export { startEmulator, type Emulator, type EmulatorOptions } from "./server";
export { DEFAULT_SERVER_LIMITS, type ServerLimits } from "./limits";
export * from "./defaults";
export type { Credentials } from "./auth";
export type { FaultConfig, FaultConfigInput, FaultRule } from "./faults";
export type { LoggedRequest } from "./request-log";
export { UNREACHABLE_PEER_PREFIX } from "./model";
export { DIALECTS, DEFAULT_DIALECT, type Dialect } from "../api/dialects";
