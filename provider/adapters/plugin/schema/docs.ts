/**
 * Where the schema's descriptions come from: the doc comments of the declarations (a table's
 * rows, the fields of a nested object, a function, a definition). The generator asks for them
 * by subject and path and never reads source itself: `npm run docs` hands it a reader built on
 * TypeScript's compiler (`scripts/docs/doc-comments.js`); a test may hand it another.
 *
 * Subjects: `resource:<kind>` (the table's outputs; `[]` is the definition itself),
 * `function:<name>` (the function), `function:<name>:args` and `function:<name>:result`,
 * `component` (the class), `component:args`, `component:outputs`, `config`.
 */

/** A doc comment, as the schema carries it. */
export interface Doc {
  /** Its text (Markdown). */
  description: string;
  /** Its `@deprecated` tag's text, when it has one. */
  deprecated?: string;
}

/** The doc comments the schema's descriptions are taken from. */
export interface DocSource {
  /**
   * The doc comment of the field at `path` (property names from the subject's root; lists are
   * looked through), or of the subject itself for an empty path.
   */
  field(subject: string, path: readonly string[]): Doc | undefined;
  /** The doc comment of the declaration whose value is `value` (a named type, exported), if any. */
  declaration(value: unknown): Doc | undefined;
}

/** A source with no doc comments: every description left out. */
export const NO_DOCS: DocSource = { field: () => undefined, declaration: () => undefined };

/** Subject names, as {@link DocSource} takes them. */
export const SUBJECTS = {
  resource: (kind: string) => `resource:${kind}`,
  function: (name: string) => `function:${name}`,
  functionArgs: (name: string) => `function:${name}:args`,
  functionResult: (name: string) => `function:${name}:result`,
  component: "component",
  componentArgs: "component:args",
  componentOutputs: "component:outputs",
  config: "config",
} as const;

/** The description and deprecation of a property or resource from `doc`, for a spec. */
export function described(doc: Doc | undefined): { description?: string; deprecationMessage?: string } {
  if (!doc) return {};
  return {
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.deprecated !== undefined ? { deprecationMessage: doc.deprecated || "Deprecated." } : {}),
  };
}
