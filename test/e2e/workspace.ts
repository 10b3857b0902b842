/**
 * One example program in a temporary folder, run with the real Pulumi CLI through Pulumi's
 * Automation API against an emulator started with its `mdb-emulator` command: a local `file://`
 * backend, a passphrase secrets provider, and nothing beyond 127.0.0.1.
 */
import { ChildProcess, execFile, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as readline from "readline";
import { LocalWorkspace, PulumiCommand, Stack } from "@pulumi/pulumi/automation";

const root = path.resolve(__dirname, "../..");

/** Credentials of the e2e emulator; the secret is distinctive so tests can look for it. */
export const E2E_KEYS = { publicKey: "e2e-public", secretKey: "e2e-SECRET-key-5d1c", projectId: "proj-e2e" };

/** What a Pulumi command printed, and how it ended. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A step of a preview, as the engine reports it (the fields `pulumi preview --json` shows). */
export interface PreviewStep {
  op: string;
  urn: string;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, unknown>;
}

/** An API call the emulator logged. */
export interface LoggedCall {
  method: string;
  path: string;
  status: number;
}

/** A started `mdb-emulator` process. */
export class EmulatorProcess {
  private constructor(
    private readonly child: ChildProcess,
    /** Base URL of the API. */
    readonly url: string,
  ) {}

  /**
   * Starts `node dist/emulator/cli.js` on a free port and waits for its listening line.
   * `stateFile` keeps the emulator's records in that JSON file (`--state-file`); `port` (default: a
   * free one) lets an emulator stopped with its state file come back at the same URL; `dialect` is
   * the words it speaks (`--dialect`, default seed), and `deprecatedFields: false` drops the vendor
   * dialect's deprecated aliases (`--no-deprecated-fields`); `databases` runs real servers
   * (`--databases`).
   */
  static async start(
    transitionMs = 40,
    options: {
      stateFile?: string;
      port?: number;
      databases?: boolean;
      dialect?: "seed" | "vendor";
      deprecatedFields?: boolean;
    } = {},
  ): Promise<EmulatorProcess> {
    const child = spawn(
      process.execPath,
      [
        path.join(root, "dist/emulator/cli.js"),
        "--port",
        String(options.port ?? 0),
        "--transition-ms",
        String(transitionMs),
        "--public-key",
        E2E_KEYS.publicKey,
        "--secret-key",
        E2E_KEYS.secretKey,
        "--project-id",
        E2E_KEYS.projectId,
        ...(options.stateFile ? ["--state-file", options.stateFile] : []),
        ...(options.databases ? ["--databases"] : []),
        ...(options.dialect ? ["--dialect", options.dialect] : []),
        ...(options.deprecatedFields === false ? ["--no-deprecated-fields"] : []),
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    const url = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once("line", (line) => {
        const match = /^listening on (http:\/\/\S+)$/.exec(line);
        if (match) resolve(match[1]);
        else reject(new Error(`unexpected first line: ${line}`));
      });
      child.once("exit", (code) => reject(new Error(`mdb-emulator exited with ${code}`)));
    });
    return new EmulatorProcess(child, url);
  }

  private async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const auth = Buffer.from(`${E2E_KEYS.publicKey}:${E2E_KEYS.secretKey}`).toString("base64");
    const response = await fetch(url, {
      method,
      headers: { Authorization: `Basic ${auth}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Calls the API: `path` relative to the project, e.g. `/services`. */
  api<T = unknown>(method: string, projectPath: string, body?: unknown): Promise<T> {
    return this.call<T>(method, `${this.url}/projects/${E2E_KEYS.projectId}${projectPath}`, body);
  }

  /** Non-GET API calls logged since the last {@link clearCalls}, ids replaced by `{id}`. */
  async calls(): Promise<string[]> {
    const log = await this.call<LoggedCall[]>("GET", `${new URL(this.url).origin}/_emulator/requests`);
    return log
      .filter((entry) => entry.method !== "GET")
      .map((entry) =>
        `${entry.method} ${entry.path}`
          .replace(/^(\w+) \/public\/api\/v1\/projects\/[^/]+/, "$1 ")
          .replace(/\/(services|replicaSets|vpcs|peerings)\/[^/]+/g, "/$1/{id}"),
      );
  }

  /** Empties the request log. */
  async clearCalls(): Promise<void> {
    await this.call("DELETE", `${new URL(this.url).origin}/_emulator/requests`);
  }

  /** Every API request logged since the last {@link clearCalls}, GETs and faulted ones included. */
  requests(): Promise<LoggedCall[]> {
    return this.call<LoggedCall[]>("GET", `${new URL(this.url).origin}/_emulator/requests`);
  }

  /** Drops every record, the request log and the faults (`POST /_emulator/reset`). */
  async reset(): Promise<void> {
    await this.call("POST", `${new URL(this.url).origin}/_emulator/reset`);
  }

  /** Sets the duration of each lifecycle step of actions accepted from now on (`PUT /_emulator/settings`). */
  async setTransitionMs(transitionMs: number): Promise<void> {
    await this.call("PUT", `${new URL(this.url).origin}/_emulator/settings`, { transitionMs });
  }

  /** Replaces the fault configuration (`PUT /_emulator/faults`; see emulator/README.md). */
  async setFaults(config: Record<string, unknown>): Promise<void> {
    await this.call("PUT", `${new URL(this.url).origin}/_emulator/faults`, config);
  }

  /** Everything the project holds: services, their replica sets, VPCs, their peerings. */
  async inventory(): Promise<{
    services: string[];
    replicaSets: string[];
    vpcs: string[];
    peerings: string[];
  }> {
    const services = await this.api<Array<{ service_id: string; read_replica_sets?: Array<{ id: string }> }>>(
      "GET",
      "/services",
    );
    const vpcs = await this.api<Array<{ id: string }>>("GET", "/vpcs");
    const peerings = (
      await Promise.all(vpcs.map((v) => this.api<Array<{ id: string }>>("GET", `/vpcs/${v.id}/peerings`)))
    ).flat();
    return {
      services: services.map((s) => s.service_id),
      replicaSets: services.flatMap((s) => (s.read_replica_sets ?? []).map((r) => r.id)),
      vpcs: vpcs.map((v) => v.id),
      peerings: peerings.map((p) => p.id),
    };
  }

  /** The emulator's process id. */
  get pid(): number {
    return this.child.pid!;
  }

  /** Stops the process with `signal` (SIGTERM by default); resolves with its exit code. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    // Already ended (a signal ends it with no exit code): no second "exit" to wait for.
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", (code) => resolve(code)));
    this.child.kill(signal);
    return exited;
  }
}

/**
 * Which face of the package a program runs on: the dynamic classes (`pulumi-managed-db`), or the
 * native plugin `mdb` through its generated SDK (`@pulumi/mdb`, the same classes and arguments).
 */
export type Face = "dynamic" | "native";

/** The type token of a resource kind (`Service`) in `face`, as previews and URNs show it. */
export function typeToken(face: Face, kind: string): string {
  return face === "native" ? `mdb:index:${kind}` : `pulumi-nodejs:dynamic/mdb:${kind}`;
}

/**
 * Turns a copied program of the dynamic classes into the same program on the native plugin: its
 * sources import the generated SDK instead of the package, and its Pulumi.yaml names the
 * installed package's plugin folder for `mdb` (what `pulumi package add` writes).
 */
function toNative(dir: string): void {
  for (const file of fs.readdirSync(dir).filter((f) => /\.(ts|js)$/.test(f))) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    fs.writeFileSync(
      path.join(dir, file),
      text.replace(/(from |require\()"pulumi-managed-db"/g, '$1"@pulumi/mdb"'),
    );
  }
  const project = path.join(dir, "Pulumi.yaml");
  const yaml = fs.readFileSync(project, "utf8");
  if (!/^packages:/m.test(yaml))
    fs.writeFileSync(
      project,
      `${yaml.trimEnd()}\npackages:\n  mdb: ./node_modules/pulumi-managed-db/plugin\n`,
    );
}

/** What `preview`, `changeSummary` and `up` may add: Pulumi's diff display and policy packs. */
export interface RunOptions {
  /** `--diff`: show the properties each step changes. */
  diff?: boolean;
  /** `--policy-pack` folders. */
  policyPacks?: string[];
  /** `--policy-pack-config` files, one per policy pack. */
  policyPackConfigs?: string[];
}

/** The Pulumi CLI that scripts/ensure-pulumi provided, as the Automation API runs it (one per run). */
let cli: Promise<PulumiCommand> | undefined;
function pulumiCommand(bin: string): Promise<PulumiCommand> {
  // The CLI may be older than the @pulumi/pulumi under test (tools/releases/*/README.md): its own
  // minimum-version rule still applies, only the "same release" expectation is left out.
  cli ??= PulumiCommand.get({ root: path.dirname(bin), skipVersionCheck: true });
  return cli;
}

/**
 * An example program copied to a temporary folder, with its own backend, driven through Pulumi's
 * Automation API (`LocalWorkspace`, a `file://` backend, passphrase secrets, `onOutput`). A few
 * things the Automation API does not do go through {@link Workspace.pulumi}: commands it has no
 * method for, runs with a variable removed from the environment, and {@link Workspace.spawn}.
 */
export class Workspace {
  private automation?: Promise<LocalWorkspace>;
  private selected?: Stack;

  private constructor(
    /** The program's folder. */
    readonly dir: string,
    private readonly env: Record<string, string>,
    private readonly bin: string,
  ) {}

  /**
   * Copies `examples/<example>` (or the folder `example`, when absolute) to a fresh folder, links
   * the dependencies installed from the packed tarball, and points Pulumi at a local backend and
   * the emulator at `apiUrl`. The program, its dynamic providers, the plugin and policy packs run
   * on the `node` running these tests, whatever else is on PATH. On the `native` face the program
   * uses the plugin's generated SDK instead of the dynamic classes (see {@link toNative}).
   */
  static create(example: string, apiUrl: string, face: Face = "dynamic"): Workspace {
    const work = process.env.MDB_E2E_WORK;
    const nodeModules = process.env.MDB_E2E_NODE_MODULES;
    const bin = process.env.MDB_E2E_PULUMI_BIN;
    if (!work || !nodeModules || !bin)
      throw new Error("the e2e global setup did not run (test/e2e/setup.ts)");
    const source = path.isAbsolute(example) ? example : path.join(root, "examples", example);
    const dir = fs.mkdtempSync(path.join(work, `${path.basename(source)}-`));
    fs.cpSync(source, dir, { recursive: true });
    if (face === "native") toNative(dir);
    fs.symlinkSync(nodeModules, path.join(dir, "node_modules"), "dir");
    fs.mkdirSync(path.join(dir, ".state"));
    const env: Record<string, string> = {
      // The Pulumi CLI, then this process's node: the language host and plugins take the first on PATH.
      PATH: [bin, path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
      PULUMI_HOME: path.join(dir, ".pulumi-home"),
      PULUMI_BACKEND_URL: `file://${path.join(dir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      NO_COLOR: "1",
      MDB_API_URL: apiUrl,
      MDB_PUBLIC_KEY: E2E_KEYS.publicKey,
      MDB_SECRET_KEY: E2E_KEYS.secretKey,
      MDB_PROJECT_ID: E2E_KEYS.projectId,
    };
    return new Workspace(dir, env, bin);
  }

  /** The Automation API's workspace of the folder, made on first use. */
  private workspace(): Promise<LocalWorkspace> {
    this.automation ??= pulumiCommand(this.bin).then((command) =>
      LocalWorkspace.create({
        workDir: this.dir,
        pulumiHome: this.env.PULUMI_HOME,
        envVars: this.env,
        pulumiCommand: command,
      }),
    );
    return this.automation;
  }

  /** The stack {@link stack} selected. */
  private get stackOf(): Stack {
    if (!this.selected) throw new Error("no stack selected: call stack(name) first");
    return this.selected;
  }

  /** Output lines as they come, on stderr when `MDB_E2E_PROGRESS` is set (jest shows nothing until a test ends). */
  private readonly onOutput = (text: string): void => {
    if (process.env.MDB_E2E_PROGRESS) process.stderr.write(text);
  };

  /**
   * Runs `pulumi <args>` with the same CLI and environment; throws with its output unless it exits
   * 0 (or `allowFailure`). `env` overrides variables for this command only (undefined removes one,
   * e.g. `MDB_PUBLIC_KEY`). For what the Automation API has no method for, or when a test needs a
   * failed command's exit code and output rather than an exception.
   */
  pulumi(
    args: string[],
    options: { allowFailure?: boolean; env?: Record<string, string | undefined> } = {},
  ): Promise<CommandResult> {
    const env: NodeJS.ProcessEnv = { ...process.env, ...this.env, ...options.env };
    for (const [key, value] of Object.entries(options.env ?? {})) if (value === undefined) delete env[key];
    return new Promise((resolve, reject) => {
      execFile(
        path.join(this.bin, "pulumi"),
        [...args, "--non-interactive"],
        { cwd: this.dir, env, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? ((error as { code?: number }).code ?? 1) : 0;
          const result = { code: typeof code === "number" ? code : 1, stdout, stderr };
          if (result.code !== 0 && !options.allowFailure) {
            reject(new Error(`pulumi ${args.join(" ")} exited ${result.code}\n${stdout}\n${stderr}`));
          } else resolve(result);
        },
      );
    });
  }

  /**
   * Starts `pulumi <args> --non-interactive` and returns the process, for tests that signal it
   * (the Automation API can only cancel a run, not kill it); its output is collected into `output`.
   */
  spawn(args: string[]): { child: ChildProcess; output: () => string } {
    const child = spawn(path.join(this.bin, "pulumi"), [...args, "--non-interactive"], {
      cwd: this.dir,
      env: { ...process.env, ...this.env },
    });
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
    return { child, output: () => text };
  }

  /** Creates the stack `name`, or selects it when it exists. */
  async stack(name: string): Promise<void> {
    this.selected = await Stack.createOrSelect(name, await this.workspace());
  }

  /**
   * `preview`: the steps, by resource name (the last part of the URN), as the engine reports them;
   * unchanged resources are left out, as in `pulumi preview --json`.
   */
  async preview(options: RunOptions = {}): Promise<Map<string, PreviewStep>> {
    const steps = new Map<string, PreviewStep>();
    await this.stackOf.preview({
      ...options,
      onOutput: this.onOutput,
      onEvent: (event) => {
        const step = event.resourcePreEvent?.metadata;
        // Providers' own steps are left out too, as `--json` does, and a replacement is its
        // "replace" step (the engine also reports its create-replacement and delete-replaced halves).
        if (!step || ["same", "create-replacement", "delete-replaced"].includes(step.op)) return;
        if (step.type.startsWith("pulumi:providers:")) return;
        steps.set(step.urn.split("::").pop() as string, {
          op: step.op,
          urn: step.urn,
          diffReasons: step.diffs,
          replaceReasons: step.keys,
          detailedDiff: step.detailedDiff,
        });
      },
    });
    return steps;
  }

  /**
   * `preview`: how many resources (the stack included) each operation would touch, e.g.
   * `{ same: 4 }`.
   */
  async changeSummary(options: RunOptions = {}): Promise<Record<string, number>> {
    const { changeSummary } = await this.stackOf.preview({ ...options, onOutput: this.onOutput });
    return changeSummary as Record<string, number>;
  }

  /** `up` without a preview (the Automation API's default); its output. */
  async up(options: RunOptions = {}): Promise<CommandResult> {
    const { stdout, stderr } = await this.stackOf.up({ ...options, onOutput: this.onOutput });
    return { code: 0, stdout, stderr };
  }

  /** `refresh` without a preview; its output. */
  async refresh(): Promise<CommandResult> {
    const { stdout, stderr } = await this.stackOf.refresh({ onOutput: this.onOutput });
    return { code: 0, stdout, stderr };
  }

  /** `destroy` without a preview; its output. */
  async destroy(): Promise<CommandResult> {
    const { stdout, stderr } = await this.stackOf.destroy({ onOutput: this.onOutput });
    return { code: 0, stdout, stderr };
  }

  /** Sets a config value of the stack (`secret` encrypts it with the passphrase). */
  async config(key: string, value: string, options: { secret?: boolean } = {}): Promise<void> {
    await this.stackOf.setConfig(key, { value, secret: options.secret ?? false });
  }

  /** Removes a config value of the stack. */
  async removeConfig(key: string): Promise<void> {
    await this.stackOf.removeConfig(key);
  }

  /** The stack's outputs; secret ones as `[secret]` unless `showSecrets`, as `pulumi stack output --json` shows them. */
  async outputs(showSecrets = false): Promise<Record<string, unknown>> {
    const outputs = await this.stackOf.outputs();
    return Object.fromEntries(
      Object.entries(outputs).map(([key, output]) => [
        key,
        output.secret && !showSecrets ? "[secret]" : output.value,
      ]),
    );
  }

  /**
   * The backend's folder (`file://` URL of every command's `PULUMI_BACKEND_URL`): what
   * docs/recovery.md calls `<folder>`.
   */
  get backendFolder(): string {
    return path.join(this.dir, ".state");
  }

  /**
   * When a kill cut a backend write short, deletes the empty metadata files (`*.attrs`) it left
   * beside the stack's files (every command then fails with `failed to load checkpoint: EOF`), as
   * docs/recovery.md tells a person to.
   */
  removeCutSidecars(): void {
    const root = path.join(this.backendFolder, ".pulumi");
    if (!fs.existsSync(root)) return;
    for (const file of fs
      .readdirSync(root, { recursive: true, encoding: "utf8" })
      .map((f) => path.join(root, f)))
      if (file.endsWith(".attrs") && fs.statSync(file).size === 0) fs.rmSync(file);
  }

  /**
   * `pulumi stack export`, as text: secrets stay encrypted, as in the state itself (the Automation
   * API's `exportStack` decrypts them, so it cannot show what the state holds).
   */
  async exportState(): Promise<string> {
    return (await this.pulumi(["stack", "export"])).stdout;
  }

  /** Replaces the stack's state with a `pulumi stack export` file (`importStack`). */
  async importState(file: string): Promise<void> {
    await this.stackOf.importStack(JSON.parse(fs.readFileSync(file, "utf8")));
  }

  /** Removes the folder. */
  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The operations of a preview, by resource name, leaving out the stack itself. */
export function operations(steps: Map<string, PreviewStep>): Record<string, string> {
  return Object.fromEntries(
    [...steps].filter(([, s]) => !s.urn.includes("pulumi:pulumi:Stack")).map(([name, s]) => [name, s.op]),
  );
}
