/**
 * A Go program on the native plugin `mdb` (issue 30): test/e2e/programs/go, run by the real Pulumi
 * CLI and the Go language host scripts/ensure-pulumi builds (tools/langhosts/pulumi-language-go),
 * against the emulator, through the Go SDK `sdkgen -language go` generates from the packed
 * package's schema. The host builds the program with `go build` against Pulumi's Go SDK from the Go
 * module proxy, with the committed go.mod and go.sum (-mod=readonly: nothing is resolved) and
 * scripts/ensure-pulumi's build flags, so the build cache its builds filled is reused. It creates a
 * VPC, a service in it, a read replica set and a ProductionDatabase (the plugin's Construct) and
 * reads two functions; a second preview is clean; a size change is an in-place update made by the
 * resize call; destroy leaves the emulator empty. Without go the file fails, saying so.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { expectNativeState, laterSteps, useLanguageStack } from "./language-steps";

// The first run compiles Pulumi's Go SDK when the build cache does not hold it yet.
jest.setTimeout(420_000);

const PROGRAM = path.resolve(__dirname, "programs/go");
const PASSWORD = "go-Db-Password-7731";

beforeAll(() => {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    throw new Error("the Go e2e needs go on PATH (the Go language host builds the program with it)");
  }
  // The go command the language host runs reads these from the CLI's environment.
  Object.assign(process.env, {
    CGO_ENABLED: "0",
    GOWORK: "off",
    GOFLAGS: "-trimpath -buildvcs=false -mod=readonly",
  });
});

const stack = useLanguageStack(PROGRAM, PASSWORD, (ws) => {
  const bin = process.env.MDB_E2E_PULUMI_BIN;
  const work = process.env.MDB_E2E_WORK;
  if (!bin || !work) throw new Error("the e2e global setup did not run (test/e2e/setup.ts)");
  const sdk = path.join(ws.dir, "sdk");
  execFileSync(
    path.join(bin, "sdkgen"),
    ["-language", "go", "-schema", path.join(work, "package", "plugin", "schema.json"), "-out", sdk],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  fs.writeFileSync(path.join(sdk, "go.mod"), "module example.com/pulumi-mdb/sdk/go\n\ngo 1.25\n");
});

/** What the program exports. */
interface Outputs {
  vpcId: string;
  serviceId: string;
  connectionUri: string;
  replicaSetId: string;
  foundStatus: string;
  foundCpuMillis: number;
  serviceCount: number;
  prodServiceId: string;
  prodConnectionUri: string;
}

describe("a Go program on the plugin", () => {
  it("the generated SDK has the resources, the component and the functions", () => {
    expect(fs.readdirSync(path.join(stack().ws.dir, "sdk", "mdb"))).toEqual(
      expect.arrayContaining(["service.go", "productionDatabase.go", "getService.go", "pulumiTypes.go"]),
    );
  });

  it("up creates the VPC, the service in it, its replica set and the component's resources", async () => {
    const { ws, emulator } = stack();
    await ws.up();
    const outputs = (await ws.outputs()) as unknown as Outputs;
    expect(outputs.vpcId).toMatch(/^vpc-/);
    expect(outputs.replicaSetId).toMatch(/^rrs-/);
    expect(outputs.foundStatus).toBe("READY");
    expect(outputs.foundCpuMillis).toBe(1000);
    expect(outputs.serviceCount).toBe(2);
    expect(outputs.connectionUri).toBe("[secret]");
    expect(outputs.prodConnectionUri).toBe("[secret]");
    const secrets = (await ws.outputs(true)) as unknown as Outputs;
    expect(secrets.connectionUri).toMatch(/^postgres:\/\/.+@.+:5432\//);

    const inventory = await emulator.inventory();
    expect(inventory.services.sort()).toEqual([outputs.serviceId, outputs.prodServiceId].sort());
    expect(inventory.vpcs).toHaveLength(2);
    expect(inventory.vpcs).toContain(outputs.vpcId);
    expect(inventory.replicaSets).toContain(outputs.replicaSetId);
    await expectNativeState(ws, PASSWORD);
  });

  laterSteps(stack, (outputs) => {
    expect((outputs as unknown as Outputs).foundCpuMillis).toBe(2000);
  });
});
