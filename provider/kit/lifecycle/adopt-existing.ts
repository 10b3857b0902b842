/**
 * Whether a create takes over an existing record of the same identity instead of making a
 * second one. A killed `pulumi up` leaves records the stack does not hold; the next run must
 * find them without anyone looking up ids (docs/recovery.md). A record is adopted when:
 *
 * - the class generated the name: it encodes project, stack and resource, so the record can
 *   only be this resource's own (automatic, as before);
 * - `mdb:adoptExisting` / `MDB_ADOPT_EXISTING` is true: for a name the program chose, or a
 *   peering (which has no name), the user vouches that matching records are the stack's.
 *
 * Otherwise it is refused with the import option and the switch as advice. Each adoption is
 * printed. Two matches are never adopted: taking one would leave the other orphaned.
 */
import { argumentWhere, whereToSet } from "../../client/settings";
import { ADOPT_EXISTING_KEYS } from "../../config";
import { importOption } from "../messages/import-option";

/** What {@link adoptOrRefuse} knows of the create. */
export interface AdoptionCase<R> {
  /** What is created, for messages: `VPC core`. */
  what: string;
  /** The identity in words: `name, CIDR block and region`. */
  identity: string;
  /** True when the class generated the name. */
  autoNamed: boolean;
  /** The live records of the same identity (at least one). */
  found: R[];
  /** The record's own id. */
  recordId(record: R): string;
  /** The id `import` takes for the record. */
  importId(record: R): string;
  /** First sentence of the refusal of one record: `a VPC named ... already exists ...`. */
  refusal(record: R): string;
  /** What else the user can do: `choose another name`. */
  otherwise: string;
  /** Whether `mdb:adoptExisting` is on. */
  adoptExisting: boolean;
  /** Where the switch is set when not in stack config: an explicit provider's arguments. */
  settingsOrigin?: string;
  /** The program may be in any Pulumi language (the plugin): the advice names the option so. */
  anyLanguage?: boolean;
  /** Reports progress. */
  log(message: string): void;
}

/**
 * The switch, as the refusal names it: the config command, or for an explicit provider
 * (`origin`, `the arguments of provider prod`) its argument; either way, else the variable.
 */
function switchAdvice(origin: string | undefined): string {
  const how = origin
    ? `set ${argumentWhere("adoptExisting", origin)} to true`
    : `set ${ADOPT_EXISTING_KEYS.config} to true: \`pulumi config set ${ADOPT_EXISTING_KEYS.config} true\``;
  return (
    `To adopt every record of the same identity instead (after an interrupted run), ${how}, ` +
    `or ${ADOPT_EXISTING_KEYS.env}=true for one run`
  );
}

/**
 * Why a create may not adopt `c.found`, in the words its error gives: more than one record, or
 * one the class did not name without the switch. Undefined when it adopts the one record found.
 */
export function refusalOf<R>(c: Omit<AdoptionCase<R>, "log">): string | undefined {
  const [first] = c.found;
  if (c.found.length > 1)
    return (
      `${c.what} matches ${c.found.length} existing records by ${c.identity}: ` +
      `${c.found.map(c.recordId).join(", ")}. Import the one to keep with the resource option ` +
      `${importOption(c.importId(first), c.anyLanguage)} (or another of them), and delete the others`
    );
  if (c.autoNamed || c.adoptExisting) return undefined;
  return (
    `${c.refusal(first)}. Adopt it with the resource option ${importOption(c.importId(first), c.anyLanguage)}, or ` +
    `${c.otherwise}. ${switchAdvice(c.settingsOrigin)}`
  );
}

/** Returns the record to adopt, printing the adoption; throws the refusal when it may not be adopted. */
export function adoptOrRefuse<R>(c: AdoptionCase<R>): R {
  const [first] = c.found;
  const refusal = refusalOf(c);
  if (refusal !== undefined) throw new Error(refusal);
  if (c.autoNamed) {
    c.log(`${c.what} already exists as ${c.recordId(first)} (an interrupted run?); adopting it`);
    return first;
  }
  c.log(
    `${c.what} already exists as ${c.recordId(first)} (same ${c.identity}); adopting it ` +
      `because ${whereToSet("adoptExisting", c.settingsOrigin)} is true`,
  );
  return first;
}
