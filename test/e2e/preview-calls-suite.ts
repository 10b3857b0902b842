/**
 * Previews that list the API calls, under the real Pulumi CLI: for every row of the README's
 * "What a change does" table, `pulumi preview` prints one `[mdb]` line for the changed
 * resource, and the calls it names are exactly the calls (method and path, in order) the
 * emulator then receives from `pulumi up`. Secrets never show in the line. On either face of the
 * package (the dynamic classes, or the native plugin, whose lines come under each resource through
 * the engine's log); each face's test file calls {@link previewCallsSuite}.
 */
import * as path from "path";
import { OPERATIONS, OPERATION_IDS, type OperationId } from "../../api/operations";
import { REGISTRY } from "../../provider/resources/registry";
import { EmulatorProcess, type Face, type LoggedCall, Workspace } from "./workspace";

const PASSWORD = "pc-Secret-Password-4410";

/** Method and path of each operation, as a pattern over the logged path. */
const ROUTES = OPERATION_IDS.map((id) => ({
  id,
  method: OPERATIONS[id].method,
  pattern: new RegExp(`^/public/api/v1${OPERATIONS[id].path.replace(/\{\w+\}/g, "[^/]+")}$`),
}));

/** The operation a logged request called. */
function operationOf(call: LoggedCall): OperationId {
  const route = ROUTES.find((r) => r.method === call.method && r.pattern.test(call.path));
  if (!route) throw new Error(`no operation of the API is ${call.method} ${call.path}`);
  return route.id;
}

/** The operations a preview line names, in the order it names them. */
function operationsIn(line: string): OperationId[] {
  const names = new RegExp(`\\b(${OPERATION_IDS.join("|")})\\b`, "g");
  return [...line.matchAll(names)].map((m) => m[1] as OperationId);
}

/** The `[mdb]` lines of a command's output, by resource name (each printed once per diff). */
function previewLines(output: string): Map<string, string> {
  const lines = new Map<string, string>();
  for (const match of output.matchAll(/\[mdb\] ([\w-]+): (.*)$/gm)) lines.set(match[1], match[2].trim());
  return lines;
}

/** One row of the README's table: the config that changes it and what `up` must call. */
interface Row {
  row: string;
  set: Array<[key: string, value: string, secret?: boolean]>;
  resource: string;
  op: "update" | "replace";
  calls: OperationId[];
}

const ROWS: Row[] = [
  {
    row: "Service cpuMillis",
    set: [["cpuMillis", "2000"]],
    resource: "db",
    op: "update",
    calls: ["resizeService"],
  },
  {
    row: "Service replicaCount",
    set: [["replicaCount", "1"]],
    resource: "db",
    op: "update",
    calls: ["setHA"],
  },
  {
    row: "Service environment",
    set: [["environment", "PROD"]],
    resource: "db",
    op: "update",
    calls: ["setServiceEnvironment"],
  },
  {
    row: "Service password",
    set: [["dbPassword", PASSWORD, true]],
    resource: "db",
    op: "update",
    calls: ["updatePassword"],
  },
  {
    row: "Service connectionPooler",
    set: [["connectionPooler", "false"]],
    resource: "db",
    op: "update",
    calls: ["disablePooler"],
  },
  {
    row: "Service vpcId",
    set: [["vpc", "b"]],
    resource: "db",
    op: "update",
    calls: ["detachFromVpc", "attachToVpc"],
  },
  {
    row: "Service paused (stop)",
    set: [["paused", "true"]],
    resource: "db",
    op: "update",
    calls: ["stopService"],
  },
  {
    row: "Service paused (start)",
    set: [["paused", "false"]],
    resource: "db",
    op: "update",
    calls: ["startService"],
  },
  {
    row: "Service serviceType (replace)",
    set: [["serviceType", "VECTOR"]],
    resource: "db",
    op: "replace",
    // The create carries size, HA count and environment; the VPC and the password follow it.
    calls: ["createService", "attachToVpc", "updatePassword", "deleteService"],
  },
  {
    row: "Service name",
    set: [["serviceName", "pc-db-2"]],
    resource: "db",
    op: "update",
    calls: ["renameService"],
  },
  {
    row: "ReadReplicaSet nodes",
    set: [["readsNodes", "2"]],
    resource: "reads",
    op: "update",
    calls: ["resizeReplicaSet"],
  },
  {
    row: "ReadReplicaSet environment, connectionPooler",
    set: [
      ["readsEnvironment", "PROD"],
      ["readsPooler", "true"],
    ],
    resource: "reads",
    op: "update",
    calls: ["enableReplicaSetPooler", "setReplicaSetEnvironment"],
  },
  {
    row: "ReadReplicaSet name (replace)",
    set: [["readsName", "pc-reads-2"]],
    resource: "reads",
    op: "replace",
    // A new set has no pooler and its service's environment (DEV): both follow the create.
    calls: ["createReplicaSet", "enableReplicaSetPooler", "setReplicaSetEnvironment", "deleteReplicaSet"],
  },
  {
    row: "Vpc name",
    set: [["vpcName", "pc-net-a-2"]],
    resource: "net-a",
    op: "update",
    calls: ["renameVpc"],
  },
  {
    row: "Vpc cidr (replace)",
    set: [["vpcCidr", "10.52.0.0/16"]],
    resource: "net-a",
    op: "replace",
    calls: ["createVpc", "deleteVpc"],
  },
  {
    row: "VpcPeering (replace, delete first)",
    set: [["peerAccountId", "444455556666"]],
    resource: "peer",
    op: "replace",
    calls: ["deletePeering", "createPeering"],
  },
];

/** The tests, on `face`. */
export function previewCallsSuite(face: Face): void {
  let emulator: EmulatorProcess;
  let ws: Workspace;

  beforeAll(async () => {
    emulator = await EmulatorProcess.start();
    ws = Workspace.create(path.join(__dirname, "programs/preview-calls"), emulator.url, face);
    await ws.stack("dev");
    await ws.up();
  });

  afterAll(async () => {
    await emulator?.stop();
    ws?.remove();
  });

  it.each(ROWS.map((r) => [r.row, r] as const))(
    "%s: the preview line names exactly the calls up then makes",
    async (_row, { set, resource, op, calls }) => {
      for (const [key, value, secret] of set) await ws.config(key, value, { secret });
      const { stdout, stderr } = await ws.pulumi(["preview"]);
      const preview = stdout + stderr;
      expect(preview).toMatch(new RegExp(`mdb:(index:)?\\w+ ${resource} ${op}\\b`));
      const lines = previewLines(preview);
      // One line, for the changed resource only.
      expect([...lines.keys()]).toEqual([resource]);
      const line = lines.get(resource) as string;
      expect(line).not.toContain(PASSWORD);
      if (op === "replace") expect(line).toMatch(/^replace \(.+: .+\)/);
      expect(operationsIn(line)).toEqual(calls);

      await emulator.clearCalls();
      await ws.up();
      const made = (await emulator.requests()).filter((c) => c.method !== "GET").map(operationOf);
      expect(made).toEqual(calls);
    },
  );

  // The README's table is generated from the field tables (npm run docs): each in-place row's
  // calls are among those its inputs' rows name, so the table and what up does say the same.
  it.each(ROWS.filter((r) => r.op === "update").map((r) => [r.row, r] as const))(
    "%s: the calls are among those its field table names",
    (_row, { row, calls }) => {
      const [typeName, ...rest] = row.replace(/\s*\(.*\)$/, "").split(" ");
      const def = Object.values(REGISTRY).find((e) => e.definition.typeName === typeName)?.definition;
      const named = rest
        .join(" ")
        .split(", ")
        .flatMap((input) => {
          const field = def?.fields[input];
          const change = field && "change" in field ? field.change : undefined;
          return change && "update" in change ? change.update : [];
        });
      for (const call of calls) expect(named).toContain(call);
    },
  );

  it("after the last row, a preview prints no line: nothing is left to do", async () => {
    const { stdout, stderr } = await ws.pulumi(["preview"]);
    expect(stdout).toMatch(/\b7 unchanged\b/);
    expect([...previewLines(stdout + stderr).keys()]).toEqual([]);
  });
}
