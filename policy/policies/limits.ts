// Team limits read from the pack's configuration: allowed regions, largest sizes.

import type { ResourceValidationPolicy, ReportViolation } from "@pulumi/policy";
import {
  AllowedRegionsConfig,
  allowedRegionsSchema,
  ReplicaSetSizeLimitsConfig,
  replicaSetSizeLimitsSchema,
  resolveConfig,
  ServiceSizeLimitsConfig,
  serviceSizeLimitsSchema,
} from "../config";
import { describe, isKnown, readNumber, readString, isKind } from "../resources";

/** `mdb-allowed-regions`: services and VPCs are in one of the configured regions. */
export const allowedRegions: ResourceValidationPolicy = {
  name: "mdb-allowed-regions",
  description: "Services and VPCs use a region from the allowed list (config: allowedRegions).",
  enforcementLevel: "mandatory",
  severity: "medium",
  configSchema: allowedRegionsSchema,
  validateResource: (args, reportViolation) => {
    if (!isKind(args.type, "Service") && !isKind(args.type, "Vpc")) {
      return;
    }
    const regionCode = readString(args.props, "regionCode");
    if (!isKnown(regionCode)) {
      return;
    }
    const config = resolveConfig<AllowedRegionsConfig>(allowedRegionsSchema, () => args.getConfig());
    if (config.allowedRegions.includes(regionCode)) {
      return;
    }
    reportViolation(
      `${describe(args)} has regionCode "${regionCode}", which is not allowed; ` +
        `use one of ${config.allowedRegions.join(", ")}, or add the region to allowedRegions in the policy config.`,
    );
  },
};

/** Reports a size property above its limit, naming the config key that sets the limit. */
function checkLimit(
  what: string,
  props: Record<string, unknown>,
  key: string,
  unit: string,
  limit: number,
  configKey: string,
  reportViolation: ReportViolation,
): void {
  const value = readNumber(props, key);
  if (!isKnown(value) || value <= limit) {
    return;
  }
  reportViolation(
    `${what} has ${key} ${value}${unit}, above the limit of ${limit}${unit}; ` +
      `set ${key} to at most ${limit}, or raise ${configKey} in the policy config.`,
  );
}

/** `mdb-service-size-limits`: a service's CPU and memory are within the configured maximums. */
export const serviceSizeLimits: ResourceValidationPolicy = {
  name: "mdb-service-size-limits",
  description: "Services stay within the maximum CPU and memory (config: maxCpuMillis, maxMemoryGbs).",
  enforcementLevel: "advisory",
  severity: "medium",
  configSchema: serviceSizeLimitsSchema,
  validateResource: (args, reportViolation) => {
    if (!isKind(args.type, "Service")) {
      return;
    }
    const config = resolveConfig<ServiceSizeLimitsConfig>(serviceSizeLimitsSchema, () => args.getConfig());
    const what = describe(args);
    checkLimit(what, args.props, "cpuMillis", "m", config.maxCpuMillis, "maxCpuMillis", reportViolation);
    checkLimit(what, args.props, "memoryGbs", " GiB", config.maxMemoryGbs, "maxMemoryGbs", reportViolation);
  },
};

/** `mdb-replica-set-size-limits`: a read replica set's nodes, CPU and memory are within the configured maximums. */
export const replicaSetSizeLimits: ResourceValidationPolicy = {
  name: "mdb-replica-set-size-limits",
  description:
    "Read replica sets stay within the maximum CPU and memory per node and number of nodes " +
    "(config: maxCpuMillis, maxMemoryGbs, maxNodes).",
  enforcementLevel: "advisory",
  severity: "medium",
  configSchema: replicaSetSizeLimitsSchema,
  validateResource: (args, reportViolation) => {
    if (!isKind(args.type, "ReadReplicaSet")) {
      return;
    }
    const config = resolveConfig<ReplicaSetSizeLimitsConfig>(replicaSetSizeLimitsSchema, () =>
      args.getConfig(),
    );
    const what = describe(args);
    checkLimit(
      what,
      args.props,
      "cpuMillis",
      "m per node",
      config.maxCpuMillis,
      "maxCpuMillis",
      reportViolation,
    );
    checkLimit(
      what,
      args.props,
      "memoryGbs",
      " GiB per node",
      config.maxMemoryGbs,
      "maxMemoryGbs",
      reportViolation,
    );
    checkLimit(what, args.props, "nodes", "", config.maxNodes, "maxNodes", reportViolation);
  },
};

/** The policies whose limits each team sets in its policy config. */
export const limitPolicies = [allowedRegions, serviceSizeLimits, replicaSetSizeLimits];
