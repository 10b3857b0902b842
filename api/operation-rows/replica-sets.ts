/**
 * Read replica sets of a service: list, create, delete, resize, pooler and environment. One row
 * each, as api/operations.ts describes them.
 */
import * as req from "../requests";
import { BOTH, REPLICA_SET, REPLICA_SETS, type OperationSpec } from "../operation-spec";

/** The rows of this group, in the table's order. */
export const REPLICA_SET_OPERATIONS = {
  listReplicaSets: {
    name: "Get Read Replica Sets",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: REPLICA_SETS,
    response: "replicaSetList",
    status: 200,
    retry: "idempotent",
  },
  createReplicaSet: {
    name: "Create a Read Replica Set",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: REPLICA_SETS,
    request: req.CreateReplicaSetRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.createReplicaSet,
    response: "replicaSet",
    status: 202,
    retry: "create",
  },
  deleteReplicaSet: {
    name: "Delete a Read Replica Set",
    origin: "spec",
    dialects: BOTH,
    method: "DELETE",
    path: REPLICA_SET,
    response: "acknowledgement",
    answers: { seed: "codeMessage", vendor: "none" },
    status: 202,
    retry: "idempotent",
  },
  resizeReplicaSet: {
    name: "Resize a Read Replica Set",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${REPLICA_SET}/resize`,
    request: req.ResizeReplicaSetRequestSchema,
    vendorRequest: req.CURRENT_REQUESTS.resizeReplicaSet,
    response: "actionResultOrNone",
    status: 202,
    retry: "action",
  },
  enableReplicaSetPooler: {
    name: "Enable Connection Pooler for a Read Replica",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${REPLICA_SET}/enablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  disableReplicaSetPooler: {
    name: "Disable Connection Pooler for a Read Replica",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${REPLICA_SET}/disablePooler`,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
  setReplicaSetEnvironment: {
    name: "Set Environment for a Read Replica",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: `${REPLICA_SET}/setEnvironment`,
    request: req.SetEnvironmentRequestSchema,
    response: "actionResult",
    status: 200,
    retry: "action",
  },
} as const satisfies Record<string, OperationSpec>;
