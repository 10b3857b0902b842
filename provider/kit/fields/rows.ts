/**
 * Rows that several field tables share, with one wording and one rule each. A table gives each
 * its own doc comment (the docs say whose project, whose name).
 */
import { DEFAULT_DATABASE_NAME, DEFAULT_USERNAME } from "./connection";
import { type InputRow, rowsOf } from "./field-table";
import { flagField, nonEmpty, projectIdField } from "./rules";

const { input, setting } = rowsOf<unknown>();

/**
 * `projectId`: unset means "the configured project", so only a project given and different from
 * the one in use replaces the resource. The output is the resolved project.
 */
export const PROJECT_ID_ROW: InputRow<typeof projectIdField, unknown, typeof nonEmpty> = {
  ...input(
    projectIdField,
    { replace: "a resource cannot move to another project" },
    { stable: true, equals: (d, o) => d === undefined || d === o, read: (_record, ref) => ref.projectId },
  ),
  outputType: nonEmpty,
};

/** `deletionProtection`: while true, a delete is refused before any API call. Default false. */
export const DELETION_PROTECTION_ROW = setting(flagField(false));

/** `username`: the database user connection outputs name, `tsdbadmin` unless set; only the stack keeps it. */
export const USERNAME_ROW = setting(nonEmpty.default(DEFAULT_USERNAME));

/** `databaseName`: the database connection outputs name, `tsdb` unless set; only the stack keeps it. */
export const DATABASE_NAME_ROW = setting(nonEmpty.default(DEFAULT_DATABASE_NAME));
