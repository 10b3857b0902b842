/**
 * pulumi-managed-db: Pulumi resources for the Managed Database Service Control API.
 *
 * Resources: {@link Service}, {@link ReadReplicaSet}, {@link Vpc}, {@link VpcPeering}
 * (type tokens `pulumi-nodejs:dynamic/mdb:<Class>`). Component: {@link ProductionDatabase}
 * (`mdb:index:ProductionDatabase`), the production bundle. Functions, each also in an Output form
 * (`getServiceOutput`, ...) taking Inputs: `getAuthInfo`, `getProjects`, `getService` (by id or name),
 * `listServices`, `getVpc` (by id or name), `listVpcs`, `listReadReplicaSets`,
 * `getVpcPeering`, `listVpcPeerings`, `identify`, `track`. Enumerations of the inputs, as a
 * generated SDK has them: `Environment`, `ServiceType`, `ForkStrategy`.
 * Configuration: stack config `mdb:apiUrl`, `mdb:publicKey`, `mdb:secretKey` (secret),
 * `mdb:projectId`, or the environment variables `MDB_API_URL`, `MDB_PUBLIC_KEY`,
 * `MDB_SECRET_KEY`, `MDB_PROJECT_ID`.
 */
import "./compile-cache";
export { Service } from "./resources/service";
export type {
  ServiceArgs,
  ForkFromArgs,
  FinalForkOptions,
  EndpointOutput,
  ResourceOutput,
} from "./resources/service";
export type { PgEnv } from "./kit/fields/connection";
export { ReadReplicaSet } from "./resources/read-replica-set";
export type { ReadReplicaSetArgs } from "./resources/read-replica-set";
export { Vpc } from "./resources/vpc";
export type { VpcArgs } from "./resources/vpc";
export { VpcPeering } from "./resources/vpc-peering";
export type { VpcPeeringArgs } from "./resources/vpc-peering";
export { ProductionDatabase } from "./components/production-database";
export { Environment, ForkStrategy, ServiceType } from "./enums";
export type { ProductionDatabaseArgs, ProductionDatabasePeeringArgs } from "./components/production-database";
export {
  getAuthInfo,
  getProjects,
  getService,
  listServices,
  getVpc,
  listVpcs,
  listReadReplicaSets,
  getVpcPeering,
  listVpcPeerings,
  identify,
  track,
  getAuthInfoOutput,
  getProjectsOutput,
  getServiceOutput,
  listServicesOutput,
  getVpcOutput,
  listVpcsOutput,
  listReadReplicaSetsOutput,
  getVpcPeeringOutput,
  listVpcPeeringsOutput,
  identifyOutput,
  trackOutput,
  MdbLookupError,
} from "./functions";
export type {
  ProjectResult,
  GetServiceArgs,
  GetVpcArgs,
  ProjectArgs,
  ServiceScopeArgs,
  VpcScopeArgs,
  GetVpcPeeringArgs,
  IdentifyArgs,
  TrackArgs,
  OutputArgs,
  GetServiceOutputArgs,
  GetVpcOutputArgs,
  ProjectOutputArgs,
  ServiceScopeOutputArgs,
  VpcScopeOutputArgs,
  GetVpcPeeringOutputArgs,
  IdentifyOutputArgs,
  TrackOutputArgs,
  FunctionOutputOptions,
  AuthInfoResult,
  ServiceResult,
  ReadReplicaSetResult,
  VpcResult,
  VpcPeeringResult,
  AnalyticsResult,
} from "./functions";

/**
 * The API client: one typed method per operation of the API (see `client/api.ts`). Loaded on
 * first use, so a program that only declares resources does not load the HTTP stack (axios).
 */
export declare const MdbApi: typeof import("./client/api").MdbApi;
/** An API client instance. */
export type MdbApi = import("./client/api").MdbApi;
Object.defineProperty(exports, "MdbApi", {
  enumerable: true,
  get: () => (require("./client/api") as typeof import("./client/api")).MdbApi,
});
export { MdbApiError, MdbRequestError } from "./client/errors";
export { ADOPT_EXISTING_KEYS, CONFIG_KEYS, InvalidConfigError, MissingConfigError } from "./config";
