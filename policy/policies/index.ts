// Every policy of the pack, in the order the CLI lists them.

import type { Policies } from "@pulumi/policy";
import { limitPolicies } from "./limits";
import { networkPolicies } from "./network";
import { prodPolicies } from "./prod";
import { replicaPolicies } from "./replicas";

export * from "./limits";
export * from "./network";
export * from "./prod";
export * from "./replicas";

/** All the policies of the pulumi-managed-db pack. */
export const policies: Policies = [...prodPolicies, ...replicaPolicies, ...limitPolicies, ...networkPolicies];
