/**
 * Looking a record up by id or by name for `getService` and `getVpc`. The API has no search
 * by name, so a name is matched exactly against the project's list; a name is not unique in
 * the API, so none or several matches is an error that says which records there are.
 */

/** A `getService` / `getVpc` call that found no record, or several, by the name it was given. */
export class MdbLookupError extends Error {
  constructor(
    /** What was looked for, e.g. `service`. */
    readonly kind: string,
    /** The name looked for. */
    readonly lookedFor: string,
    /** Ids of the records with that name (none, or two and more). */
    readonly matchIds: string[],
    message: string,
  ) {
    super(message);
    this.name = "MdbLookupError";
  }
}

/** How to find and describe the records of one kind. */
export interface LookupKind<R> {
  /** Singular noun, e.g. `service`. */
  kind: string;
  /** Name of the id argument, e.g. `serviceId`. */
  idArg: string;
  /** Id of a record. */
  idOf(record: R): string;
  /** Name of a record. */
  nameOf(record: R): string;
  /** What tells records of one name apart in a message, e.g. `us-east-1, READY`. */
  detailOf(record: R): string;
}

/**
 * Which of `id` and `name` a call gives; exactly one must be a non-empty string. Throws a
 * `TypeError` naming both arguments otherwise.
 */
export function idOrName(
  of: Pick<LookupKind<unknown>, "kind" | "idArg">,
  id: unknown,
  name: unknown,
): { id: string } | { name: string } {
  const given = (v: unknown): v is string => typeof v === "string" && v !== "";
  if (given(id) && name === undefined) return { id };
  if (given(name) && id === undefined) return { name };
  throw new TypeError(
    `get ${of.kind}: give exactly one of ${of.idArg} and name, as a non-empty string ` +
      `(got ${of.idArg}: ${JSON.stringify(id)}, name: ${JSON.stringify(name)})`,
  );
}

/**
 * The one record of `records` named `name`. Throws {@link MdbLookupError} when there is
 * none, or several (naming each with its id and details, so the caller can pick an id).
 */
export function theOneNamed<R>(of: LookupKind<R>, records: R[], name: string, projectId: string): R {
  const matches = records.filter((r) => of.nameOf(r) === name);
  if (matches.length === 1) return matches[0];
  const ids = matches.map((r) => of.idOf(r));
  if (matches.length === 0)
    throw new MdbLookupError(
      of.kind,
      name,
      ids,
      `no ${of.kind} named "${name}" in project ${projectId} (it has ${records.length} ` +
        `${of.kind}${records.length === 1 ? "" : "s"}); names match exactly`,
    );
  const listed = matches.map((r) => `${of.idOf(r)} (${of.detailOf(r)})`).join(", ");
  throw new MdbLookupError(
    of.kind,
    name,
    ids,
    `${matches.length} ${of.kind}s are named "${name}" in project ${projectId}: ${listed}; ` +
      `give ${of.idArg} instead of name`,
  );
}
