/**
 * Global setup of the end-to-end tests: gets the Pulumi CLI (scripts/ensure-pulumi, which
 * fails with the reason when it cannot), builds when the sources are newer than dist/
 * (scripts/build-if-needed.js), packs this package with `npm pack` and installs
 * the tarball, as a user would, into one dependency folder the example workspaces share, with
 * the TypeScript SDK of the native plugin (`@pulumi/mdb`) generated from the installed package's
 * schema, as `pulumi package add` makes it, for the suites that run on the native types. Hands the
 * results to the test files through environment variables; test/e2e/teardown.ts removes the folder.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const root = path.resolve(__dirname, "../..");

function sh(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

export default async function setup(): Promise<void> {
  const started = Date.now();
  const bin = sh(path.join(root, "scripts/ensure-pulumi"), [], root).trim().split("\n").pop() as string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-e2e-"));
  // Built once: `npm pack`'s prepack would build again what `npm test`'s checks just built.
  sh("node", [path.join(root, "scripts/build-if-needed.js")], root);
  const tarball = sh("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], root)
    .trim()
    .split("\n")
    .pop() as string;
  const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"));
  const version = (name: string) => lock.packages[`node_modules/${name}`].version as string;
  const deps = path.join(work, "deps");
  fs.mkdirSync(deps);
  // The native plugin's SDK, from the schema the tarball ships (what `package add` reads from it),
  // inside the folder as `package add` puts it, so its compile finds the folder's dependencies.
  const sdk = path.join(deps, "sdks", "mdb");
  execFileSync("tar", ["-xzf", path.join(work, tarball), "-C", work, "package/plugin/schema.json"]);
  const schema = path.join(work, "package", "plugin", "schema.json");
  sh(path.join(bin, "sdkgen"), ["-language", "nodejs", "-local", "-schema", schema, "-out", sdk], root);
  fs.writeFileSync(
    path.join(deps, "package.json"),
    JSON.stringify({
      name: "mdb-e2e-deps",
      private: true,
      dependencies: {
        "pulumi-managed-db": `file:${path.join(work, tarball)}`,
        "@pulumi/mdb": "file:sdks/mdb",
        "@pulumi/pulumi": version("@pulumi/pulumi"),
        typescript: version("typescript"),
        "@types/node": version("@types/node"),
      },
    }),
  );
  sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], deps);
  process.env.MDB_E2E_PULUMI_BIN = bin;
  process.env.MDB_E2E_WORK = work;
  process.env.MDB_E2E_NODE_MODULES = path.join(deps, "node_modules");
  process.stderr.write(
    `\ne2e setup: Pulumi CLI in ${bin}; package installed from ${tarball} in ${work} (${Date.now() - started} ms)\n`,
  );
}
