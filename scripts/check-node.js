#!/usr/bin/env node
// Prints one warning line when the running Node.js is not one that package.json's `engines`
// names (the LTS releases CI tests); `npm test` and `npm run demo` start with it. It never fails:
// an older Node.js may still work, the user is only told what is supported.
"use strict";
const path = require("path");

/**
 * Whether `version` (e.g. "v22.13.1") satisfies `range`, a `||` list of caret ranges such as
 * "^22.13.0 || ^24.0.0": same major, and at least the given minor and patch.
 */
function satisfies(version, range) {
  const parse = (v) => v.replace(/^[v^]/, "").split(".").map(Number);
  const [major, minor, patch] = parse(version);
  return range.split("||").some((alternative) => {
    const [wantMajor, wantMinor = 0, wantPatch = 0] = parse(alternative.trim());
    if (major !== wantMajor) return false;
    return minor > wantMinor || (minor === wantMinor && patch >= wantPatch);
  });
}

/** The warning for `version` against package.json's engines `range`, or "" when it is supported. */
function warning(version, range) {
  if (satisfies(version, range)) return "";
  const majors = range.split("||").map((alternative) => alternative.trim().replace(/^\^/, "").split(".")[0]);
  return (
    `pulumi-managed-db: Node.js ${version} is not supported; use Node.js ${majors.join(" or ")} ` +
    `(LTS, tested in CI; engines: ${range})`
  );
}

/** Writes the warning for the running Node.js to stderr, when there is one. */
function warnIfUnsupported() {
  const text = warning(process.version, require(path.join(__dirname, "..", "package.json")).engines.node);
  if (text) process.stderr.write(`${text}\n`);
}

module.exports = { satisfies, warning, warnIfUnsupported };

if (require.main === module) warnIfUnsupported();
