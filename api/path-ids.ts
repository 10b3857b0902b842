/**
 * The rules of path ids (`service_id`, `vpc_id`, ...), one definition for the server's check and
 * the OpenAPI document's parameter schemas (docs/api.md#path-ids):
 *
 * - every id: at least one character, at most the server's limit (100 by default, counted in
 *   characters once percent-decoded), and no control character (U+0000 to U+001F, U+007F): an id
 *   of this API is letters, digits and dashes, so a newline is a mistake worth naming, not an
 *   unknown record;
 * - the vendor's current document adds: VPC and peering ids are strings of digits, replica set ids
 *   have at least 3 characters.
 */
import type { Dialect } from "./dialects";
import type { JsonSchema } from "./json-forms";
import type { PathParam } from "./operations";

/** The longest path id the emulator takes by default, in characters (its 414 bound). */
export const MAX_PATH_ID_LENGTH = 100;

/** A control character (C0 or DEL), as a regular expression class. */
const CONTROL = "[\\u0000-\\u001f\\u007f]";

/** What a dialect asks of one path id beyond the rules every id keeps. */
interface IdRule {
  /** Fewest characters. */
  minLength: number;
  /** A string of digits only. */
  digits: boolean;
}

/** The rule of path id `name` in `dialect`. */
function ruleOf(name: PathParam, dialect: Dialect): IdRule {
  if (dialect === "seed") return { minLength: 1, digits: false };
  return {
    minLength: name === "replica_set_id" ? 3 : 1,
    digits: name === "vpc_id" || name === "peering_id",
  };
}

/** Number of characters of `text` (code points, as JSON Schema counts them). */
function characters(text: string): number {
  return [...text].length;
}

/** The JSON Schema of path id `name` in `dialect`, with the server's length limit `maxLength`. */
export function pathIdSchema(name: PathParam, dialect: Dialect, maxLength = MAX_PATH_ID_LENGTH): JsonSchema {
  const rule = ruleOf(name, dialect);
  return {
    type: "string",
    minLength: rule.minLength,
    maxLength,
    pattern: rule.digits ? "^[0-9]+$" : `^[^${CONTROL.slice(1, -1)}]+$`,
  };
}

/** Why a path id is refused: the status (400, or 414 past the length limit) and the message. */
export interface PathIdProblem {
  /** 400 INVALID_REQUEST, or 414 URI_TOO_LONG past the length limit. */
  status: 400 | 414;
  /** What is wrong, starting with the parameter's name (or `(path)` for the length limit). */
  message: string;
}

/**
 * What is wrong with path id `name` = `value` in `dialect` (the message starts with the name, or
 * `(path)` for the length limit), or undefined when nothing is.
 */
export function pathIdProblem(
  name: PathParam,
  value: string,
  dialect: Dialect,
  maxLength = MAX_PATH_ID_LENGTH,
): PathIdProblem | undefined {
  const shown = JSON.stringify(value);
  if (characters(value) > maxLength)
    return { status: 414, message: `(path): ${name} is longer than ${maxLength} characters` };
  const control = new RegExp(CONTROL).exec(value);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    const at = characters(value.slice(0, control.index)) + 1;
    return {
      status: 400,
      message: `${name}: must not contain control characters (U+${code} at character ${at}), not ${shown}`,
    };
  }
  const rule = ruleOf(name, dialect);
  if (rule.digits && !/^[0-9]+$/.test(value))
    return { status: 400, message: `${name}: must be a string of digits, not ${shown}` };
  if (characters(value) < rule.minLength)
    return { status: 400, message: `${name}: must be at least ${rule.minLength} characters, not ${shown}` };
  return undefined;
}
