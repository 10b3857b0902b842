/**
 * The reference docs, from the same declarations as the package schema: `docs/resources.md`
 * (every input and output of every resource, the object types they hold, the component, the
 * functions and the configuration) and README's generated tables (what a change does, the
 * object inputs' fields). Types, descriptions, defaults, secrets and required fields are read
 * from the schema (which the declarations and their doc comments make); how a change is carried
 * out, from the field tables.
 */
"use strict";

/** A cell's text: pipes escaped. */
const cell = (text) => String(text ?? "").replace(/\|/g, "\\|");

/** `#/types/mdb:index:ForkFrom` -> `ForkFrom`. */
const typeName = (ref) => ref.slice(ref.lastIndexOf(":") + 1);

/** The anchor of a named type's section: its heading's. */
const anchor = (name) => name.toLowerCase();

/** A type in words, from its schema spec: enums as their values, object types linked. */
function typeWords(spec, schema) {
  if ("oneOf" in spec) return spec.oneOf.map((t) => typeWords(t, schema)).join(" | ");
  if ("$ref" in spec) {
    if (spec.$ref === "pulumi.json#/Any") return "any";
    const named = schema.types[spec.$ref.replace("#/types/", "")];
    if (named && named.enum) return named.enum.map((e) => JSON.stringify(e.value)).join(" | ");
    return `[${typeName(spec.$ref)}](#${anchor(typeName(spec.$ref))})`;
  }
  if (spec.type === "array") return `${typeWords(spec.items, schema)}[]`;
  if (spec.type === "object") return `map of ${typeWords(spec.additionalProperties, schema)}`;
  return spec.type;
}

/** How a change of an input is carried out, in words. */
function changeOf(row) {
  if ("replace" in row.change)
    return row.change.replace === true ? "replace" : `replace (${row.change.replace})`;
  if ("update" in row.change) return `in place: ${row.change.update.map((op) => `\`${op}\``).join(" / ")}`;
  return "in place, no API call (the stack keeps it)";
}

/** A property's name, marked secret when it is. */
const nameCell = (name, spec) => `\`${name}\`${spec.secret ? " (secret)" : ""}`;

/** A default's cell. */
const defaultCell = (spec) => (spec.default === undefined ? "" : `\`${cell(JSON.stringify(spec.default))}\``);

/** A table of `properties` (name, type, required or default, description). */
function propertiesTable(properties, required, schema, head = "field") {
  const out = [`| ${head} | type | required / default | description |`, "| --- | --- | --- | --- |"];
  for (const [name, spec] of Object.entries(properties ?? {}))
    out.push(
      `| ${nameCell(name, spec)} | ${cell(typeWords(spec, schema))} | ${
        (required ?? []).includes(name) ? "required" : defaultCell(spec) || "optional"
      } | ${cell(spec.description)} |`,
    );
  return out;
}

/** The named object types `spec` refers to, in the order met. */
function objectTypesOf(spec, schema, found = new Set()) {
  const refs = [];
  const visit = (t) => {
    if (!t || typeof t !== "object") return;
    if (t.$ref && t.$ref.startsWith("#/types/")) {
      const key = t.$ref.replace("#/types/", "");
      const named = schema.types[key];
      if (named && named.type === "object" && !found.has(key)) {
        found.add(key);
        refs.push(key);
        for (const p of Object.values(named.properties ?? {})) visit(p);
      }
    }
    for (const v of [t.items, t.additionalProperties, ...(t.oneOf ?? [])]) visit(v);
  };
  visit(spec);
  return refs;
}

/** A resource's section: its inputs (with how a change is carried out) and its outputs. */
function resourceSection(def, schema) {
  const spec = schema.resources[`mdb:index:${def.typeName}`];
  const out = ["", `## ${def.typeName}`, "", spec.description ?? def.summary, ""];
  out.push("| input | type | required / default | change | doc |", "| --- | --- | --- | --- | --- |");
  for (const [name, row] of Object.entries(def.fields).filter(([, r]) => r.role === "input")) {
    const input = spec.inputProperties[name];
    const required = spec.requiredInputs.includes(name) ? "required" : defaultCell(input);
    out.push(
      `| ${nameCell(name, input)} | ${cell(typeWords(input, schema))} | ${required} | ${changeOf(row)} | ${cell(
        input.description,
      )} |`,
    );
  }
  out.push("", "| output | type | doc |", "| --- | --- | --- |");
  for (const [name] of Object.entries(def.fields).filter(([, r]) => r.role === "output")) {
    const output = spec.properties[name];
    out.push(
      `| ${nameCell(name, output)} | ${cell(typeWords(output, schema))} | ${cell(output.description)} |`,
    );
  }
  return out;
}

/** A named object type's section. */
function typeSection(key, schema) {
  const named = schema.types[key];
  const name = typeName(key);
  return [
    "",
    `### ${name}`,
    "",
    named.description ?? "",
    "",
    ...propertiesTable(named.properties, named.required, schema),
  ];
}

/** The text of docs/resources.md. */
function resourcesDoc(registry, schema) {
  const out = [
    "# Reference: resources, component, functions, configuration",
    "",
    "Generated by `npm run docs` from the field tables (`provider/resources/<kind>/fields.ts`), the",
    "functions', the component's and the configuration's declarations, and their doc comments, as",
    "`plugin/schema.json` is; do not edit. An input's change is how `pulumi up` applies a new value:",
    "a replacement, the API calls named (operation ids, as in docs/api.md and the preview's `[mdb]`",
    "lines), or nothing but the stack's record. Secret values are kept secret in the state and never",
    "printed. Every input is also an output of the same name: its value as observed. The same types",
    "are the native plugin's (`mdb:index:<name>`).",
  ];
  const defs = Object.values(registry).map((entry) => entry.definition);
  const seen = new Set();
  const types = [];
  for (const def of defs) {
    out.push(...resourceSection(def, schema));
    const spec = schema.resources[`mdb:index:${def.typeName}`];
    for (const p of Object.values(spec.properties)) types.push(...objectTypesOf(p, schema, seen));
  }
  out.push("", "## Object types", "", "The objects the resources' inputs and outputs hold.");
  for (const key of types) out.push(...typeSection(key, schema));

  const [componentToken, component] = Object.entries(schema.resources).find(([, r]) => r.isComponent);
  out.push("", `## ${typeName(componentToken)} (component)`, "", component.description ?? "", "");
  out.push(...propertiesTable(component.inputProperties, component.requiredInputs, schema, "input"));
  out.push("", "| output | type | doc |", "| --- | --- | --- |");
  for (const [name, spec] of Object.entries(component.properties))
    out.push(`| ${nameCell(name, spec)} | ${cell(typeWords(spec, schema))} | ${cell(spec.description)} |`);
  const componentTypes = Object.values(component.inputProperties).flatMap((p) =>
    objectTypesOf(p, schema, seen),
  );
  for (const key of componentTypes) out.push(...typeSection(key, schema));

  out.push("", "## Functions", "");
  out.push("Each also in an Output form (`getServiceOutput`, ...) taking Inputs; native invokes are");
  out.push("`mdb:index:<name>`, and one that returns a list gives it under the name its result shows.");
  const functionTypes = [];
  for (const [token, fn] of Object.entries(schema.functions)) {
    out.push("", `### ${typeName(token)}`, "", fn.description ?? "", "");
    if (fn.inputs)
      out.push(...propertiesTable(fn.inputs.properties, fn.inputs.required, schema, "argument"), "");
    else out.push("No arguments.", "");
    out.push(...propertiesTable(fn.outputs.properties, fn.outputs.required, schema, "result"));
    for (const p of Object.values(fn.outputs.properties))
      functionTypes.push(...objectTypesOf(p, schema, seen));
  }
  if (functionTypes.length > 0) out.push("", "### Result types");
  for (const key of functionTypes) out.push(...typeSection(key, schema));

  out.push("", "## Configuration", "", "Stack config `mdb:<key>`, else the environment variable.", "");
  out.push("| key | environment | type | description |", "| --- | --- | --- | --- |");
  for (const [key, spec] of Object.entries(schema.config.variables))
    out.push(
      `| ${nameCell(`mdb:${key}`, spec)} | \`${spec.defaultInfo.environment.join("`, `")}\` | ${typeWords(
        spec,
        schema,
      )} | ${cell(spec.description)} |`,
    );
  return out.join("\n") + "\n";
}

/** README's "What a change does" table: per resource, the inputs grouped by how they change. */
function changesTable(registry) {
  const lines = ["| resource | input | on change |", "| --- | --- | --- |"];
  for (const { definition: def } of Object.values(registry)) {
    const groups = new Map();
    for (const [name, row] of Object.entries(def.fields)) {
      if (row.role !== "input") continue;
      const how =
        changeOf(row) +
        (def.deleteBeforeReplace && "replace" in row.change ? ", the old one deleted first" : "");
      groups.set(how, [...(groups.get(how) ?? []), `\`${name}\`${row.secret ? " (secret)" : ""}`]);
    }
    for (const [how, names] of groups) lines.push(`| ${def.typeName} | ${names.join(", ")} | ${cell(how)} |`);
  }
  return lines.join("\n");
}

/** README's object inputs: the fields of each resource input that takes an object. */
function objectInputsTable(registry, schema) {
  const lines = [
    "| input | field | type | required / default | description |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const { definition: def } of Object.values(registry)) {
    const spec = schema.resources[`mdb:index:${def.typeName}`];
    for (const [name, input] of Object.entries(spec.inputProperties))
      for (const key of objectTypesOf(input, schema)) {
        const named = schema.types[key];
        for (const [field, fieldSpec] of Object.entries(named.properties ?? {}))
          lines.push(
            `| ${def.typeName} \`${name}\` | \`${field}\` | ${cell(typeWords(fieldSpec, schema))} | ${
              (named.required ?? []).includes(field) ? "required" : defaultCell(fieldSpec) || "optional"
            } | ${cell(fieldSpec.description)} |`,
          );
      }
  }
  return lines.join("\n");
}

module.exports = { resourcesDoc, changesTable, objectInputsTable, typeWords };
