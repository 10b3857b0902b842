/**
 * Bad input fails at preview, naming the property (or the config key) and the rule, before
 * anything is created: a table of invalid inputs under the real Pulumi CLI, one program
 * (test/e2e/programs/invalid-inputs) and one stack. Rows that are independent share a preview
 * (one resource carrying each row's bad property; Pulumi prints one line per property), but each
 * row asserts its own line. After every command, the emulator's request log holds no mutating
 * request. Inputs only knowable at `up` (a value another resource produces) pass preview and
 * fail `up` with nothing created. On either face: the dynamic classes, or the native plugin's types
 * registered as any language's SDK registers them; each face's test file calls
 * {@link invalidInputsSuite}.
 */
import {
  EMULATOR_ORIGIN,
  EXISTING_SERVICE,
  IMPORT_OPTION,
  OTHER_REGION_VPC,
  RUNS,
  STOPPED_SERVICE,
  type Row,
  type Run,
} from "./invalid-inputs-table";
import { EmulatorProcess, type Face, Workspace } from "./workspace";
import { waitFor } from "../helpers/emulator";

/** `cpuMillis` -> `cpuMillis`, escaped for a pattern. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The `import` option in a refusal's advice on `face` (IMPORT_OPTION), as a pattern. */
const IMPORT_OPTION_ON: Record<Face, string> = {
  dynamic: '\\{ import: "\\S+" \\}',
  native:
    'import set to "\\S+" \\(import in TypeScript and YAML, import_ in Python, pulumi\\.Import in Go, ' +
    "ImportId in C#\\)",
};

/**
 * The line Pulumi prints for `row` of resource `name` on `face`. The plugin learns from the engine
 * which inputs the program gave as secrets, so it says "(secret)" after any of them, a misspelt
 * one too; the dynamic provider host unwraps secrets before the provider sees them, so there only
 * the field table's secret inputs are said to be.
 */
function expectedLine(name: string, row: Row, face: Face, secret: readonly string[] = []): RegExp {
  let rule = typeof row.rule === "string" ? escape(row.rule) : row.rule.source;
  rule = rule.replace(IMPORT_OPTION, IMPORT_OPTION_ON[face]);
  if (face === "native" && row.property && secret.includes(row.property) && !rule.startsWith("\\(secret\\)"))
    rule = `\\(secret\\) ${rule}`;
  const where = !row.property
    ? " has a problem: "
    : row.printed === "resource"
      ? ` has a problem: property ${escape(row.property)} `
      : `: property ${escape(row.property)} value .* has a problem: `;
  return new RegExp(`resource '${escape(name)}'${where}${rule}`);
}

/** What one run printed, how its commands ended, and what the API saw. */
interface Outcome {
  preview: number;
  up?: number;
  output: string;
  mutating: string[];
  services: number;
}

/** The tests, on `face`. */
export function invalidInputsSuite(face: Face): void {
  let emulator: EmulatorProcess;
  let ws: Workspace;
  let otherRegionVpc: string;
  let existingService: string;
  let stoppedService: string;

  beforeAll(async () => {
    emulator = await EmulatorProcess.start();
    ws = Workspace.create(`${__dirname}/programs/invalid-inputs`, emulator.url, face);
    await ws.stack("dev");
    const vpc = await emulator.api<{ id: string }>("POST", "/vpcs", {
      name: "elsewhere",
      cidr: "10.30.0.0/16",
      region_code: "eu-west-1",
    });
    otherRegionVpc = vpc.id;
    const service = await emulator.api<{ service_id: string }>("POST", "/services", {
      name: "existing",
      region_code: "us-east-1",
      cpu_millis: "500",
      memory_gbs: "2",
    });
    existingService = service.service_id;
    const body = { name: "stopped", region_code: "us-east-1", cpu_millis: "500", memory_gbs: "2" };
    stoppedService = (await emulator.api<{ service_id: string }>("POST", "/services", body)).service_id;
    const status = async () =>
      (await emulator.api<{ status: string }>("GET", `/services/${stoppedService}`)).status;
    await waitFor(status, (s) => s === "READY", { what: "the service to be READY" });
    await emulator.api("POST", `/services/${stoppedService}/stop`);
    await waitFor(status, (s) => s === "PAUSED", { what: "the service to be PAUSED" });
  });

  afterAll(async () => {
    await emulator?.stop();
    ws?.remove();
  });

  async function execute(run: Run, index: number): Promise<Outcome> {
    const name = `case${index + 1}`;
    const args = Object.assign({}, ...run.rows.map((r) => r.args ?? {})) as Record<string, unknown>;
    const stands: Record<string, string> = {
      [OTHER_REGION_VPC]: otherRegionVpc,
      [EXISTING_SERVICE]: existingService,
      [STOPPED_SERVICE]: stoppedService,
    };
    // A placeholder stands for its id at the top level and one level down (`forkFrom.serviceId`).
    const stand = (value: unknown): unknown => (typeof value === "string" ? (stands[value] ?? value) : value);
    for (const [key, value] of Object.entries(args))
      args[key] =
        value && typeof value === "object" && !Array.isArray(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stand(v)]))
          : stand(value);
    const declared = [
      ...(run.twice ? [{ kind: run.kind, name: `${name}-first`, args }] : []),
      { kind: run.kind, name, args, late: run.late, secret: run.secret },
    ];
    const env: Record<string, string | undefined> = {
      ...run.env,
      MDB_E2E_CASE: JSON.stringify(declared),
      MDB_E2E_FACE: face,
    };
    const origin = new URL(emulator.url).origin;
    for (const [key, value] of Object.entries(env)) env[key] = value?.replace(EMULATOR_ORIGIN, origin);
    for (const [key, value] of Object.entries(run.config ?? {})) await ws.config(key, value);
    await emulator.clearCalls();
    try {
      const preview = await ws.pulumi(["preview"], { allowFailure: true, env });
      const up = run.late
        ? await ws.pulumi(["up", "--yes", "--skip-preview"], { allowFailure: true, env })
        : undefined;
      return {
        preview: preview.code,
        up: up?.code,
        output: [preview.stdout, preview.stderr, up?.stdout, up?.stderr].join("\n"),
        mutating: await emulator.calls(),
        services: (await emulator.inventory()).services.filter(
          (id) => id !== existingService && id !== stoppedService,
        ).length,
      };
    } finally {
      for (const key of Object.keys(run.config ?? {})) await ws.removeConfig(key);
    }
  }

  const rowCount = RUNS.reduce((n, run) => n + run.rows.length, 0);
  const upRows = RUNS.filter((run) => run.late).reduce((n, run) => n + run.rows.length, 0);

  it(`the table holds ${rowCount} invalid inputs, ${upRows} of them knowable only at up`, () => {
    expect(rowCount).toBeGreaterThanOrEqual(40);
  });

  describe.each(RUNS.map((run, index) => [run.title, run, index] as const))("%s", (_title, run, index) => {
    let outcome: Outcome;
    beforeAll(async () => {
      outcome = await execute(run, index);
    });

    it.each(run.rows.map((row) => [row.property ?? "(configuration)", row] as const))(
      "%s: named with its rule, nothing changed in the API",
      (_property, row) => {
        if (run.late) {
          // Unknown at preview: it passes; up fails before anything is created.
          expect(outcome.preview).toBe(0);
          expect(outcome.up).not.toBe(0);
          expect(outcome.services).toBe(0);
        } else {
          expect(outcome.preview).not.toBe(0);
        }
        // Of twins, the one checked second fails, naming the other: the engine checks them in
        // either order.
        const names = [`case${index + 1}`, ...(run.twice ? [`case${index + 1}-first`] : [])];
        const lines = names.map((name) => expectedLine(name, row, face, run.secret));
        expect(lines.filter((line) => line.test(outcome.output))).toHaveLength(1);
        // An object's value is never printed beside its failure (as a Go map: `{map[serviceId:...]}`).
        expect(outcome.output).not.toContain("map[");
        expect(outcome.mutating).toEqual([]);
      },
    );

    if (run.secret)
      it("no output of preview or up shows a secret value", () => {
        const values = run.secret!.map((key) =>
          String(run.rows.find((r) => r.args?.[key] !== undefined)?.args?.[key]),
        );
        for (const value of [...values, ...(run.secretForms ?? [])])
          expect(outcome.output).not.toContain(value);
        // The command ran and said something, so the check above had text to look in.
        expect(outcome.output).toMatch(/has a problem: property password \(secret\)/);
      });
  });
}
