// Guardrails for production services: HA replica, private networking, protection from deletion.

import type { ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { describe, readEnvironment, readNumber, readProp, readString, isKind, UNKNOWN } from "../resources";

/** True when the resource is a Service whose environment is known to be PROD. */
function isProdService(args: ResourceValidationArgs): boolean {
  return isKind(args.type, "Service") && readEnvironment(args.props) === "PROD";
}

/** `mdb-prod-service-ha`: a PROD service has at least one high-availability replica. */
export const prodServiceHa: ResourceValidationPolicy = {
  name: "mdb-prod-service-ha",
  description: "Production services (environment PROD) have at least one high-availability replica.",
  enforcementLevel: "mandatory",
  severity: "high",
  validateResource: (args, reportViolation) => {
    if (!isProdService(args)) {
      return;
    }
    const replicaCount = readNumber(args.props, "replicaCount");
    if (replicaCount === UNKNOWN || (replicaCount !== undefined && replicaCount >= 1)) {
      return;
    }
    const found =
      replicaCount === undefined
        ? "replicaCount is not set (defaults to 0)"
        : `replicaCount is ${replicaCount}`;
    reportViolation(
      `${describe(args)} is PROD but ${found}; set replicaCount to 1 or 2 so that it has a high-availability replica.`,
    );
  },
};

/** `mdb-prod-service-vpc`: a PROD service is attached to a VPC. */
export const prodServiceVpc: ResourceValidationPolicy = {
  name: "mdb-prod-service-vpc",
  description: "Production services (environment PROD) are attached to a VPC.",
  enforcementLevel: "mandatory",
  severity: "high",
  validateResource: (args, reportViolation) => {
    if (!isProdService(args)) {
      return;
    }
    // An unknown vpcId (a Vpc created in the same update) is attached: only a missing one is reported.
    if (readString(args.props, "vpcId") !== undefined) {
      return;
    }
    reportViolation(
      `${describe(args)} is PROD but vpcId is not set; attach it to a VPC, e.g. vpcId: vpc.vpcId.`,
    );
  },
};

/**
 * `mdb-prod-service-protected`: a PROD service cannot be deleted by accident: it has the
 * `protect` resource option or the provider's own `deletionProtection` input (unknown during a
 * preview counts as set, so only a known `false` or a missing value is reported).
 */
export const prodServiceProtected: ResourceValidationPolicy = {
  name: "mdb-prod-service-protected",
  description:
    "Production services (environment PROD) are protected from deletion (deletionProtection input or protect option).",
  enforcementLevel: "mandatory",
  severity: "high",
  validateResource: (args, reportViolation) => {
    if (!isProdService(args) || args.opts.protect) {
      return;
    }
    const deletionProtection = readProp(args.props, "deletionProtection");
    if (deletionProtection === UNKNOWN || deletionProtection === true) {
      return;
    }
    reportViolation(
      `${describe(args)} is PROD but protect is false and deletionProtection is off; ` +
        "set deletionProtection: true or pass the resource option { protect: true }.",
    );
  },
};

/** The production guardrails for services. */
export const prodPolicies = [prodServiceHa, prodServiceVpc, prodServiceProtected];
