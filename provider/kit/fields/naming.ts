/**
 * Names generated for resources whose program gives none. The suffix is derived from the
 * project, stack and resource name, so it is the same on every run: a run that was
 * interrupted after the API created the resource is recognised by the next one. Both faces make
 * the same name for the same resource (a stack moved between them keeps its names).
 */
import * as crypto from "crypto";
import { AUTO_NAMED_INPUT } from "../hidden";

/** `<resourceName>-<7 hex digits>`: stable for one resource of one stack of one project. */
export function autoName(project: string, stack: string, resourceName: string): string {
  const hash = crypto
    .createHash("sha256")
    .update(`${project}/${stack}/${resourceName}`)
    .digest("hex")
    .slice(0, 7);
  return `${resourceName}-${hash}`;
}

/** What a generated name is made of: the stack's project and name, and the resource's name. */
export interface NameSeed {
  /** The Pulumi project. */
  project: string;
  /** The stack. */
  stack: string;
  /** The program's name of the resource (`db`). */
  resourceName: string;
}

/**
 * The program's inputs `news` with the `name` a resource that names itself (`naming` is
 * `generated`) gets when the program gives none: the one an earlier run generated, which the last
 * checked inputs `olds` carry with `__autoNamed` (so a renamed stack keeps its names), else
 * {@link autoName} of `seed`; marked `__autoNamed`, as the dynamic classes mark the name they
 * generate in the program. The plugin's check applies it; `news` is returned as it is otherwise.
 */
export function withGeneratedName(
  naming: "generated" | "none",
  news: Record<string, unknown>,
  olds: Record<string, unknown>,
  seed: NameSeed,
): Record<string, unknown> {
  if (naming !== "generated" || news.name !== undefined) return news;
  const kept = olds[AUTO_NAMED_INPUT] === true && typeof olds.name === "string" ? olds.name : undefined;
  return {
    ...news,
    name: kept ?? autoName(seed.project, seed.stack, seed.resourceName),
    [AUTO_NAMED_INPUT]: true,
  };
}

/**
 * The inputs a read reproduces (`inputs`), marked `__autoNamed` again when the last checked
 * inputs `olds` were and the name is the same: a refresh keeps a generated name generated, so a
 * later check still keeps it (see {@link withGeneratedName}).
 */
export function withAutoNamedKept(
  inputs: Record<string, unknown>,
  olds: Record<string, unknown>,
): Record<string, unknown> {
  return olds[AUTO_NAMED_INPUT] === true && olds.name !== undefined && olds.name === inputs.name
    ? { ...inputs, [AUTO_NAMED_INPUT]: true }
    : inputs;
}
