/**
 * Input fields the resources share, with one wording for each rule. A resource's schema
 * composes these; a rule of its own (e.g. a CIDR block) stays in its file. Sizes and lengths
 * are the service's limits, from the contract (`api/limits.ts`): the provider's check, the
 * emulator and the client enforce the same ones. Type and missing-value messages come from the
 * kit's error map (`messages.ts`).
 */
import { z } from "zod";
import { NUMBER_NOT_TEXT, isNumeral } from "../messages/input-errors";
import { integer, named, standsAs } from "./type-facts";
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
} from "../../client/constants";

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
  integer(z.number().refine((n) => inRange(n, range), `must be ${describeRange(range)}`));

/** CPU in milli-cores: a multiple of 250 from 250 to 64000 ({@link CPU_MILLIS}). */
export const cpuMillisField = wholeIn(CPU_MILLIS);

/** Memory in GiB: a whole number from 1 to 1024 ({@link MEMORY_GBS}). */
export const memoryGbsField = wholeIn(MEMORY_GBS);

/**
 * `"shared"`: shared CPU and memory instead of a dedicated allocation. Where a field must have
 * one type (the plugin's function results) it reads 0, as the API reports both sizes of such a
 * service.
 */
export const sharedLiteral = standsAs(0, named("Shared", z.literal(SHARED)));

/**
 * A service's size: a whole number within `range`, or `"shared"` for shared CPU and memory
 * instead of a dedicated allocation (docs/api.md#shared-resources).
 */
export const sizeOrShared = (range: WholeRange) =>
  z.union([wholeIn(range), sharedLiteral], {
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

/** The environment a resource is tagged with: `PROD` or `DEV`. */
export const environmentEnum = named("Environment", z.enum(ENVIRONMENTS));

/** `PROD` or `DEV`, `DEV` when absent. */
export const environmentField = environmentEnum.default("DEV");

/** A switch, `fallback` when absent. */
export const flagField = (fallback: boolean) => z.boolean().default(fallback);

/** A date-time with a zone, for messages. */
const ZONED_EXAMPLE = "2026-11-01T10:00:00";

/** An ISO 8601 date-time with a zone (`Z` or an offset). */
const zoned = z.iso.datetime({ offset: true });

/** Why `input` is not a date-time with a zone, with an example that has one (its own value zoned, when that is one). */
function zoneProblem(input: unknown): string | undefined {
  if (typeof input !== "string") return undefined;
  if (!z.iso.datetime({ local: true }).safeParse(input).success)
    return `must be an ISO 8601 date-time with a zone, e.g. ${ZONED_EXAMPLE}Z`;
  const example = zoned.safeParse(`${input}Z`).success ? input : ZONED_EXAMPLE;
  return `has no time zone: add one, e.g. ${example}Z (UTC) or ${example}+02:00`;
}

/**
 * An ISO 8601 date-time with a zone (`Z` or an offset): a time without one would mean another
 * instant on each machine. A time without a zone is told so, with an example that has one.
 */
export const dateTimeWithZone = z.iso.datetime({ offset: true, error: (issue) => zoneProblem(issue.input) });
