#!/usr/bin/env node
// Prints the version of @pulumi/pulumi locked in package-lock.json: the Pulumi release whose CLI
// scripts/ensure-pulumi provides. Falls back to an exact pin in package.json for a checkout
// whose lock file is not written yet; prints nothing (exit 1) when neither has one.
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
  } catch {
    return {};
  }
};

const locked = read("package-lock.json").packages?.["node_modules/@pulumi/pulumi"]?.version;
const pkg = read("package.json");
const pinned = pkg.devDependencies?.["@pulumi/pulumi"] ?? pkg.dependencies?.["@pulumi/pulumi"];
const version = locked ?? pinned ?? "";
if (!/^\d+\.\d+\.\d+$/.test(version)) {
  process.stderr.write(
    `no exact @pulumi/pulumi version in package-lock.json or package.json (found '${version}'); run npm install\n`,
  );
  process.exit(1);
}
process.stdout.write(`${version}\n`);
