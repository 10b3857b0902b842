// Builders for the arguments the analyzer hands to policies, and runners that collect violations.

import * as path from "path";
import type {
  Policy,
  PolicyResource,
  ResourceValidation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "../../policy/types";
import { ANALYZER } from "../../policy/reliances";

/** Directory of the policy pack. */
export const POLICY_DIR = path.resolve(__dirname, "../../policy");

/** Loads a module from the pack's own node_modules (the root node_modules has no @pulumi/policy). */
export function requireFromPack<T>(id: string): T {
  let resolved: string;
  try {
    resolved = require.resolve(id, { paths: [POLICY_DIR] });
  } catch (err) {
    throw new Error(
      `${(err as Error).message}\nThe policy pack's dependencies are missing: run npm ci --prefix policy`,
      { cause: err },
    );
  }
  return require(resolved) as T;
}

/** The marker the engine sends for a string unknown during preview. */
export const UNKNOWN_STRING = ANALYZER.unknownString;
/** The marker the engine sends for a number unknown during preview. */
export const UNKNOWN_NUMBER = ANALYZER.unknownNumber;

/** Wraps props the way the analyzer does: reading an unknown value throws UnknownValueError. */
export function asAnalyzerProps(props: Record<string, unknown>): Record<string, unknown> {
  return ANALYZER.wrap(props);
}

/** Type tokens, spelled out here so that a typo in the pack's own table would show. */
export const T = {
  Service: "pulumi-nodejs:dynamic/mdb:Service",
  ReadReplicaSet: "pulumi-nodejs:dynamic/mdb:ReadReplicaSet",
  Vpc: "pulumi-nodejs:dynamic/mdb:Vpc",
  VpcPeering: "pulumi-nodejs:dynamic/mdb:VpcPeering",
};

/** The native plugin's type tokens of the same resources. */
export const N = {
  Service: "mdb:index:Service",
  ReadReplicaSet: "mdb:index:ReadReplicaSet",
  Vpc: "mdb:index:Vpc",
  VpcPeering: "mdb:index:VpcPeering",
};

/** Both faces, for `describe.each`: the pack judges the dynamic classes and the native types alike. */
export const FACES: Array<[string, typeof T]> = [
  ["dynamic classes", T],
  ["native types", N],
];

/** URN of a resource of this test stack. */
export function urnOf(type: string, name: string): string {
  return `urn:pulumi:dev::infra::${type}::${name}`;
}

/** What a resource policy is called with, as the analyzer builds it (props wrapped in the unknown-checking proxy). */
export function resourceArgs(
  type: string,
  name: string,
  props: Record<string, unknown>,
  options: { protect?: boolean; config?: object } = {},
): ResourceValidationArgs {
  return {
    type,
    name,
    urn: urnOf(type, name),
    props: asAnalyzerProps({ __provider: "exports.handler = __f0;", ...props }),
    opts: {
      protect: options.protect ?? false,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <C extends object>() => (options.config ?? {}) as C,
    notApplicable: (reason?: string): never => {
      throw new Error(`notApplicable: ${reason}`);
    },
  };
}

/** Runs a resource policy on one resource and returns the messages it reported. */
export async function runResourcePolicy(policy: Policy, args: ResourceValidationArgs): Promise<string[]> {
  const validate = (policy as ResourceValidationPolicy).validateResource as ResourceValidation;
  const reportViolation = jest.fn();
  await validate(args, reportViolation);
  for (const call of reportViolation.mock.calls) {
    expect(call).toHaveLength(1); // a resource policy reports on the resource itself, no URN
  }
  return reportViolation.mock.calls.map((call) => call[0] as string);
}

/** A resource as a stack policy sees it; dependencies are set by {@link link}. */
export function stackResource(
  type: string,
  name: string,
  props: Record<string, unknown>,
  protect = false,
): PolicyResource {
  return {
    type,
    name,
    urn: urnOf(type, name),
    props: asAnalyzerProps({ __provider: "exports.handler = __f0;", ...props }),
    opts: {
      protect,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    dependencies: [],
    propertyDependencies: {},
    isType: () => false,
    asType: () => undefined,
  };
}

/** Records that `property` of `resource` was computed from `from` (as the engine reports it). */
export function link(resource: PolicyResource, property: string, ...from: PolicyResource[]): PolicyResource {
  resource.propertyDependencies[property] = [...(resource.propertyDependencies[property] ?? []), ...from];
  resource.dependencies = [...new Set([...resource.dependencies, ...from])];
  return resource;
}

/** A violation reported by a stack policy. */
export interface StackViolation {
  message: string;
  urn?: string;
}

/** Runs a stack policy over the resources and returns what it reported. */
export async function runStackPolicy(
  policy: Policy,
  resources: PolicyResource[],
  config: object = {},
): Promise<StackViolation[]> {
  const reportViolation = jest.fn();
  await (policy as StackValidationPolicy).validateStack(
    {
      resources,
      stackTags: new Map(),
      getConfig: <C extends object>() => config as C,
      notApplicable: (reason?: string): never => {
        throw new Error(`notApplicable: ${reason}`);
      },
    },
    reportViolation,
  );
  return reportViolation.mock.calls.map(([message, urn]) => ({
    message: message as string,
    urn: urn as string,
  }));
}
