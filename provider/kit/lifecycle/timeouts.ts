/**
 * Time limits of the waits, per operation: the defaults, and Pulumi's duration strings
 * (`customTimeouts`), which each face turns into the {@link CallContext.timeoutMs} of a call.
 */
import type { CallContext } from "../context";

/** Limits in milliseconds of create, update and delete waits. */
export interface Timeouts {
  /** Limit of a create's wait. */
  create: number;
  /** Limit of an update's waits (all steps together). */
  update: number;
  /** Limit of a delete's wait. */
  delete: number;
}

/** Defaults: 30 minutes to create or update, 20 to delete (a real service takes minutes). */
export const DEFAULT_TIMEOUTS: Timeouts = { create: 30 * 60_000, update: 30 * 60_000, delete: 20 * 60_000 };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a Pulumi duration string (`"90s"`, `"10m"`, `"1h30m"`, `"500ms"`) into milliseconds.
 * Returns undefined for an empty or unreadable string.
 */
export function parseDuration(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text.trim()) return undefined;
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_MS[p[2]], 0));
}

/** The limit of `operation` for the call: the program's, else the default. */
export function limitOf(call: Pick<CallContext, "timeoutMs">, operation: keyof Timeouts): number {
  return call.timeoutMs ?? DEFAULT_TIMEOUTS[operation];
}

/** The moment (`Date.now()` milliseconds) the `operation` of the call must be done by. */
export function deadlineOf(
  call: Pick<CallContext, "timeoutMs">,
  operation: keyof Timeouts,
  now: number,
): number {
  return now + limitOf(call, operation);
}
