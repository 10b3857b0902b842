/**
 * A Python program on the native plugin `mdb` (issue 30): test/e2e/programs/python, run by the
 * real Pulumi CLI and its Python language host (tools/langhosts/pulumi-language-python) against the
 * emulator, through the plugin's Python SDK generated from the packed package's schema and
 * installed with `pulumi` from PyPI in a cached virtualenv (python-env.ts). It creates a VPC, a
 * service in it, a read replica set, a ProductionDatabase (the plugin's Construct) and reads two
 * functions; a second preview is clean; a size change is an in-place update made by the resize
 * call; destroy leaves the emulator empty. The SDK's mocks test (programs/python-sdk) runs in the
 * same virtualenv. Without python3 and its venv module the file fails, saying what to install.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { PythonEnv, havePython, pythonEnv } from "./python-env";
import { expectNativeState, laterSteps, useLanguageStack } from "./language-steps";

jest.setTimeout(240_000);

const PROGRAM = path.resolve(__dirname, "programs/python");
const MOCKS_TEST = path.resolve(__dirname, "programs/python-sdk");
const PASSWORD = "py-Db-Password-4410";

let env: PythonEnv;

beforeAll(() => {
  if (!havePython())
    throw new Error(
      "the Python e2e needs python3 with its venv and ensurepip modules (Debian: apt install python3-venv)",
    );
  const started = Date.now();
  env = pythonEnv();
  process.stderr.write(
    `python e2e: virtualenv ${env.built ? "made" : "cached"} in ${Date.now() - started} ms (${env.venv})\n`,
  );
});

const stack = useLanguageStack(PROGRAM, PASSWORD, (ws) =>
  fs.symlinkSync(env.venv, path.join(ws.dir, "venv"), "dir"),
);

/** What the program exports. */
interface Outputs {
  vpcId: string;
  serviceId: string;
  serviceVpcId: string;
  connectionUri: string;
  replicaSetId: string;
  replicaStatus: string;
  foundVpcName: string;
  foundVpcCidr: string;
  foundServiceSize: [number, number];
  listedServices: Array<[string, number]>;
  prodServiceId: string;
  prodVpcId: string;
  prodReplicaSetIds: string[];
  prodConnectionUri: string;
}

describe("a Python program on the plugin", () => {
  it("up creates the VPC, the service in it, its replica set and the component's resources", async () => {
    const { ws, emulator } = stack();
    await ws.up();
    const outputs = (await ws.outputs()) as unknown as Outputs;
    expect(outputs.vpcId).toMatch(/^vpc-/);
    expect(outputs.serviceVpcId).toBe(outputs.vpcId);
    expect(outputs.replicaSetId).toMatch(/^rrs-/);
    expect(outputs.replicaStatus).toBe("active");
    expect(outputs.foundVpcCidr).toBe("10.70.0.0/16");
    expect(outputs.foundVpcName).toEqual(expect.any(String));
    // getService from Python: a size field of one type (it failed Python's isinstance check as a union).
    expect(outputs.foundServiceSize).toEqual([1000, 4]);
    expect(outputs.connectionUri).toBe("[secret]");
    expect(outputs.prodConnectionUri).toBe("[secret]");
    expect(outputs.prodReplicaSetIds).toHaveLength(1);
    expect(outputs.listedServices).toEqual(
      [
        [outputs.serviceId, 1000],
        [outputs.prodServiceId, 1000],
      ].sort(),
    );
    const secrets = (await ws.outputs(true)) as unknown as Outputs;
    expect(secrets.connectionUri).toMatch(/^postgres:\/\/.+@.+:5432\//);
    expect(secrets.prodConnectionUri).toMatch(/^postgres:\/\//);

    const inventory = await emulator.inventory();
    expect(inventory.services.sort()).toEqual([outputs.serviceId, outputs.prodServiceId].sort());
    expect(inventory.vpcs.sort()).toEqual([outputs.vpcId, outputs.prodVpcId].sort());
    expect(inventory.replicaSets.sort()).toEqual([outputs.replicaSetId, ...outputs.prodReplicaSetIds].sort());
    await expectNativeState(ws, PASSWORD);
  });

  laterSteps(stack, (outputs) => {
    const { listedServices, serviceId, foundServiceSize } = outputs as unknown as Outputs;
    expect(listedServices).toContainEqual([serviceId, 2000]);
    expect(foundServiceSize).toEqual([2000, 4]);
  });
});

describe("the Python SDK under Pulumi's mocks", () => {
  it("passes test_mdb_sdk.py: names, secrets, the component, functions and config", async () => {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        env.python,
        ["-m", "unittest", "-v", "test_mdb_sdk"],
        { cwd: MOCKS_TEST, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    expect({ code, tail: output.slice(-2000) }).toEqual({ code: 0, tail: expect.stringMatching(/\nOK/) });
    expect(output).toMatch(/^Ran 7 tests/m);
    expect(output).not.toContain("expected failure");
  });
});
