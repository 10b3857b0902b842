/**
 * The `import` resource option as an error's advice writes it. The dynamic classes serve only
 * TypeScript and JavaScript programs, so their words are the option as such a program writes it;
 * the plugin serves programs in every Pulumi language, which spell the option each their own way.
 */

/**
 * The option adopting the record `id`: `{ import: "svc-1" }` for a Node.js program; with
 * `anyLanguage` (the plugin), the option by name with each language's spelling of it.
 */
export function importOption(id: string, anyLanguage = false): string {
  const quoted = JSON.stringify(id);
  if (!anyLanguage) return `{ import: ${quoted} }`;
  return (
    `import set to ${quoted} (import in TypeScript and YAML, import_ in Python, ` +
    `pulumi.Import in Go, ImportId in C#)`
  );
}
