/**
 * Time limits of the waits, per operation. Pulumi does not hand `customTimeouts` to a
 * dynamic provider, so each resource class forwards them in the hidden input
 * {@link TIMEOUTS_INPUT} that diff ignores.
 */
import { TIMEOUTS_INPUT } from "./hidden";

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

/** The limits in effect for a resource, from its hidden input, else the defaults. */
export function timeoutsOf(inputs: Record<string, unknown>): Timeouts {
  const given = (inputs[TIMEOUTS_INPUT] ?? {}) as Partial<Record<keyof Timeouts, unknown>>;
  const pick = (key: keyof Timeouts) =>
    typeof given[key] === "number" ? (given[key] as number) : DEFAULT_TIMEOUTS[key];
  return { create: pick("create"), update: pick("update"), delete: pick("delete") };
}

/** The moment (`Date.now()` milliseconds) the `operation` of a resource must be done by. */
export function deadlineOf(inputs: Record<string, unknown>, operation: keyof Timeouts, now: number): number {
  return now + timeoutsOf(inputs)[operation];
}

/** Converts Pulumi's `customTimeouts` option into the hidden input's value (milliseconds). */
export function timeoutsInput(custom?: {
  create?: string;
  update?: string;
  delete?: string;
}): Partial<Timeouts> {
  const out: Partial<Timeouts> = {};
  for (const key of ["create", "update", "delete"] as const) {
    const ms = parseDuration(custom?.[key]);
    if (ms !== undefined) out[key] = ms;
  }
  return out;
}
