/**
 * The fault matrix (issue 26, docs/recovery.md#the-fault-matrix): one program with every resource
 * kind walks a life, step by step; at each step one mutating call fails in one way, the user runs
 * one follow-up, and the result is checked the way a user would: the API and the stack hold what
 * the program says, once each; every service that existed still exists, its data untouched; the
 * next preview plans nothing. This file holds the walk; the life, the failures and the follow-ups
 * are in `fault-matrix-life.ts`, the emulator in `fault-matrix-emulator.ts`, the checks in
 * `fault-matrix-checks.ts`, the table in `fault-matrix-report.ts`; `fault-matrix-suite.ts` chooses
 * which cells run.
 */
import * as fs from "fs";
import * as path from "path";
import { endStateProblems, errorLines, planLines, stackState } from "./fault-matrix-checks";
import { inventory, MatrixEmulator, type ServiceRecord } from "./fault-matrix-emulator";
import {
  ADOPT_REFUSAL,
  type CellResult,
  CHECKPOINT_CUT,
  type Failure,
  FOLLOW_UP_COMMANDS,
  type FollowUp,
  LOCKED,
  MATRIX_PROGRAM,
  type Spec,
  type Step,
} from "./fault-matrix-life";
import { ADOPT, killTree } from "./recovery-harness";
import { type Face, type LoggedCall, Workspace } from "./workspace";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stack of the matrix program against its own emulator, walking the life: tracks the program,
 * the services that must survive, and the final forks each retired service leaves.
 */
export class Walk {
  spec: Spec = { vpcs: {} };
  /** Services that existed and must still exist, with their creation time (their data's identity). */
  private alive = new Map<string, string>();
  /** Services deleted on purpose (replacements, removal): each leaves exactly one final fork. */
  private retired = new Set<string>();
  private ws!: Workspace;

  private constructor(
    readonly emulator: MatrixEmulator,
    private readonly dir: string,
  ) {}

  /**
   * A new emulator (state file in `dir`) and a workspace of the matrix program on `face` (the
   * dynamic classes, or the native plugin through its generated SDK).
   */
  static async create(dir: string, transitionMs = 40, face: Face = "dynamic"): Promise<Walk> {
    fs.mkdirSync(dir, { recursive: true });
    const walk = new Walk(new MatrixEmulator(path.join(dir, "emulator-state.json"), transitionMs), dir);
    await walk.emulator.start();
    walk.ws = Workspace.create(MATRIX_PROGRAM, walk.emulator.url, face);
    walk.writeSpec();
    await walk.ws.stack("matrix");
    return walk;
  }

  private writeSpec(): void {
    fs.writeFileSync(path.join(this.ws.dir, "spec.json"), JSON.stringify(this.spec, null, 2));
  }

  /** Runs `pulumi <args>`, never throwing: its exit code and output. */
  private async run(args: string[], env?: Record<string, string>): Promise<{ code: number; output: string }> {
    const result = await this.ws.pulumi(args, { allowFailure: true, env });
    return { code: result.code, output: `${result.stdout}\n${result.stderr}` };
  }

  /** Brings the stack to the program with plain `up`s (no fault), for setting up and repairing. */
  async settle(): Promise<string[]> {
    const problems: string[] = [];
    for (const step of FOLLOW_UP_COMMANDS.recovery) {
      const { code, output } = await this.run(step.args, step.env);
      if (code !== 0) problems.push(...errorLines(output));
    }
    return problems;
  }

  /** Remembers the services of the state as ones that must survive from now on. */
  private async remember(): Promise<void> {
    const state = stackState(this.ws);
    const services = await this.emulator.api<ServiceRecord[]>("GET", "/services");
    for (const r of state.resources.filter((x) => x.type === "Service")) {
      const record = services.find((s) => s.service_id === r.id);
      if (record) this.alive.set(r.id, record.created);
    }
  }

  /**
   * Starts over after a cell that did not converge: the emulator emptied, the stack removed and
   * made again, the program as it was before the step brought up without faults.
   */
  async rebuild(spec: Spec, problems: string[] = []): Promise<void> {
    const failed = (what: string) =>
      new Error(
        `could not rebuild the matrix stack after a cell with problems:\n${problems.join("\n")}\n${what}`,
      );
    await this.emulator.setFaults({});
    await this.run(["cancel", "--yes"]);
    await this.emulator.reset();
    const removed = await this.run(["stack", "rm", "--yes", "--force", "matrix"]);
    // A checkpoint the CLI cannot read (a killed run can leave its .attrs file empty) makes
    // `stack rm` fail too; the emulator is empty now, so the stack's files go by hand.
    if (removed.code !== 0) this.removeStackFiles();
    try {
      await this.ws.stack("matrix");
    } catch (error) {
      throw failed(`\`pulumi stack rm\` said: ${errorLines(removed.output).join(" | ")}\n${String(error)}`);
    }
    this.spec = spec;
    this.writeSpec();
    const { code, output } = await this.run(["up", "--yes", "--skip-preview"]);
    if (code !== 0) throw failed(output);
    this.alive.clear();
    this.retired.clear();
    await this.remember();
  }

  /** The file backend's files of the stack `matrix`: its checkpoint, backups and locks. */
  private removeStackFiles(): void {
    const backend = path.join(this.ws.backendFolder, ".pulumi");
    const folders = ["stacks", "locks", "locks/organization", "history", "backups"];
    for (const dir of folders.map((d) => path.join(backend, d, "mdb-fault-matrix")))
      for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
        if (entry === "matrix" || entry.startsWith("matrix."))
          fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }

  /** Without faults, brings the program to `spec` (the steps before a cell, in the cover). */
  async apply(spec: Spec): Promise<void> {
    this.spec = spec;
    this.writeSpec();
    const { code, output } = await this.run(["up", "--yes", "--skip-preview"]);
    if (code !== 0) throw new Error(`setting up the matrix stack failed:\n${output}`);
    await this.remember();
  }

  /**
   * One cell: the step's change, its call failing with `failure` during `pulumi up`, then
   * `followUp`; checks the end state. When the cell does not converge, the stack is rebuilt to the
   * step's program so that the walk goes on.
   */
  async cell(step: Step, failure: Failure, followUp: FollowUp): Promise<CellResult> {
    const started = Date.now();
    const before = this.spec;
    const stateBefore = stackState(this.ws);
    const serviceBefore = stateBefore.resources.find((r) => r.type === "Service")?.id;
    this.spec = step.change(before);
    this.writeSpec();
    const problems: string[] = [];
    let person: string | undefined;

    await this.emulator.clearRequests();
    const log: LoggedCall[] = [];
    const faulted = await this.faultedRun(step, failure, log);
    if (!faulted.reached)
      problems.push(
        `the faulted run never sent ${step.method} ${step.call}: ${errorLines(faulted.output).join(" | ")}`,
      );
    await this.emulator.setFaults({});
    // Every service the API holds now (the failed run's included) must outlive the follow-up,
    // but the one the step retires.
    for (const s of await this.emulator.api<ServiceRecord[]>("GET", "/services"))
      if (!s.forked_from?.service_id && !(step.retiresService && s.service_id === serviceBefore))
        this.alive.set(s.service_id, s.created);
    const said: string[] = [];

    for (const command of FOLLOW_UP_COMMANDS[followUp]) {
      const { code, output } = await this.run(command.args, command.env);
      said.push(
        ...output
          .split("\n")
          .filter((l) => /\[mdb\]/.test(l))
          .map((l) => `\`${command.args[0]}\`: ${l.trim()}`),
      );
      if (code === 0) continue;
      if (failure === "kill" && CHECKPOINT_CUT.test(output)) {
        // The documented outcome of a kill in the middle of a checkpoint write: the metadata
        // file beside the checkpoint left empty. The person deletes it, then recovers.
        person = "the kill left the checkpoint's .attrs file empty: deleted, then the documented recovery";
        this.ws.removeCutSidecars();
        const repaired = await this.settle();
        if (repaired.length) problems.push(`the documented recovery failed: ${repaired.join(" | ")}`);
        break;
      }
      if (failure === "kill" && LOCKED.test(output) && /pulumi cancel/.test(output)) {
        // The documented outcome: the killed run's lock. The person runs what the message names.
        person = "the stack is locked: pulumi cancel, then the documented recovery";
        const repaired = await this.settle();
        if (repaired.length) problems.push(`the documented recovery failed: ${repaired.join(" | ")}`);
        break;
      }
      if (command.env !== ADOPT && ADOPT_REFUSAL.test(output)) {
        // The documented outcome: a named record the failed run made but could not record.
        person = "refused to adopt a named record: MDB_ADOPT_EXISTING=true pulumi up";
        const adopted = await this.run(["up", "--yes", "--skip-preview"], ADOPT);
        if (adopted.code !== 0)
          problems.push(
            `MDB_ADOPT_EXISTING=true pulumi up failed: ${errorLines(adopted.output).join(" | ")}`,
          );
        break;
      }
      problems.push(`\`pulumi ${command.args.join(" ")}\` failed: ${errorLines(output).join(" | ")}`);
      break;
    }
    log.push(...(await this.emulator.requests()));

    if (step.retiresService && serviceBefore) {
      this.alive.delete(serviceBefore);
      this.retired.add(serviceBefore);
    }
    problems.push(...(await this.check(log)));
    if (problems.length) {
      if (said.length) problems.push(`the follow-up said: ${said.slice(0, 8).join(" | ")}`);
      const plan = await this.run(["preview", "--diff"]);
      problems.push(`next preview: ${planLines(plan.output).join(" | ") || "(no changes)"}`);
    }
    if (problems.length) await this.rebuild(this.spec, problems);
    else await this.remember();
    return {
      step,
      failure,
      followUp,
      passed: problems.length === 0,
      person,
      problems,
      seconds: (Date.now() - started) / 1000,
    };
  }

  /** The `pulumi up` during which the step's call fails with `failure`. */
  private async faultedRun(
    step: Step,
    failure: Failure,
    log: LoggedCall[],
  ): Promise<{ reached: boolean; output: string }> {
    const pattern = new RegExp(step.path);
    const isCall = (r: LoggedCall) => r.method === step.method && pattern.test(r.path);
    const rule = { method: step.method, path: step.path };
    switch (failure) {
      case "error":
        await this.emulator.setFaults({ rules: [{ ...rule, status: 500, count: step.create ? 1 : 7 }] });
        break;
      case "drop-before":
        await this.emulator.setFaults({ rules: [{ ...rule, drop: true }] });
        break;
      case "drop-after":
        await this.emulator.setFaults({ rules: [{ ...rule, drop: true, after: true }] });
        break;
      case "away":
        // The call is answered; every request after it finds no API until the process restarts.
        await this.emulator.setFaults({ rules: [{ ...rule, down: true }] });
        break;
      case "kill":
        // 200 ms more per request: the kill lands between the call and the provider's answer.
        await this.emulator.setFaults({ latencyMs: 200 });
        break;
    }
    const { child, output } = this.ws.spawn(["up", "--yes", "--skip-preview"]);
    const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    let done = false;
    void ended.then(() => (done = true));
    let reached = false;
    for (;;) {
      const requests = await this.emulator.requests();
      if (requests.some(isCall)) {
        reached = true;
        if (failure === "kill") {
          killTree(child.pid as number, "SIGKILL");
        } else if (failure === "away") {
          log.push(...requests);
          await this.emulator.kill();
        }
        break;
      }
      if (done) break;
      await sleep(20);
    }
    await ended;
    if (failure === "away" && reached) await this.emulator.start();
    else if (failure !== "away") log.push(...(await this.emulator.requests()));
    return { reached, output: output() };
  }
  /** What is wrong with the end state, compared with the program: nothing when it converged. */
  private async check(log: LoggedCall[]): Promise<string[]> {
    const problems = endStateProblems({
      spec: this.spec,
      state: stackState(this.ws),
      api: await inventory(this.emulator),
      alive: this.alive,
      retired: this.retired,
      log,
      passwordHash: (id) => this.emulator.passwordHash(id),
    });
    if (!problems.length) {
      const preview = await this.run(["preview", "--expect-no-changes"]);
      if (preview.code !== 0) problems.push(`the next preview plans changes`);
    }
    return problems;
  }

  /** `pulumi destroy`; then the API holds exactly the final forks, one per retired service. */
  async destroy(): Promise<string[]> {
    const problems: string[] = [];
    const serviceId = stackState(this.ws).resources.find((r) => r.type === "Service")?.id;
    if (serviceId) this.retired.add(serviceId);
    const { code, output } = await this.run(["destroy", "--yes", "--skip-preview"]);
    if (code !== 0) problems.push(`destroy failed: ${errorLines(output).join(" | ")}`);
    const state = stackState(this.ws);
    if (state.resources.length)
      problems.push(`destroy left ${state.resources.map((r) => r.name).join(", ")} in the state`);
    const api = await inventory(this.emulator);
    const left = [
      ...api.services
        .filter((s) => !this.retired.has(s.forked_from?.service_id as string))
        .map((s) => s.name),
      ...api.vpcs.map((v) => v.name),
      ...api.peerings.map((p) => p.id),
    ];
    if (left.length) problems.push(`destroy left ${left.join(", ")} in the API`);
    return problems;
  }

  /** Stops the emulator and removes the workspace. */
  async close(): Promise<void> {
    await this.emulator.kill();
    this.ws.remove();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
