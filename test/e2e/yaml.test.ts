/**
 * A Pulumi YAML program on the native plugin `mdb` (issue 30): test/e2e/programs/yaml, run by the
 * real Pulumi CLI and the YAML language host scripts/ensure-pulumi builds, against the emulator.
 * No SDK: the program names the types (`mdb:Vpc`, `mdb:index:Service`, `mdb:ReadReplicaSet`,
 * `mdb:ProductionDatabase`) and functions (`mdb:getVpc`, `mdb:index:getService`), and YAML reads
 * the plugin's schema for them. up creates everything, a second preview is clean, a size change
 * is an in-place update made by the resize call, and destroy leaves the emulator empty.
 */
import * as path from "path";
import { expectNativeState, laterSteps, useLanguageStack } from "./language-steps";

jest.setTimeout(180_000);

const PROGRAM = path.resolve(__dirname, "programs/yaml");
const PASSWORD = "yaml-Db-Password-2290";

const stack = useLanguageStack(PROGRAM, PASSWORD);

/** What the program exports. */
interface Outputs {
  vpcId: string;
  serviceId: string;
  serviceVpcId: string;
  connectionUri: string;
  replicaSetId: string;
  foundVpcCidr: string;
  foundCpuMillis: number;
  foundStatus: string;
  prodServiceId: string;
  prodReplicaSetIds: string[];
}

it("up creates the VPC, the service in it, its replica set and the component; functions read them", async () => {
  const { ws, emulator } = stack();
  await ws.up();
  const outputs = (await ws.outputs()) as unknown as Outputs;
  expect(outputs.vpcId).toMatch(/^vpc-/);
  expect(outputs.serviceVpcId).toBe(outputs.vpcId);
  expect(outputs.replicaSetId).toMatch(/^rrs-/);
  expect(outputs.connectionUri).toBe("[secret]");
  expect(outputs.foundVpcCidr).toBe("10.80.0.0/16");
  expect(outputs.foundCpuMillis).toBe(1000);
  expect(outputs.foundStatus).toBe("READY");
  expect(outputs.prodReplicaSetIds).toHaveLength(1);
  expect(((await ws.outputs(true)) as unknown as Outputs).connectionUri).toMatch(/^postgres:\/\//);
  const inventory = await emulator.inventory();
  expect(inventory.services.sort()).toEqual([outputs.serviceId, outputs.prodServiceId].sort());
  expect(inventory.vpcs).toHaveLength(2);
  expect(inventory.replicaSets.sort()).toEqual([outputs.replicaSetId, ...outputs.prodReplicaSetIds].sort());
  await expectNativeState(ws, PASSWORD);
});

laterSteps(stack, (outputs) => expect((outputs as unknown as Outputs).foundCpuMillis).toBe(2000));
