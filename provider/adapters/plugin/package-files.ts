/**
 * The files of the installed package the plugin reads: its `package.json` (the plugin's version
 * is the package's) and the package schema `plugin/schema.json` (generated from the field
 * tables, shipped in the package). Found by walking up from this module to the package's root,
 * the same from the sources (tests) and from `dist/`.
 */
import * as fs from "fs";
import * as path from "path";

/** The package's name, which marks its root. */
const PACKAGE_NAME = "pulumi-managed-db";

let root: string | undefined;

/** The package's root folder. */
export function packageRoot(): string {
  if (root) return root;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === PACKAGE_NAME)
      return (root = dir);
    if (path.dirname(dir) === dir)
      throw new Error(`cannot find the ${PACKAGE_NAME} package above ${__dirname}`);
  }
}

/** The package's version, which is the plugin's. */
export function packageVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")).version as string;
}

/** Where the package schema is: `plugin/schema.json` at the package's root. */
export function schemaPath(): string {
  return path.join(packageRoot(), "plugin", "schema.json");
}

/** The text of the package schema `file`; an error naming it when it cannot be read. */
export function schemaText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(
      `the package schema ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? error}); ` +
        `this installation of ${PACKAGE_NAME} is incomplete: install the package again`,
      { cause: error },
    );
  }
}
