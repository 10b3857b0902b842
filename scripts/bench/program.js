// One generated benchmark program in its own folder (templates/package.ts for this package's
// Node.js variants, templates/<variant>.ts or .yaml for the others, with the number of units filled in), with the installed package (and the native plugin's generated SDK)
// linked as node_modules, a file:// backend and a passphrase secrets provider; runs Pulumi
// commands on it, timing each and sampling the peak memory of its provider process (the dynamic
// provider host, or the native plugin's server).
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const { DYNAMIC_PROVIDER, PLUGIN_SERVER, ProviderMemory } = require("./procmem");
const { KEYS } = require("./setup");

const templates = path.join(__dirname, "templates");

/**
 * CPU time, in ms, of this process's reaped children and their reaped descendants (cutime +
 * cstime of /proc/self/stat): around one command, the CPU its whole process tree used (the
 * CLI, the language host, the program, the provider host). Undefined off Linux.
 */
function childrenCpuMs() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * The variants compared: this package's dynamic resources, the same resources through the native
 * plugin `mdb` (from the package's native classes, and from its generated SDK), the same again
 * from a Pulumi YAML program (previews only: the
 * plugin's route without a Node.js program), do-nothing dynamic resources, the same-shape
 * control (do-nothing resources registering this package's property names), which only previews:
 * it tells which part of a preview's cost is Pulumi's for that many properties, and the floor
 * (as many component resources, with no provider and no properties), which only previews: what a
 * Node.js program of that many resources costs before any provider runs.
 */
const VARIANTS = ["mdb", "classes", "native", "yaml", "trivial", "shaped", "floor"];

/** The variants that run this package's resources against the emulator (API calls, waits). */
const PACKAGE_VARIANTS = new Set(["mdb", "classes", "native", "yaml"]);

/**
 * The Node.js variants of this package's resources: the module their program imports (the same
 * classes and arguments in each), and the prefix of their resources' names.
 */
const PACKAGE_PROGRAMS = {
  mdb: { module: "pulumi-managed-db", prefix: "bench" },
  classes: { module: "pulumi-managed-db/native", prefix: "bench-classes" },
  native: { module: "@pulumi/mdb", prefix: "bench-native" },
};

/** The variants that only preview. */
const PREVIEW_ONLY = new Set(["yaml", "shaped", "floor"]);

/** The variants whose resources the native plugin serves. */
const PLUGIN_VARIANTS = new Set(["classes", "native", "yaml"]);

/**
 * The variants that only preview in a `--ci` run, to keep it short: the generated SDK's route to
 * the plugin (its `up`s are the classes' route's, and e2e suites run it whole).
 */
const PREVIEW_ONLY_IN_CI = new Set([...PREVIEW_ONLY, "native"]);

/** The operations a variant runs: every one, or for the preview-only variants (of a `ci` run) only a preview. */
function runsOp(variant, op, ci = false) {
  return !(ci ? PREVIEW_ONLY_IN_CI : PREVIEW_ONLY).has(variant) || op === "preview";
}

/** What the command line of a variant's provider process contains (see procmem.js). */
function providerOf(variant) {
  return PLUGIN_VARIANTS.has(variant) ? PLUGIN_SERVER : DYNAMIC_PROVIDER;
}

/**
 * The Pulumi.yaml of the YAML variant, which holds the program: templates/yaml.yaml with its unit
 * block repeated `size / 4` times and the plugin folder `pluginDir` under `packages:`.
 */
function yamlProgram(size, pluginDir) {
  const template = fs.readFileSync(path.join(templates, "yaml.yaml"), "utf8");
  const [head, rest] = template.split("  # unit\n");
  const [unit, tail] = rest.split("  # end unit\n");
  const body = Array.from({ length: size / 4 }, (_, i) =>
    unit.replaceAll("__I__", String(i)).replaceAll("__OCTET__", String(i % 250)),
  ).join("");
  return (head + body + tail)
    .replace("__NAME__", `bench-yaml-${size}`)
    .replace("__PLUGIN__", JSON.stringify(pluginDir));
}

/**
 * The Pulumi.yaml of a program: a Node.js program, and for the plugin's variants the plugin
 * folder of the installed package under `packages:`, as a user of the plugin writes it.
 */
function projectFile(variant, size, lang, pluginDir) {
  return (
    `name: bench-${variant}-${size}\nmain: index.${lang}\n` +
    `runtime:\n  name: nodejs\n  options:\n    typescript: ${lang === "ts"}\n` +
    (PLUGIN_VARIANTS.has(variant) ? `packages:\n  mdb: ${JSON.stringify(pluginDir)}\n` : "")
  );
}

/** The environment of the Pulumi commands run in the program folder `dir`. */
function programEnv(dir, context) {
  return {
    ...process.env,
    ...context.extraEnv,
    PATH: `${context.bin}${path.delimiter}${process.env.PATH}`,
    PULUMI_HOME: path.join(context.work, ".pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, ".state")}`,
    PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
    MDB_API_URL: context.apiUrl,
    MDB_PUBLIC_KEY: KEYS.publicKey,
    MDB_SECRET_KEY: KEYS.secretKey,
    MDB_PROJECT_ID: KEYS.projectId,
  };
}

class Program {
  /**
   * Writes the program of `variant` with `size` resources into `work/<variant>-<size>`.
   * `lang` is `ts` (run through Pulumi's TypeScript support, as the examples are) or `js`
   * (the template transpiled here); the yaml variant is a Pulumi.yaml whatever `lang` says.
   * `context` holds the shared paths and the emulator URL.
   */
  constructor(variant, size, lang, context) {
    this.variant = variant;
    this.size = size;
    this.dir = path.join(context.work, `${variant}-${size}`);
    fs.mkdirSync(path.join(this.dir, ".state"), { recursive: true });
    const pluginDir = path.join(context.nodeModules, "pulumi-managed-db", "plugin");
    fs.symlinkSync(context.nodeModules, path.join(this.dir, "node_modules"), "dir");
    this.env = programEnv(this.dir, context);
    if (variant === "yaml") {
      fs.writeFileSync(path.join(this.dir, "Pulumi.yaml"), yamlProgram(size, pluginDir));
      return;
    }
    const program = PACKAGE_PROGRAMS[variant];
    const source = fs
      .readFileSync(path.join(templates, program ? "package.ts" : `${variant}.ts`), "utf8")
      .replace("__MODULE__", program?.module ?? "")
      .replaceAll("__PREFIX__", program?.prefix ?? "")
      .replace("__UNITS__", String(size / 4))
      .replace("__SHAPES__", JSON.stringify(context.shapes ?? {}));
    if (lang === "ts") {
      fs.writeFileSync(path.join(this.dir, "index.ts"), source);
      fs.copyFileSync(path.join(templates, "tsconfig.json"), path.join(this.dir, "tsconfig.json"));
    } else {
      const ts = require("typescript");
      const js = ts.transpileModule(source, {
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2020,
          esModuleInterop: true,
        },
      }).outputText;
      fs.writeFileSync(path.join(this.dir, "index.js"), js);
    }
    fs.writeFileSync(path.join(this.dir, "Pulumi.yaml"), projectFile(variant, size, lang, pluginDir));
  }

  /**
   * Runs `pulumi <args> --non-interactive`. Resolves with the wall time in ms, the CPU time of
   * its process tree in ms, the provider process's peak memory in bytes (undefined when none ran)
   * and the output; rejects with the output when the command fails.
   */
  pulumi(args) {
    return new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const cpuBefore = childrenCpuMs();
      const child = spawn("pulumi", [...args, "--non-interactive"], { cwd: this.dir, env: this.env });
      const memory = new ProviderMemory(child.pid, providerOf(this.variant));
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      child.once("error", reject);
      child.once("close", (code) => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const peak = memory.stop();
        const cpuAfter = childrenCpuMs();
        const cpuMs = cpuBefore === undefined ? undefined : cpuAfter - cpuBefore;
        if (code === 0) resolve({ ms, cpuMs, peak, output });
        else
          reject(
            new Error(`${this.variant}-${this.size}: pulumi ${args.join(" ")} exited ${code}\n${output}`),
          );
      });
    });
  }
}

module.exports = { Program, VARIANTS, PACKAGE_VARIANTS, runsOp, projectFile, providerOf, yamlProgram };
