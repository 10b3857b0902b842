/**
 * The functions, declared: per function its arguments and its result (`./types.ts`), one entry
 * for each async function of `./invokes.ts` (the compiler checks both lists and each
 * signature). The package schema's invokes (`mdb:index:<name>`) are generated from this table;
 * their descriptions are the doc comments of the functions in `./invokes.ts`.
 *
 * A native invoke returns an object: a function that returns a list gives it under `listKey`
 * (`listServices` answers `{ services: [...] }`).
 */
import type { z } from "zod";
import type * as invokes from "./invokes";
import {
  analyticsResult,
  authInfoResult,
  getServiceArgs,
  getVpcArgs,
  getVpcPeeringArgs,
  identifyArgs,
  projectArgs,
  projectResult,
  readReplicaSetResult,
  serviceResult,
  serviceScopeArgs,
  trackArgs,
  vpcPeeringResult,
  vpcResult,
  vpcScopeArgs,
} from "./types";

/** What a function takes and gives. */
export interface FunctionDeclaration {
  /** Its arguments: an object, or a union of objects (exactly one of some fields); absent: none. */
  args?: z.ZodType;
  /** What it returns: an object, or a list of objects given natively under {@link listKey}. */
  result: z.ZodType;
  /** For a function that returns a list: the property of the native invoke's result that holds it. */
  listKey?: string;
}

/** Every function, by its name (the last part of its token `mdb:index:<name>`). */
export const FUNCTIONS = {
  getAuthInfo: { result: authInfoResult },
  getProjects: { result: projectResult.array(), listKey: "projects" },
  getService: { args: getServiceArgs, result: serviceResult },
  listServices: { args: projectArgs, result: serviceResult.array(), listKey: "services" },
  getVpc: { args: getVpcArgs, result: vpcResult },
  listVpcs: { args: projectArgs, result: vpcResult.array(), listKey: "vpcs" },
  listReadReplicaSets: {
    args: serviceScopeArgs,
    result: readReplicaSetResult.array(),
    listKey: "replicaSets",
  },
  getVpcPeering: { args: getVpcPeeringArgs, result: vpcPeeringResult },
  listVpcPeerings: { args: vpcScopeArgs, result: vpcPeeringResult.array(), listKey: "peerings" },
  identify: { args: identifyArgs, result: analyticsResult },
  track: { args: trackArgs, result: analyticsResult },
} as const satisfies { [K in keyof typeof invokes]: FunctionDeclaration };

/** The signature a declaration promises: its arguments in, its result out (asynchronously). */
type Signature<D> = D extends { args: infer A extends z.ZodType; result: infer R extends z.ZodType }
  ? (args: z.output<A>) => Promise<z.output<R>>
  : D extends { result: infer R extends z.ZodType }
    ? () => Promise<z.output<R>>
    : never;

/** Each async function, typed by its declaration (a compile error names one that differs). */
export type DeclaredInvokes = { [K in keyof typeof FUNCTIONS]: Signature<(typeof FUNCTIONS)[K]> };

/** Proof that `./invokes.ts` takes and gives what the table declares. */
export type InvokesMatch = typeof invokes extends DeclaredInvokes ? true : never;

/** Compiles only while {@link InvokesMatch} holds. */
export const INVOKES_MATCH: InvokesMatch = true;
