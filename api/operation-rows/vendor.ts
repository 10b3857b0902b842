/**
 * The vendor's additions in its current document: rename a service, list projects, logs, metrics,
 * logout. One row each, as api/operations.ts describes them.
 */
import * as req from "../requests";
import { BOTH, SERVICE, VENDOR_ONLY, type OperationSpec } from "../operation-spec";

/** The rows of this group, in the table's order. */
export const VENDOR_OPERATIONS = {
  // The vendor's additions (current document d7201d6); renameService is served in both dialects.
  renameService: {
    name: "Rename a Service",
    origin: "vendor",
    dialects: BOTH,
    method: "POST",
    path: `${SERVICE}/rename`,
    request: req.RenameServiceRequestSchema,
    response: "service",
    status: 200,
    retry: "action",
  },
  listProjects: {
    name: "List projects accessible to the authenticated caller",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "GET",
    path: "/projects",
    response: "projectList",
    status: 200,
    retry: "idempotent",
  },
  getServiceLogs: {
    name: "Get service logs",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "GET",
    path: `${SERVICE}/logs`,
    query: req.ServiceLogsQuerySchema,
    response: "serviceLogs",
    status: 200,
    retry: "idempotent",
  },
  listServiceMetricSeries: {
    name: "List available metric series",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "GET",
    path: `${SERVICE}/metrics/available-series`,
    response: "metricSeriesNames",
    status: 200,
    retry: "idempotent",
  },
  // A read sent as POST (its filters go in a body): repeating it is harmless.
  getServiceMetricSeries: {
    name: "Get a metric series",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "POST",
    path: `${SERVICE}/metrics/series`,
    request: req.MetricSeriesRequestSchema,
    response: "metricSeriesList",
    status: 200,
    retry: "idempotent",
  },
  // Revokes a refresh token; with none (API keys) it clears server-side session state, best-effort.
  logout: {
    name: "Log out and revoke refresh token",
    origin: "vendor",
    dialects: VENDOR_ONLY,
    method: "POST",
    path: "/auth/logout",
    request: req.LogoutRequestSchema,
    response: "none",
    status: 204,
    retry: "idempotent",
    secrets: ["refresh_token"],
  },
} as const satisfies Record<string, OperationSpec>;
