/**
 * Error types of the API client. They carry what a user needs to act (HTTP status, the
 * API's code and message, the operation and the resource) and never a credential:
 * every text goes through {@link redact} before it is stored.
 */

/** What went wrong with a call to the API. */
export interface MdbApiErrorDetails {
  /** Name of the client operation, e.g. `resizeService`. */
  operation: string;
  /** HTTP status answered, or undefined when no answer came (network failure, timeout). */
  status?: number;
  /** The API's error code (`NOT_FOUND`, `CONFLICT`, ...), or `NETWORK_ERROR` / `TIMEOUT`. */
  code: string;
  /** The API's error message, redacted. */
  apiMessage: string;
  /** Id of the resource the call was about, when there is one. */
  resourceId?: string;
  /**
   * True when the request may have been carried out although the caller saw a failure
   * (connection dropped after sending, timeout, 5xx). A create that fails this way must be
   * looked up before it is sent again.
   */
  ambiguous: boolean;
  /** Seconds the API asked to wait (`Retry-After`), when it said so. */
  retryAfterSeconds?: number;
  /**
   * Whether the same request may succeed a moment later; by default judged from `status` alone
   * ({@link isTransientStatus}). False for what repeating cannot mend: an answer over a size limit,
   * a redirect, a `Retry-After` longer than the client waits.
   */
  retryable?: boolean;
}

/**
 * True for an answer that says nothing about the request itself, so the same request may
 * succeed a moment later: none at all (`undefined`: network error, timeout), 429 or a 5xx.
 */
export function isTransientStatus(status: number | undefined): boolean {
  return status === undefined || status === 429 || status >= 500;
}

/** A failed call to the Managed Database API. */
export class MdbApiError extends Error implements MdbApiErrorDetails {
  readonly operation: string;
  readonly status?: number;
  readonly code: string;
  readonly apiMessage: string;
  readonly resourceId?: string;
  readonly ambiguous: boolean;
  readonly retryAfterSeconds?: number;
  /** The client's own verdict on repeating, when it has one; {@link MdbApiError.isTransient} reads it. */
  readonly retryable?: boolean;

  constructor(details: MdbApiErrorDetails) {
    const where = details.resourceId ? ` (${details.resourceId})` : "";
    const status = details.status !== undefined ? `HTTP ${details.status} ` : "";
    super(`${details.operation}${where} failed: ${status}${details.code}: ${details.apiMessage}`);
    this.name = "MdbApiError";
    this.operation = details.operation;
    this.status = details.status;
    this.code = details.code;
    this.apiMessage = details.apiMessage;
    this.resourceId = details.resourceId;
    this.ambiguous = details.ambiguous;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.retryable = details.retryable;
  }

  /** True when the API answered 404: the resource does not exist (any more). */
  get isNotFound(): boolean {
    return this.status === 404;
  }

  /** True when the API answered 409: the resource's current state forbids the action. */
  get isConflict(): boolean {
    return this.status === 409;
  }

  /**
   * True when the failure says nothing about the request itself: no answer (network error,
   * timeout), 429 or a 5xx, unless the client knows better (an answer over a size limit, a redirect,
   * a `Retry-After` beyond its cap). The same request may well succeed a moment later.
   */
  get isTransient(): boolean {
    return this.retryable ?? isTransientStatus(this.status);
  }
}

/**
 * True when `error` is a 404 that names no resource but the route: the server has no such
 * operation (an older server), rather than no resource `resourceId`. An answer that says "route"
 * or "page not found" (the emulator's and common web servers' words), or that names neither the
 * resource's id nor its kind, is taken for an unknown route; `not found` answers of the API name
 * what they did not find (`service abc not found`).
 */
export function isUnknownRoute(error: unknown, resourceId: string, kind: string): boolean {
  if (!(error instanceof MdbApiError) || !error.isNotFound) return false;
  const text = error.apiMessage;
  if (/\broute\b|page not found/i.test(text)) return true;
  return !text.includes(resourceId) && !text.toLowerCase().includes(kind.toLowerCase());
}

/** A request the client refused to send because an input is invalid; names the field. */
export class MdbRequestError extends Error {
  /** Name of the client operation. */
  readonly operation: string;

  constructor(operation: string, problems: string) {
    super(`${operation}: invalid request: ${problems}`);
    this.name = "MdbRequestError";
    this.operation = operation;
  }
}

/** Placeholder written where a secret stood. */
export const REDACTED = "[REDACTED]";

/**
 * Replaces every occurrence of each secret in `text` with {@link REDACTED}, and any
 * `Authorization` header value or Basic credential that slipped into it.
 * Secrets shorter than 4 characters are ignored, to keep ordinary text readable.
 */
export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out.replace(
    /(authorization["']?\s*[:=]\s*["']?)(basic|bearer)\s+[A-Za-z0-9+/=._-]+/gi,
    `$1${REDACTED}`,
  );
}

/**
 * Where a redirect pointed, fit for an error message: `location` resolved against `requestUrl`,
 * without user info, query or fragment (any of which may carry a token), or a note that there was
 * no (readable) `Location` header.
 */
export function redirectTarget(location: unknown, requestUrl: string): string {
  if (typeof location !== "string" || location.trim() === "") return "nowhere (no Location header)";
  let url: URL;
  try {
    url = new URL(location, requestUrl);
  } catch {
    return "an unreadable Location";
  }
  const hidden = url.search || url.hash ? " (query omitted)" : "";
  return `${url.protocol}//${url.host}${url.pathname}${hidden}`;
}
