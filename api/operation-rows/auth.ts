/**
 * Authentication and analytics: who the key is, and the events the vendor counts. One row each, as
 * api/operations.ts describes them.
 */
import * as req from "../requests";
import { BOTH, type OperationSpec } from "../operation-spec";

/** The rows of this group, in the table's order. */
export const AUTH_OPERATIONS = {
  getAuthInfo: {
    name: "Get Authentication Info",
    origin: "spec",
    dialects: BOTH,
    method: "GET",
    path: "/auth/info",
    response: "authInfo",
    status: 200,
    retry: "idempotent",
  },
  identify: {
    name: "Identify a user",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: "/analytics/identify",
    request: req.IdentifyRequestSchema,
    response: "analyticsResult",
    status: 200,
    retry: "idempotent",
  },
  // An event counts once: never repeated blindly.
  track: {
    name: "Track an Analytics Event",
    origin: "spec",
    dialects: BOTH,
    method: "POST",
    path: "/analytics/track",
    request: req.TrackRequestSchema,
    response: "analyticsResult",
    status: 200,
    retry: "create",
  },
} as const satisfies Record<string, OperationSpec>;
