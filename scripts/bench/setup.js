// What the bench needs before measuring: the Pulumi CLI (scripts/ensure-pulumi), this package
// packed with `npm pack` (which builds it) and installed from the tarball as a user installs it,
// the native plugin's Node.js SDK generated from the installed package's schema, and a started
// emulator with its admin API.
"use strict";
/* global fetch */
const { execFileSync, spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const { Buffer } = require("buffer");
const { URL } = require("url");
const { buildIfNeeded } = require("../build-if-needed");

const root = path.resolve(__dirname, "../..");

/** Credentials of the bench's emulator. */
const KEYS = { publicKey: "bench-public", secretKey: "bench-secret", projectId: "proj-bench" };

function sh(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/** Runs scripts/ensure-pulumi and returns the bin dir it prints last. */
function ensurePulumi() {
  return sh(path.join(root, "scripts/ensure-pulumi"), [], root).trim().split("\n").pop();
}

/**
 * Builds if needed, packs the package into `work` and installs the tarball with the locked
 * @pulumi/pulumi and TypeScript into `work/deps`; returns that node_modules folder.
 */
function installPackage(work) {
  buildIfNeeded();
  // The build is fresh, so `prepack` (which builds again) is skipped.
  const pack = ["pack", "--silent", "--ignore-scripts", "--pack-destination", work];
  const tarball = sh("npm", pack, root).trim().split("\n").pop();
  const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"));
  const version = (name) => lock.packages[`node_modules/${name}`].version;
  const deps = path.join(work, "deps");
  fs.mkdirSync(deps);
  fs.writeFileSync(
    path.join(deps, "package.json"),
    JSON.stringify({
      name: "mdb-bench-deps",
      private: true,
      dependencies: {
        "pulumi-managed-db": `file:${path.join(work, tarball)}`,
        "@pulumi/pulumi": version("@pulumi/pulumi"),
        typescript: version("typescript"),
        "@types/node": version("@types/node"),
      },
    }),
  );
  sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], deps);
  return path.join(deps, "node_modules");
}

/**
 * Generates the native plugin's Node.js SDK (`@pulumi/mdb`) from the schema the installed package
 * ships, with the CLI's generator (`sdkgen` in `bin`, as `pulumi package add` writes it), into
 * `work/sdk-mdb`, and installs it into the deps folder of `nodeModules` as a registry package
 * installs (packed, so it shares that folder's one `@pulumi/pulumi`; its install compiles it).
 */
function installSdk(work, bin, nodeModules) {
  const schema = path.join(nodeModules, "pulumi-managed-db", "plugin", "schema.json");
  const sdk = path.join(work, "sdk-mdb");
  sh(path.join(bin, "sdkgen"), ["-language", "nodejs", "-local", "-schema", schema, "-out", sdk], work);
  const install = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
  sh("npm", [...install, "--install-links", sdk], path.dirname(nodeModules));
}

/** A started `mdb-emulator` (dist/emulator/cli.js) and its admin API. */
class Emulator {
  constructor(child, url) {
    this.child = child;
    /** Base URL of the API. */
    this.url = url;
    this.origin = new URL(url).origin;
  }

  /** Starts the emulator on a free port with `transitionMs` per lifecycle step. */
  static async start(transitionMs) {
    const child = spawn(
      process.execPath,
      [
        path.join(root, "dist/emulator/cli.js"),
        ...["--port", "0", "--transition-ms", String(transitionMs)],
        ...["--public-key", KEYS.publicKey, "--secret-key", KEYS.secretKey, "--project-id", KEYS.projectId],
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    const url = await new Promise((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once("line", (line) => {
        const match = /^listening on (http:\/\/\S+)$/.exec(line);
        if (match) resolve(match[1]);
        else reject(new Error(`mdb-emulator: unexpected first line: ${line}`));
      });
      child.once("exit", (code) => reject(new Error(`mdb-emulator exited with ${code}`)));
    });
    return new Emulator(child, url);
  }

  async call(method, url) {
    const auth = Buffer.from(`${KEYS.publicKey}:${KEYS.secretKey}`).toString("base64");
    const response = await fetch(url, { method, headers: { Authorization: `Basic ${auth}` } });
    const text = await response.text();
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** The request log: `[{method, path, status, at}]`, `at` in epoch ms. */
  async requests() {
    const log = await this.call("GET", `${this.origin}/_emulator/requests`);
    return log.map((entry) => ({ ...entry, at: Date.parse(entry.at) }));
  }

  /** Empties the request log. */
  clearRequests() {
    return this.call("DELETE", `${this.origin}/_emulator/requests`);
  }

  /** The project's services, VPCs and their peerings (read through the API, after the log is read). */
  async inventory() {
    const project = `${this.url}/projects/${KEYS.projectId}`;
    const services = await this.call("GET", `${project}/services`);
    const vpcs = await this.call("GET", `${project}/vpcs`);
    const peerings = (
      await Promise.all(vpcs.map((v) => this.call("GET", `${project}/vpcs/${v.id}/peerings`)))
    ).flat();
    return { services, vpcs, peerings };
  }

  /** Stops the process. */
  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    await exited;
  }
}

/**
 * The shape of each resource kind of the package installed in `nodeModules`, for the
 * same-shape control program: the property names its class registers (inputs, hidden inputs
 * and outputs) and its secret outputs, keyed by kind (`service`, `vpc`, ...).
 */
function packageShapes(nodeModules) {
  const dist = path.join(nodeModules, "pulumi-managed-db", "dist", "provider");
  const { registration } = require(path.join(dist, "adapters", "dynamic", "register"));
  const { specOf } = require(path.join(dist, "kit", "spec"));
  const { REGISTRY } = require(path.join(dist, "resources", "registry"));
  const shapes = {};
  for (const entry of Object.values(REGISTRY)) {
    const spec = specOf(entry.definition);
    const { props, opts } = registration(spec, "shape", {}, undefined);
    shapes[spec.kind] = { names: Object.keys(props), secrets: opts.additionalSecretOutputs ?? [] };
  }
  return shapes;
}

module.exports = { KEYS, ensurePulumi, installPackage, installSdk, packageShapes, Emulator };
