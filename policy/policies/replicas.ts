// Read replica sets against the service they replicate (stack policies: they need both resources).

import type { PolicyResource, ReportViolation, StackValidationPolicy } from "@pulumi/policy";
import { describe, isKnown, readEnvironment, readNumber, readString, isKind, UNKNOWN } from "../resources";

/**
 * Finds the Service of the stack that a ReadReplicaSet replicates, or `undefined` when it cannot be
 * told for sure (then the policies skip the replica set: no guess, no false positive).
 *
 * 1. The replica set's `serviceId` input is known: the Service whose `serviceId` output equals it.
 *    This is the case on every update after the first, or for an id written in the program.
 * 2. Otherwise (typically the first preview, where `serviceId` is an output of a Service not created
 *    yet, hence unknown): the one Service that the `serviceId` input was computed from, per the
 *    engine's `propertyDependencies`. A Service whose own id is known and differs is not taken.
 * 3. If the engine gave no property dependencies at all for `serviceId` while it is unknown (an old
 *    CLI), the one Service among the replica set's `dependencies`.
 * Several candidates, or none, mean `undefined`: a replica set of a service outside the stack is
 * not checked by these policies.
 */
export function findReplicatedService(
  set: PolicyResource,
  resources: PolicyResource[],
): PolicyResource | undefined {
  const isService = (resource: PolicyResource) => isKind(resource.type, "Service");
  const serviceId = readString(set.props, "serviceId");

  if (isKnown(serviceId)) {
    const byId = resources.filter((r) => isService(r) && readString(r.props, "serviceId") === serviceId);
    if (byId.length > 0) {
      return byId.length === 1 ? byId[0] : undefined;
    }
  }

  const propertyDependencies = set.propertyDependencies ?? {};
  let candidates: PolicyResource[];
  if (Object.prototype.hasOwnProperty.call(propertyDependencies, "serviceId")) {
    candidates = propertyDependencies["serviceId"];
  } else if (serviceId === UNKNOWN) {
    candidates = set.dependencies ?? [];
  } else {
    return undefined;
  }
  const services = [...new Set(candidates.filter(isService))];
  if (services.length !== 1) {
    return undefined;
  }
  const candidateId = readString(services[0].props, "serviceId");
  if (isKnown(serviceId) && isKnown(candidateId) && candidateId !== serviceId) {
    return undefined;
  }
  return services[0];
}

/** Calls `check` for each replica set of the stack whose service is in the stack too. */
function forEachReplicaSet(
  resources: PolicyResource[],
  check: (set: PolicyResource, service: PolicyResource) => void,
): void {
  for (const set of resources) {
    if (!isKind(set.type, "ReadReplicaSet")) {
      continue;
    }
    const service = findReplicatedService(set, resources);
    if (service) {
      check(set, service);
    }
  }
}

/** Reports a replica set property larger than the same property of its service. */
function checkNotLarger(
  set: PolicyResource,
  service: PolicyResource,
  key: string,
  unit: string,
  reportViolation: ReportViolation,
): void {
  const setValue = readNumber(set.props, key);
  const serviceValue = readNumber(service.props, key);
  if (!isKnown(setValue) || !isKnown(serviceValue) || setValue <= serviceValue) {
    return;
  }
  reportViolation(
    `${describe(set)} has ${key} ${setValue}${unit} per node, more than its ${describe(service)} ` +
      `(${serviceValue}${unit}); set ${key} to at most ${serviceValue}, or resize the service first.`,
    set.urn,
  );
}

/** `mdb-replica-set-not-larger-than-service`: a replica set's nodes are no larger than its service. */
export const replicaSetNotLargerThanService: StackValidationPolicy = {
  name: "mdb-replica-set-not-larger-than-service",
  description: "Read replica sets are no larger (CPU, memory per node) than the service they replicate.",
  enforcementLevel: "advisory",
  severity: "medium",
  validateStack: (args, reportViolation) => {
    forEachReplicaSet(args.resources, (set, service) => {
      checkNotLarger(set, service, "cpuMillis", "m", reportViolation);
      checkNotLarger(set, service, "memoryGbs", " GiB", reportViolation);
    });
  },
};

/** `mdb-prod-replica-set-environment`: a replica set of a PROD service is PROD too. */
export const prodReplicaSetEnvironment: StackValidationPolicy = {
  name: "mdb-prod-replica-set-environment",
  description: "Read replica sets of a production service (environment PROD) are PROD too.",
  enforcementLevel: "mandatory",
  severity: "high",
  validateStack: (args, reportViolation) => {
    forEachReplicaSet(args.resources, (set, service) => {
      if (readEnvironment(service.props) !== "PROD") {
        return;
      }
      const environment = readEnvironment(set.props);
      if (environment === UNKNOWN || environment === "PROD") {
        return;
      }
      const found =
        readString(set.props, "environment") === undefined
          ? "environment is not set (defaults to DEV)"
          : `environment is ${environment}`;
      reportViolation(
        `${describe(set)} replicates PROD ${describe(service)} but its ${found}; set environment: "PROD".`,
        set.urn,
      );
    });
  },
};

/** The policies that check read replica sets against their service. */
export const replicaPolicies = [replicaSetNotLargerThanService, prodReplicaSetEnvironment];
