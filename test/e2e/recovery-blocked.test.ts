/**
 * Deletes that cannot succeed fail fast. A VPC still used by a peering and a service the stack
 * does not manage cannot be deleted: `pulumi destroy` fails within about a minute naming them
 * and what to do, rather than waiting out the 20-minute delete timeout. Once they are gone, or
 * being deleted, the next destroy finishes: it waits for a blocker as long as it is being deleted.
 */
import { EmulatorProcess, Workspace } from "./workspace";
import { BLOCKED_GRACE_MS } from "../../provider/kit/lifecycle/blockers";
import {
  RECOVERY_PROGRAM,
  expectConverged,
  expectEmpty,
  request,
  runUntil,
  stackState,
} from "./recovery-harness";

jest.setTimeout(180_000);

/** The part of a service record these tests read. */
interface ServiceRecord {
  service_id: string;
  status: string;
  vpcEndpoint?: { vpc_id?: string };
}

let emulator: EmulatorProcess;
let ws: Workspace;
let vpcId: string;
let outsider: string;
let foreignPeering: string;

/** Polls the service until `done` holds for it. */
async function waitForService(id: string, done: (s: ServiceRecord) => boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (done(await emulator.api<ServiceRecord>("GET", `/services/${id}`))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`service ${id} did not settle`);
}

beforeAll(async () => {
  emulator = await EmulatorProcess.start(300);
  ws = Workspace.create(RECOVERY_PROGRAM, emulator.url);
  await ws.stack("blocked");
  await ws.up();
  await expectConverged(ws, emulator, 1);
  vpcId = (await stackState(ws)).resources.find((r) => r.type === "Vpc")?.id as string;
  // Out of the stack: a second peering of its VPC, and a service attached to it.
  ({ id: foreignPeering } = await emulator.api<{ id: string }>("POST", `/vpcs/${vpcId}/peerings`, {
    peer_account_id: "210987654321",
    peer_region_code: "us-east-1",
    peer_vpc_id: "vpc-foreign",
  }));
  ({ service_id: outsider } = await emulator.api<ServiceRecord>("POST", "/services", { name: "outsider" }));
  await waitForService(outsider, (s) => s.status === "READY");
  await emulator.api("POST", `/services/${outsider}/attachToVPC`, { vpc_id: vpcId });
  await waitForService(outsider, (s) => s.status === "READY" && s.vpcEndpoint?.vpc_id === vpcId);
});

afterAll(async () => {
  await emulator?.stop();
  ws?.remove();
});

it("destroy fails within a minute naming the peering and the service that keep the VPC, and what to do", async () => {
  const started = Date.now();
  const destroy = await ws.pulumi(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
  const seconds = (Date.now() - started) / 1000;
  expect(destroy.code).not.toBe(0);
  expect(seconds).toBeLessThan(75);
  const text = destroy.stdout + destroy.stderr;
  expect(text).toContain(`cannot delete VPC ${vpcId}`);
  expect(text).toContain(`peering ${foreignPeering}`);
  expect(text).toContain(`service ${outsider}`);
  expect(text).toContain("Detach the services attached to it and delete its peerings");
  // Everything of the stack but the VPC is gone; the VPC stays in the state.
  expect((await stackState(ws)).resources.map((r) => r.type)).toEqual(["Vpc"]);
  expect(await emulator.inventory()).toEqual({
    services: [outsider],
    replicaSets: [],
    vpcs: [vpcId],
    peerings: [foreignPeering],
  });
});

it("destroy waits, past the grace, while the blocker is being deleted, then deletes the VPC", async () => {
  await emulator.api("DELETE", `/vpcs/${vpcId}/peerings/${foreignPeering}`);
  // Once the VPC delete is refused for the service, the service is deleted, slowly: longer
  // than the grace after which a blocker that is not being deleted fails the delete.
  const destroy = await runUntil(
    ws,
    emulator,
    ["destroy", "--yes", "--skip-preview"],
    request("DELETE", /^\/vpcs\/[^/]+$/, 409),
  );
  await emulator.setTransitionMs(BLOCKED_GRACE_MS + 3000);
  await emulator.api("DELETE", `/services/${outsider}`);
  const { exit, output } = await destroy.ended;
  expect({ exit, output }).toEqual({ exit: 0, output: expect.stringContaining("being deleted") });
  await expectEmpty(emulator);
  expect((await stackState(ws)).resources).toEqual([]);
});
