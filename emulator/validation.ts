/**
 * Request validation of the emulator: the wire schemas of `provider/client/schemas.ts`, plus the
 * limits the emulated service enforces (sizes), so a bad request is answered 400 with a message
 * that starts with the offending field (`cpu_millis: ...`).
 *
 * Rules that depend on stored state (HA counts against the current ones, PITR time against the
 * source's creation) are the model's.
 */
import { z } from "zod";
import {
  CreateReplicaSetRequestSchema,
  CreateServiceRequestSchema,
  ForkServiceRequestSchema,
  ResizeReplicaSetRequestSchema,
  ResizeServiceRequestSchema,
  describeIssues,
} from "../provider/client/schemas";
import { ApiError } from "./errors";

/** Smallest CPU allocation, and the step CPU allocations come in, in milli-cores. */
export const CPU_MILLIS_STEP = 250;
/** Largest CPU allocation, in milli-cores. */
export const MAX_CPU_MILLIS = 64000;
/** Smallest memory allocation, in gigabytes. */
export const MIN_MEMORY_GBS = 1;
/** Largest memory allocation, in gigabytes. */
export const MAX_MEMORY_GBS = 1024;

const CPU_MESSAGE = `must be a multiple of ${CPU_MILLIS_STEP} from ${CPU_MILLIS_STEP} to ${MAX_CPU_MILLIS}`;
const MEMORY_MESSAGE = `must be from ${MIN_MEMORY_GBS} to ${MAX_MEMORY_GBS}`;

/** True when absent, or a CPU size the service offers (the create body may give it as digits). */
function cpuInRange(value: number | string | undefined): boolean {
  if (value === undefined) return true;
  const n = Number(value);
  return Number.isSafeInteger(n) && n % CPU_MILLIS_STEP === 0 && n >= CPU_MILLIS_STEP && n <= MAX_CPU_MILLIS;
}

/** True when absent, or a memory size the service offers. */
function memoryInRange(value: number | string | undefined): boolean {
  if (value === undefined) return true;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= MIN_MEMORY_GBS && n <= MAX_MEMORY_GBS;
}

/** Adds the size limits to a request schema that has `cpu_millis` and `memory_gbs`. */
function withSizeLimits<T extends z.ZodType<{ cpu_millis?: number | string; memory_gbs?: number | string }>>(
  schema: T,
): T {
  return schema
    .refine((body) => cpuInRange(body.cpu_millis), { path: ["cpu_millis"], message: CPU_MESSAGE })
    .refine((body) => memoryInRange(body.memory_gbs), { path: ["memory_gbs"], message: MEMORY_MESSAGE });
}

/**
 * Create service. DESIGN.md makes only `name` required (the service picks the region and the
 * smallest size otherwise), so the client's stricter schema is relaxed for those three fields.
 */
export const CreateServiceBody = withSizeLimits(
  CreateServiceRequestSchema.partial({ region_code: true, cpu_millis: true, memory_gbs: true }),
);
/** Resize service. */
export const ResizeServiceBody = withSizeLimits(ResizeServiceRequestSchema);
/** Fork service. */
export const ForkServiceBody = withSizeLimits(ForkServiceRequestSchema);
/** Create read replica set. */
export const CreateReplicaSetBody = withSizeLimits(CreateReplicaSetRequestSchema);
/** Resize read replica set. */
export const ResizeReplicaSetBody = withSizeLimits(ResizeReplicaSetRequestSchema);

/**
 * Parses a request body, or throws 400 INVALID_REQUEST naming each offending field.
 * An absent body (no content) is parsed as `{}` when `emptyIsObject`, for bodies whose fields are
 * all optional; otherwise it fails as `(body): ...`.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, emptyIsObject = false): T {
  const result = schema.safeParse(body === undefined && emptyIsObject ? {} : body);
  if (!result.success) throw new ApiError(400, "INVALID_REQUEST", describeIssues(result.error));
  return result.data;
}
