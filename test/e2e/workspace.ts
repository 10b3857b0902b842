/**
 * One example program in a temporary folder, run with the real Pulumi CLI against an
 * emulator started with its `mdb-emulator` command: a local `file://` backend, a passphrase
 * secrets provider, and nothing beyond 127.0.0.1.
 */
import { ChildProcess, execFile, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as readline from "readline";

const root = path.resolve(__dirname, "../..");

/** Credentials of the e2e emulator; the secret is distinctive so tests can look for it. */
export const E2E_KEYS = { publicKey: "e2e-public", secretKey: "e2e-SECRET-key-5d1c", projectId: "proj-e2e" };

/** What a Pulumi command printed, and how it ended. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A step of `pulumi preview --json`. */
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
   * `stateFile` keeps the emulator's records in that JSON file (`--state-file`).
   */
  static async start(transitionMs = 40, options: { stateFile?: string } = {}): Promise<EmulatorProcess> {
    const child = spawn(
      process.execPath,
      [
        path.join(root, "dist/emulator/cli.js"),
        "--port",
        "0",
        "--transition-ms",
        String(transitionMs),
        "--public-key",
        E2E_KEYS.publicKey,
        "--secret-key",
        E2E_KEYS.secretKey,
        "--project-id",
        E2E_KEYS.projectId,
        ...(options.stateFile ? ["--state-file", options.stateFile] : []),
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

  /** Stops the process. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    await exited;
  }
}

/** An example program copied to a temporary folder, with its own backend. */
export class Workspace {
  private constructor(
    /** The program's folder. */
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Copies `examples/<example>` (or the folder `example`, when absolute) to a fresh folder, links
   * the dependencies installed from the packed tarball, and points Pulumi at a local backend and
   * the emulator at `apiUrl`. The program, its dynamic providers and policy packs run on the
   * `node` running these tests, whatever else is on PATH.
   */
  static create(example: string, apiUrl: string): Workspace {
    const work = process.env.MDB_E2E_WORK;
    const nodeModules = process.env.MDB_E2E_NODE_MODULES;
    const bin = process.env.MDB_E2E_PULUMI_BIN;
    if (!work || !nodeModules || !bin)
      throw new Error("the e2e global setup did not run (test/e2e/setup.ts)");
    const source = path.isAbsolute(example) ? example : path.join(root, "examples", example);
    const dir = fs.mkdtempSync(path.join(work, `${path.basename(source)}-`));
    fs.cpSync(source, dir, { recursive: true });
    fs.symlinkSync(nodeModules, path.join(dir, "node_modules"), "dir");
    fs.mkdirSync(path.join(dir, ".state"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
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
    return new Workspace(dir, env);
  }

  /**
   * Runs `pulumi <args>`; throws with its output unless it exits 0 (or `allowFailure`). `env`
   * overrides variables for this command only (undefined removes one, e.g. `MDB_PUBLIC_KEY`).
   */
  pulumi(
    args: string[],
    options: { allowFailure?: boolean; env?: Record<string, string | undefined> } = {},
  ): Promise<CommandResult> {
    const env = { ...this.env, ...options.env };
    for (const [key, value] of Object.entries(options.env ?? {})) if (value === undefined) delete env[key];
    return new Promise((resolve, reject) => {
      execFile(
        "pulumi",
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
   * Starts `pulumi <args> --non-interactive` and returns the process, for tests that signal
   * it; its output is collected into the returned `output`.
   */
  spawn(args: string[]): { child: ChildProcess; output: () => string } {
    const child = spawn("pulumi", [...args, "--non-interactive"], { cwd: this.dir, env: this.env });
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
    return { child, output: () => text };
  }

  /** `pulumi stack init <stack>` (or select it when it exists). */
  async stack(name: string): Promise<void> {
    await this.pulumi(["stack", "select", "--create", name]);
  }

  /** `pulumi preview --json`: the steps, by resource name (the last part of the URN). */
  async preview(extra: string[] = []): Promise<Map<string, PreviewStep>> {
    const { stdout } = await this.pulumi(["preview", "--json", ...extra]);
    const parsed = JSON.parse(stdout) as { steps: PreviewStep[] };
    return new Map(parsed.steps.map((s) => [s.urn.split("::").pop() as string, s]));
  }

  /**
   * `pulumi preview --json`: how many resources (the stack included) each operation would
   * touch, e.g. `{ same: 4 }`. The steps of unchanged resources are left out of the JSON.
   */
  async changeSummary(extra: string[] = []): Promise<Record<string, number>> {
    const { stdout } = await this.pulumi(["preview", "--json", ...extra]);
    return (JSON.parse(stdout) as { changeSummary: Record<string, number> }).changeSummary;
  }

  /** `pulumi up --yes --skip-preview`. */
  up(extra: string[] = []): Promise<CommandResult> {
    return this.pulumi(["up", "--yes", "--skip-preview", ...extra]);
  }

  /** `pulumi config set <key> <value>` (`--secret` when asked). */
  async config(key: string, value: string, options: { secret?: boolean } = {}): Promise<void> {
    await this.pulumi(["config", "set", key, value, ...(options.secret ? ["--secret"] : [])]);
  }

  /** `pulumi stack output --json [--show-secrets]`. */
  async outputs(showSecrets = false): Promise<Record<string, unknown>> {
    const { stdout } = await this.pulumi([
      "stack",
      "output",
      "--json",
      ...(showSecrets ? ["--show-secrets"] : []),
    ]);
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  /** `pulumi stack export`, as text. */
  async exportState(): Promise<string> {
    return (await this.pulumi(["stack", "export"])).stdout;
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
