/**
 * A ProductionDatabase the dynamic classes made, moved to the plugin's component (a remote
 * component, as every language's SDK declares it) under the real Pulumi CLI, with no alias in the
 * program: the plugin gives each child its dynamic type token as an alias, so the preview
 * replaces, creates and deletes nothing, and `up` writes nothing to the API.
 */
import * as path from "path";
import { EmulatorProcess, Workspace, operations } from "./workspace";

jest.setTimeout(600_000);

let emulator: EmulatorProcess;
let ws: Workspace;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  ws = Workspace.create(path.join(__dirname, "programs/native"), emulator.url);
  await ws.stack("dev");
  await ws.config("face", "production-dynamic");
  await ws.up();
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

/** The type of each resource in the state, by its name. */
async function typesInState(): Promise<Record<string, string>> {
  const state = JSON.parse(await ws.exportState()) as {
    deployment: { resources: Array<{ urn: string; type: string }> };
  };
  return Object.fromEntries(
    state.deployment.resources
      .filter((r) => r.type.includes("mdb") && !r.type.startsWith("pulumi:providers:"))
      .map((r) => [r.urn.slice(r.urn.lastIndexOf("::") + 2), r.type]),
  );
}

it("the dynamic classes made the component's VPC, service and read replica set", async () => {
  expect(await typesInState()).toEqual({
    prod: "mdb:index:ProductionDatabase",
    "prod-vpc": "pulumi-nodejs:dynamic/mdb:Vpc",
    "prod-db": "pulumi-nodejs:dynamic/mdb:Service",
    "prod-reads-1": "pulumi-nodejs:dynamic/mdb:ReadReplicaSet",
  });
});

it("as the plugin's component: nothing replaced, created or deleted, and up writes nothing", async () => {
  const before = await ws.outputs();
  await ws.config("face", "production-native");
  const steps = operations(await ws.preview());
  expect(Object.values(steps).filter((op) => op !== "update")).toEqual([]);
  await emulator.clearCalls();
  const { stdout } = await ws.up();
  expect(stdout).not.toMatch(/replac|deleted|created/);
  expect(await emulator.calls()).toEqual([]);
  expect(await ws.outputs()).toEqual(before);
  expect(await typesInState()).toEqual({
    prod: "mdb:index:ProductionDatabase",
    "prod-vpc": "mdb:index:Vpc",
    "prod-db": "mdb:index:Service",
    "prod-reads-1": "mdb:index:ReadReplicaSet",
  });
  expect(operations(await ws.preview())).toEqual({});
});

it("destroy deletes what it made", async () => {
  await ws.destroy();
  const left = await emulator.inventory();
  expect(left.services).toEqual([]);
  expect(left.vpcs).toEqual([]);
});
