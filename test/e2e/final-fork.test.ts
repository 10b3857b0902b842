/**
 * `finalFork` under the real Pulumi CLI: `pulumi destroy` of a service with `finalFork: true`
 * forks its last snapshot, waits until the fork is READY, prints the fork's id, then deletes the
 * service. The stack ends empty and the API holds exactly the fork, named after the service.
 * The program also finds its service by name with a function's Output form. Through the dynamic
 * classes and through the native plugin `mdb` (the program on its generated SDK).
 */
import * as path from "path";
import { EmulatorProcess, type Face, Workspace } from "./workspace";

jest.setTimeout(180_000);

/** The part of a service record this test reads. */
interface ServiceRecord {
  service_id: string;
  name: string;
  status: string;
  forked_from?: { service_id?: string };
}

describe.each<Face>(["dynamic", "native"])("through the %s face", (face) => {
  let emulator: EmulatorProcess;
  let ws: Workspace;

  beforeAll(async () => {
    emulator = await EmulatorProcess.start();
    ws = Workspace.create(path.join(__dirname, "programs", "final-fork"), emulator.url, face);
    await ws.stack("dev");
  });

  afterAll(async () => {
    await emulator?.stop();
    ws?.remove();
  });

  it("destroy forks the service, prints the fork's id, and leaves exactly the fork", async () => {
    await ws.up();
    const { serviceId, name, foundByName } = (await ws.outputs()) as Record<string, string>;
    // getServiceOutput({ name }) in the program found the same service by its name.
    expect(foundByName).toBe(serviceId);
    await emulator.clearCalls();

    const destroyed = await ws.destroy();
    const services = await emulator.api<ServiceRecord[]>("GET", "/services");
    expect(services).toEqual([
      expect.objectContaining({
        name: `${name}-final-${serviceId}`,
        status: "READY",
        forked_from: expect.objectContaining({ service_id: serviceId }),
      }),
    ]);
    const fork = services[0].service_id;
    expect(destroyed.stdout).toContain(`final fork ${fork} `);
    expect(await emulator.calls()).toEqual(["POST /services/{id}/forkService", "DELETE /services/{id}"]);
    expect(JSON.parse(await ws.exportState()).deployment.resources ?? []).toEqual([]);
  });
});
