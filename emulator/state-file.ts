/**
 * The state file's format (`--state-file`): a version, the release and dialect that wrote it, and
 * the projects' records. Reading one refuses, with a message naming the file and what to do, a file
 * that is not a state file, one a newer release wrote (a format this one cannot read), and one
 * written in another dialect (its ids are not the ones this dialect serves): nothing in it is
 * changed then, so no service's data is lost.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Dialect } from "../api/dialects";

/** What this file reads of a project's records (store.ts has the whole shape). */
export interface ProjectIds {
  services: readonly unknown[];
  vpcs: readonly { id: string; peerings: readonly { id: string }[] }[];
}

/**
 * The format this release writes. 2: `written_by` and `dialect`; services' `server` (what a crash
 * recovery needs), `error_message` and `retry_steps`. Format 1 is read and saved as 2.
 */
export const STATE_VERSION = 2;

/** Contents of the state file, its projects' records of type `P`. */
export interface StateFileContents<P extends ProjectIds = ProjectIds> {
  /** Format version, {@link STATE_VERSION} when written by this release. */
  version: number;
  /** `pulumi-managed-db <version>`, the release that wrote it (absent in format 1). */
  written_by?: string;
  /** The dialect of the emulator that wrote it (absent in format 1: told from the ids). */
  dialect?: Dialect;
  projects: Record<string, P>;
}

/** A state file this emulator must not use; the message says why and what to do. */
export class StateFileError extends Error {}

/** `pulumi-managed-db <version>` of this package. */
export const WRITTEN_BY = `pulumi-managed-db ${packageVersion()}`;

/** An empty state of `dialect`. */
export function emptyState<P extends ProjectIds>(dialect: Dialect): StateFileContents<P> {
  return { version: STATE_VERSION, written_by: WRITTEN_BY, dialect, projects: {} };
}

/** Reads state file `file` for an emulator speaking `dialect`; a missing file is an empty state. */
export function loadStateFile<P extends ProjectIds>(file: string, dialect: Dialect): StateFileContents<P> {
  if (!existsSync(file)) return emptyState<P>(dialect);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new StateFileError(`state file ${file} is not valid JSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const contents = parsed as Partial<StateFileContents<P>> | null;
  if (
    !contents ||
    typeof contents !== "object" ||
    typeof contents.version !== "number" ||
    typeof contents.projects !== "object" ||
    contents.projects === null
  ) {
    throw new StateFileError(`state file ${file} is not an mdb-emulator state file`);
  }
  if (contents.version > STATE_VERSION || contents.version < 1) {
    throw new StateFileError(
      `state file ${file} was written by ${contents.written_by ?? "another release of mdb-emulator"} in state format ${contents.version}; ` +
        `this one (${WRITTEN_BY}) reads formats 1 to ${STATE_VERSION}: upgrade pulumi-managed-db, or start with another --state-file`,
    );
  }
  const state = contents as StateFileContents<P>;
  checkDialect(file, state, dialect);
  return { ...state, version: STATE_VERSION, written_by: WRITTEN_BY, dialect };
}

/**
 * A state file belongs to the dialect that wrote it: the other would answer its records in words
 * they were not made in (the vendor's VPC and peering ids are digits, the seed's `vpc-…`). An empty
 * state belongs to none.
 */
function checkDialect(file: string, state: StateFileContents, dialect: Dialect): void {
  const projects = Object.values(state.projects);
  if (projects.every((p) => p.services.length === 0 && p.vpcs.length === 0)) return;
  const ids = projects.flatMap((p) => p.vpcs.flatMap((v) => [v.id, ...v.peerings.map((x) => x.id)]));
  const seedIds = ids.filter((id) => !/^[0-9]+$/.test(id));
  const writer: Dialect | undefined =
    state.dialect ?? (seedIds.length > 0 ? "seed" : ids.length > 0 ? "vendor" : undefined);
  if (writer === undefined || writer === dialect) return;
  const examples = (writer === "seed" ? seedIds : ids).slice(0, 3).join(", ");
  throw new StateFileError(
    `state file ${file} was written by mdb-emulator --dialect ${writer}` +
      (examples ? ` (ids such as ${examples})` : "") +
      `, and this one speaks --dialect ${dialect}: start it with --dialect ${writer}, or with another --state-file`,
  );
}

/** This package's version (its package.json, found up from here: the sources or dist/). */
function packageVersion(): string {
  for (let dir = __dirname, i = 0; i < 5; dir = path.dirname(dir), i++) {
    const file = path.join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (pkg.name === "pulumi-managed-db" && pkg.version) return pkg.version;
  }
  return "0.0.0";
}
