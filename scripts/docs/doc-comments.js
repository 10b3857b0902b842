/**
 * Doc comments, read with TypeScript's compiler: what an editor shows on hover is what the
 * package schema and the reference docs say. A field's doc comment is found along a path of
 * property names through a type (the outputs a field table infers, a zod object's inferred
 * type), so the doc comment of a row, of a nested object's field or of a function's argument
 * is read where it is written, wherever the type is used. A declaration's doc comment (a
 * resource's definition, a function, a named type) is found by the name it is exported under.
 *
 * The reader is a `DocSource` of `provider/adapters/plugin/schema/docs.ts`.
 */
"use strict";
const path = require("node:path");

/** `{@link X}` and `{@link X | text}` as Markdown; single line breaks joined, code blocks kept. */
function markdown(text) {
  const linked = text.replace(
    /\{@link(?:code|plain)?\s+([^\s|}]+)\s*(?:\|\s*([^}]*))?\}/g,
    (_m, name, label) => (label && label.trim() ? label.trim() : `\`${name}\``),
  );
  return linked
    .split(/(```[\s\S]*?```)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([^\n])[ \t]*\n[ \t]*(?=[^\n])/g, "$1 ")))
    .join("")
    .trim();
}

/**
 * A reader of the doc comments of the sources under `root/provider`.
 *
 * `subjects`: by name, `{ type }` (a type expression, over the modules `imports` names) whose
 * fields are read, and/or `{ symbol: { file, name } }` whose own doc comment is the subject's.
 * `imports`: alias -> module path from the root without extension (`provider/functions/declarations`).
 * `exported(value)`: where a value is exported, `{ file, name }`, for {@link declaration}.
 */
function docReader({ root, subjects, imports, exported }) {
  const ts = require("typescript");
  const configFile = path.join(root, "tsconfig.build.json");
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const probe = path.join(root, "provider", "__doc_subjects__.ts");
  const names = Object.keys(subjects);
  const lines = [
    'import type { z } from "zod";',
    'import type { OutputsOf } from "./kit/fields/field-table";',
  ];
  for (const [alias, module] of Object.entries(imports))
    lines.push(
      `import type * as ${alias} from "./${path.relative(path.join(root, "provider"), path.join(root, module))}";`,
    );
  names.forEach((name, i) => {
    const { type, symbol } = subjects[name];
    if (type) lines.push(`export type S${i} = ${type};`);
    // The files whose declarations are read join the program through the probe.
    if (symbol)
      lines.push(
        `export type * as D${i} from "./${path.relative(path.join(root, "provider"), path.join(root, symbol.file)).replace(/\.ts$/, "")}";`,
      );
  });
  lines.push("export {};");
  const text = lines.join("\n");

  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    path.resolve(file) === probe
      ? ts.createSourceFile(file, text, language)
      : getSourceFile(file, language, ...rest);
  host.fileExists = (file) => path.resolve(file) === probe || fileExists(file);
  const program = ts.createProgram([probe], parsed.options, host);
  const checker = program.getTypeChecker();
  const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(probe));
  if (errors.length > 0)
    throw new Error(
      `doc subjects do not compile: ${ts.flattenDiagnosticMessageText(errors[0].messageText, "\n")}`,
    );
  const probeExports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(probe)));

  /** The doc comment of `symbol`, or undefined when it has none. */
  const docOf = (symbol) => {
    const description = markdown(ts.displayPartsToString(symbol.getDocumentationComment(checker)));
    const tag = symbol.getJsDocTags(checker).find((t) => t.name === "deprecated");
    if (!description && !tag) return undefined;
    return { description, ...(tag ? { deprecated: markdown(ts.displayPartsToString(tag.text ?? [])) } : {}) };
  };

  /** The exported symbol `name` of source `file` (relative to the root). */
  const exportOf = (file, name) => {
    const source = program.getSourceFile(path.join(root, file));
    if (!source) throw new Error(`${file} is not among the sources read for doc comments`);
    const symbol = checker
      .getExportsOfModule(checker.getSymbolAtLocation(source))
      .find((s) => s.name === name);
    if (!symbol) throw new Error(`${file} exports no ${name}`);
    return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  };

  /** The object types `type` may hold: itself, the members of a union, the items of a list. */
  const objects = (type) => {
    const defined = checker.getNonNullableType(type);
    if (defined.isUnion()) return defined.types.flatMap(objects);
    if (checker.isArrayType(defined)) return objects(checker.getTypeArguments(defined)[0]);
    return defined.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection) ? [defined] : [];
  };

  return {
    field(subject, fieldPath) {
      const spec = subjects[subject];
      if (!spec) throw new Error(`no doc subject ${subject}`);
      if (fieldPath.length === 0)
        return spec.symbol ? docOf(exportOf(spec.symbol.file, spec.symbol.name)) : undefined;
      const alias = probeExports.find((s) => s.name === `S${names.indexOf(subject)}`);
      if (!alias) throw new Error(`doc subject ${subject} has no type`);
      let found = [];
      let types = [checker.getDeclaredTypeOfSymbol(alias)];
      for (const name of fieldPath) {
        found = types.flatMap(objects).flatMap((t) => {
          const property = checker.getPropertyOfType(t, name);
          return property ? [property] : [];
        });
        types = found.map((p) => checker.getTypeOfSymbol(p));
      }
      return found.map(docOf).find((doc) => doc !== undefined);
    },
    declaration(value) {
      const where = exported(value);
      return where ? docOf(exportOf(where.file, where.name)) : undefined;
    },
  };
}

module.exports = { docReader, markdown };
