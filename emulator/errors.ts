/**
 * The emulator's error type and the error codes of its answers. Every layer throws `ApiError`;
 * the server's error handler turns it into `{code, message}` with the HTTP status, so the wire
 * format of errors lives in one place.
 */

/** An error the API answers with: HTTP status, UPPER_SNAKE code, message, optional extra headers. */
export class ApiError extends Error {
  constructor(
    /** HTTP status code of the answer (4xx or 5xx). */
    readonly statusCode: number,
    /** UPPER_SNAKE error code of the body, e.g. `NOT_FOUND`. */
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

const CODES: Record<number, string> = {
  400: "INVALID_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  408: "REQUEST_TIMEOUT",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  414: "URI_TOO_LONG",
  429: "RATE_LIMITED",
  431: "HEADERS_TOO_LARGE",
  500: "INTERNAL",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

/** The UPPER_SNAKE error code the emulator uses for an HTTP status (INVALID_REQUEST for 400, ...). */
export function codeForStatus(status: number): string {
  return CODES[status] ?? (status >= 500 ? "INTERNAL" : "CLIENT_ERROR");
}

/** 400 INVALID_REQUEST whose message starts with the offending field: `cpu_millis: ...`. */
export function invalidField(field: string, message: string): ApiError {
  return new ApiError(400, "INVALID_REQUEST", `${field}: ${message}`);
}

/** 404 NOT_FOUND for an unknown identifier, e.g. `service abc not found`. */
export function notFound(kind: string, id: string): ApiError {
  return new ApiError(404, "NOT_FOUND", `${kind} ${id} not found`);
}

/** 409 CONFLICT: the resource's current state forbids the action. */
export function conflict(message: string): ApiError {
  return new ApiError(409, "CONFLICT", message);
}
