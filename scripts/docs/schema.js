/**
 * The package schema of the plugin `mdb` (`plugin/schema.json`), from the built package: the
 * generator (`provider/adapters/plugin/schema/package.ts`) over the declarations it reads
 * (`sources.ts`), with the doc comments of their sources (`doc-comments.js`) as descriptions.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { docReader } = require("./doc-comments");

/** The built module `file` (a path under `provider/`, without extension). */
function built(root, file) {
  const dist = path.join(root, "dist", "provider");
  if (!fs.existsSync(path.join(dist, "resources", "registry.js")))
    throw new Error("dist/ is missing: run `npm run build` first");
  return require(path.join(dist, file));
}

/** Where each value of the built modules is exported: `{ file, name }` of its source. */
function exportsIndex(root) {
  const dist = path.join(root, "dist", "provider") + path.sep;
  const index = new Map();
  for (const [file, module] of Object.entries(require.cache)) {
    if (!file.startsWith(dist) || !file.endsWith(".js") || !module?.exports) continue;
    const source = path.relative(root, file.slice(0, -3) + ".ts").replace(/^dist[/\\]/, "");
    for (const name of Object.keys(module.exports)) {
      const value = module.exports[name];
      if (value && typeof value === "object" && !index.has(value)) index.set(value, { file: source, name });
    }
  }
  return index;
}

/** The name `module` exports `value` under. */
function nameOf(module, value, what) {
  const found = Object.keys(module).find((name) => module[name] === value);
  if (!found) throw new Error(`no export of ${what}`);
  return found;
}

/** The doc subjects of this package (see `docs.ts` of the generator): what each one reads. */
function subjectsOf(root, sources) {
  const imports = {
    fn: "provider/functions/declarations",
    pd: "provider/components/production-database-args",
    cfg: "provider/config-declaration",
  };
  const subjects = {
    component: { symbol: { file: "provider/components/production-database.ts", name: "ProductionDatabase" } },
    "component:args": { type: "z.input<(typeof pd.PRODUCTION_DATABASE)['args']>" },
    "component:outputs": { type: "z.output<(typeof pd.PRODUCTION_DATABASE)['outputs']>" },
    config: {
      type: "z.output<typeof cfg.PROVIDER_CONFIG>",
      symbol: { file: "provider/config-declaration.ts", name: "PROVIDER_CONFIG" },
    },
  };
  for (const def of sources.resources) {
    const file = `provider/resources/${def.kind}/fields`;
    const module = built(root, `resources/${def.kind}/fields`);
    const alias = `r${Object.keys(imports).length}`;
    imports[alias] = file;
    subjects[`resource:${def.kind}`] = {
      type: `OutputsOf<typeof ${alias}.${nameOf(module, def.fields, `the field table of ${def.kind}`)}>`,
      symbol: { file: `${file}.ts`, name: nameOf(module, def, `the definition of ${def.kind}`) },
    };
  }
  for (const [name, declaration] of Object.entries(sources.functions)) {
    subjects[`function:${name}`] = { symbol: { file: "provider/functions/invokes.ts", name } };
    if (declaration.args)
      subjects[`function:${name}:args`] = { type: `z.input<(typeof fn.FUNCTIONS)['${name}']['args']>` };
    subjects[`function:${name}:result`] = { type: `z.output<(typeof fn.FUNCTIONS)['${name}']['result']>` };
  }
  return { subjects, imports };
}

/** The package schema, as an object. */
function packageSchema(root) {
  const { packageSchema: generate } = built(root, "adapters/plugin/schema/package");
  const { PACKAGE_SOURCES } = built(root, "adapters/plugin/schema/sources");
  const index = exportsIndex(root);
  const docs = docReader({
    root,
    ...subjectsOf(root, PACKAGE_SOURCES),
    exported: (value) => index.get(value),
  });
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  return generate(PACKAGE_SOURCES, manifest, docs);
}

module.exports = { packageSchema };
