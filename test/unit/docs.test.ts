/**
 * What follows from the declarations (README's generated tables, docs/resources.md and the
 * plugin's package schema plugin/schema.json) is what `npm run docs` writes from the current
 * field tables, function, component and configuration declarations and their doc comments: a
 * changed row (or doc comment) without regenerated files fails here, naming the file.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { specOf } from "../../provider/kit/spec";
import { REGISTRY } from "../../provider/resources/registry";

const { rowDocs } = require("../../scripts/docs") as { rowDocs(file: string): Record<string, string> };
const root = path.resolve(__dirname, "..", "..");

beforeAll(() => {
  if (!fs.existsSync(path.join(root, "dist", "provider", "resources", "registry.js")))
    throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
});

it("README.md, docs/resources.md and plugin/schema.json hold what `npm run docs` writes", () => {
  // A child process, as a contributor runs it (prettier, which formats the tables, loads its
  // plugins with dynamic imports that jest's module system refuses).
  const run = spawnSync(process.execPath, [path.join(root, "scripts", "docs.js"), "--check"], {
    cwd: root,
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
});

it.each(Object.entries(REGISTRY))(
  "every input and output of %s has a doc comment and a row in docs/resources.md",
  (kind, entry) => {
    const docs = rowDocs(path.join(root, "provider", "resources", kind, "fields.ts"));
    const spec = specOf(entry.definition);
    const page = fs.readFileSync(path.join(root, "docs", "resources.md"), "utf8");
    for (const row of Object.keys(entry.definition.fields)) {
      expect([row, docs[row]]).toEqual([row, expect.stringMatching(/\w/)]);
      expect(page).toContain(`| \`${row}\``);
    }
    expect(spec.inputNames.length).toBeGreaterThan(0);
  },
);
