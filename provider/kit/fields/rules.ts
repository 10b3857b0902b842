/**
 * Input fields the resources share, with one wording for each rule. A resource's schema
 * composes these; a rule of its own (e.g. a CIDR block) stays in its file. Sizes and lengths
 * are the service's limits, from the contract (`api/limits.ts`): the provider's check, the
 * emulator and the client enforce the same ones. Type and missing-value messages come from the
 * kit's error map (`messages.ts`).
 */
import { z } from "zod";
import { NUMBER_NOT_TEXT, isNumeral } from "../messages/input-errors";
import {
  CPU_MILLIS,
  ENVIRONMENTS,
  HA_REPLICAS,
  MEMORY_GBS,
  NAME_LENGTH,
  PASSWORD_LENGTH,
  REPLICA_SET_NODES,
  SHARED,
  type WholeRange,
  describeRange,
  inRange,
} from "../../client/schemas";

/** A string with something in it besides spaces (trimmed). */
export const nonEmpty = z.string().trim().min(1, "must not be empty");

/** `projectId`: optional, the configured or the key's project when absent. */
export const projectIdField = nonEmpty.optional();

/** A resource name as the API takes it: 1 to 128 characters ({@link NAME_LENGTH}). */
export const resourceName = nonEmpty.max(
  NAME_LENGTH.max as number,
  `must be at most ${NAME_LENGTH.max} characters`,
);

/** A password the API takes: at least 8 characters ({@link PASSWORD_LENGTH}). */
export const passwordField = z
  .string()
  .min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`);

/** A whole number within `range`; a value outside it gets the range's rule, e.g. `must be a multiple of 250 from 250 to 64000`. */
export const wholeIn = (range: WholeRange) =>
  z.number().refine((n) => inRange(n, range), `must be ${describeRange(range)}`);

/** CPU in milli-cores: a multiple of 250 from 250 to 64000 ({@link CPU_MILLIS}). */
export const cpuMillisField = wholeIn(CPU_MILLIS);

/** Memory in GiB: a whole number from 1 to 1024 ({@link MEMORY_GBS}). */
export const memoryGbsField = wholeIn(MEMORY_GBS);

/**
 * A service's size: a whole number within `range`, or `"shared"` for shared CPU and memory
 * instead of a dedicated allocation (docs/api.md#shared-resources).
 */
export const sizeOrShared = (range: WholeRange) =>
  z.union([wholeIn(range), z.literal(SHARED)], {
    // A number breaking the range gets its rule (the union reports it); the kit's wording for
    // what is missing or of another type; a number written as text is told so; another string
    // is told both choices.
    error: (issue) =>
      issue.input === undefined
        ? "is required"
        : isNumeral(issue.input)
          ? `${NUMBER_NOT_TEXT} (or "${SHARED}")`
          : typeof issue.input === "string"
            ? `must be ${describeRange(range)}, or "${SHARED}"`
            : "must be a number",
  });

/** Nodes of a read replica set: 1 to 10 ({@link REPLICA_SET_NODES}). */
export const nodesField = wholeIn(REPLICA_SET_NODES);

/** HA replicas of a service: 0 to 2 ({@link HA_REPLICAS}), 0 when absent. */
export const haReplicasField = wholeIn(HA_REPLICAS).default(0);

/** `PROD` or `DEV`, `DEV` when absent. */
export const environmentField = z.enum(ENVIRONMENTS).default("DEV");

/** A switch, `fallback` when absent. */
export const flagField = (fallback: boolean) => z.boolean().default(fallback);
