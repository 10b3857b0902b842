// The policy pack: run with `pulumi preview --policy-pack <this directory>` (see README.md).
// Constructing the PolicyPack starts the analyzer's gRPC server, so only this entry point does it;
// tests import the policies from ./policies instead.

import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";

new PolicyPack("pulumi-managed-db", {
  description: "Guardrails for pulumi-managed-db: production services, regions, sizes, VPC ranges.",
  // Every policy sets its own level; this covers only a policy that would not.
  enforcementLevel: "advisory",
  policies,
});
