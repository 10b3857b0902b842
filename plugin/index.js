// The native Pulumi plugin `mdb` of pulumi-managed-db, as the Node.js language host runs it
// (RunPlugin requires this folder's main with the engine's address among the arguments): starts
// the package's provider server, built into ../dist. The engine runs ./pulumi-resource-mdb
// instead when it may execute it.
"use strict";
const fs = require("fs");
const path = require("path");

const main = path.join(__dirname, "..", "dist", "provider", "adapters", "plugin", "main.js");
if (!fs.existsSync(main)) {
  const message =
    `pulumi-managed-db: the plugin folder ${__dirname} has no build (${main} is missing); ` +
    `run \`npm run build\` in ${path.dirname(__dirname)}, or install the package from npm`;
  // The engine reads the first line of stdout as the plugin's port, and quotes it when it is not one.
  process.stdout.write(`${message}\n`);
  process.exit(1);
}
const plugin = require(main);
plugin.main(process.argv.slice(2)).catch(plugin.failedStart);
