/**
 * Input fields the resources share, with one wording for each rule. A resource's schema
 * composes these; a rule of its own (e.g. a CIDR block) stays in its file.
 */
import { z } from "zod";
import { ENVIRONMENTS } from "../client/schemas";

/** A string with something in it besides spaces (trimmed). */
export const nonEmpty = z.string({ message: "must be a string" }).trim().min(1, "must not be empty");

/** `projectId`: optional, the configured or the key's project when absent. */
export const projectIdField = nonEmpty.optional();

/** A resource name as the API takes it: 1..128 characters. */
export const resourceName = nonEmpty.max(128, "must be at most 128 characters");

/** A positive whole number of `unit` (named in the message for a value of the wrong type). */
export const positiveInt = (unit: string) =>
  z
    .number({ message: `must be a number (${unit})` })
    .int("must be a whole number")
    .positive("must be positive");

/** CPU in milli-cores: a positive multiple of 250. */
export const cpuMillisField = positiveInt("milli-cores").refine(
  (n) => n % 250 === 0,
  "must be a multiple of 250",
);

/** Memory in GiB: a positive whole number. */
export const memoryGbsField = positiveInt("GiB");

/** `PROD` or `DEV`, `DEV` when absent. */
export const environmentField = z.enum(ENVIRONMENTS, { message: "must be PROD or DEV" }).default("DEV");

/** A switch, `fallback` when absent. */
export const flagField = (fallback: boolean) =>
  z.boolean({ message: "must be true or false" }).default(fallback);
