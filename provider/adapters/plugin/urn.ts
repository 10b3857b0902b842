/**
 * The parts of a resource's URN (`urn:pulumi:<stack>::<project>::<type>::<name>`, Pulumi's
 * documented form): the plugin takes the stack and project of a generated name from it, and the
 * name that progress lines and holds call the resource by.
 */

/** What a URN names. */
export interface UrnParts {
  /** The stack. */
  stack: string;
  /** The project. */
  project: string;
  /** The type token (the last of a parent chain `parent$type`). */
  type: string;
  /** The resource's name in the program. */
  name: string;
}

/** The parts of `urn`; throws on text that is not a URN. */
export function parseUrn(urn: string): UrnParts {
  const [head, project, qualified, ...rest] = urn.split("::");
  if (!head.startsWith("urn:pulumi:") || !project || !qualified || rest.length === 0)
    throw new Error(`"${urn}" is not a Pulumi URN`);
  return {
    stack: head.slice("urn:pulumi:".length),
    project,
    type: qualified.split("$").pop() as string,
    name: rest.join("::"),
  };
}
