/**
 * A replacement Pulumi makes of its own accord, under the real Pulumi CLI, of a service of a name
 * the program chose: the `replaceOnChanges: ["environment"]` resource option, when its environment
 * changes. No check refuses the name as taken (the record of that name is the resource's own);
 * `up` deletes the old service first, taking its final fork, and only then creates the new one
 * under the same name, since the two could not exist side by side. Through the native plugin
 * `mdb` (the program on its generated SDK): Pulumi's dynamic provider host does not pass a diff's
 * changed properties to the engine, so the option cannot act on the dynamic classes.
 * `pulumi up --replace` of the same service, which Pulumi checks as a new resource with no diff,
 * is refused at preview with the two steps that do make it again, and those steps are followed.
 */
import * as path from "path";
import { EmulatorProcess, type Face, Workspace } from "./workspace";

jest.setTimeout(180_000);

/** The part of a service record this test reads. */
interface ServiceRecord {
  service_id: string;
  name: string;
  status: string;
  metadata?: { environment?: string };
  forked_from?: { service_id?: string };
}

describe("through the native plugin", () => {
  const face: Face = "native";
  let emulator: EmulatorProcess;
  let ws: Workspace;

  beforeAll(async () => {
    emulator = await EmulatorProcess.start();
    ws = Workspace.create(path.join(__dirname, "programs", "replace-by-option"), emulator.url, face);
    await ws.stack("dev");
  });

  afterAll(async () => {
    await emulator?.stop();
    ws?.remove();
  });

  /** The services of the API that are not forks, and the forks of `source`. */
  async function services(source: string) {
    const all = await emulator.api<ServiceRecord[]>("GET", "/services");
    return {
      own: all.filter((s) => !s.forked_from),
      forks: all.filter((s) => s.forked_from?.service_id === source),
    };
  }

  /** Checks the replacement just made of `before`: its final fork, its delete, then the new service. */
  async function replacedInTurn(before: string, environment: string): Promise<string> {
    const { serviceId: after } = (await ws.outputs()) as Record<string, string>;
    expect(after).not.toBe(before);
    // The old service's last copy, its delete, then the create of the new one of the same name.
    expect(await emulator.calls()).toEqual([
      "POST /services/{id}/forkService",
      "DELETE /services/{id}",
      "POST /services",
    ]);
    const { own, forks } = await services(before);
    expect(own).toEqual([
      expect.objectContaining({
        service_id: after,
        name: "ledger",
        status: "READY",
        metadata: expect.objectContaining({ environment }),
      }),
    ]);
    expect(forks).toHaveLength(1);
    expect(await ws.changeSummary()).toEqual({ same: 2 });
    return after;
  }

  it("replaceOnChanges on a service of a chosen name: the preview plans it, and up replaces it in turn", async () => {
    await ws.up();
    const { serviceId: before } = (await ws.outputs()) as Record<string, string>;
    await ws.config("environment", "PROD");
    const steps = await ws.preview();
    expect(steps.get("db")).toMatchObject({ op: "replace", replaceReasons: ["environment"] });
    // Under the in-place call its diff found, the line says what up does instead.
    const { stdout } = await ws.pulumi(["preview"]);
    expect(stdout).toContain("[mdb] db: setServiceEnvironment DEV → PROD (no restart)");
    expect(stdout).toMatch(
      /\[mdb\] db: replace \(by Pulumi, as the replaceOnChanges resource option asks, instead of the calls above\): forkService .*, deleteService of the old service first, then createService ledger 1000m\/4GB\n/,
    );
    await emulator.clearCalls();
    await ws.up();
    await replacedInTurn(before, "PROD");
  });

  it("pulumi up --replace of it is refused at preview with the two steps that make it again, which work", async () => {
    const { serviceId: before } = (await ws.outputs()) as Record<string, string>;
    const state = JSON.parse(await ws.exportState()) as {
      deployment: { resources: { urn: string; type: string }[] };
    };
    const urn = state.deployment.resources.find((r) => r.type === "mdb:index:Service")?.urn as string;
    await emulator.clearCalls();
    // Pulumi checks a targeted replacement as a new resource and asks the provider nothing more.
    const refused = await ws.pulumi(["preview", "--replace", urn], { allowFailure: true });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toContain(`a service named "ledger" (POSTGRES, us-east-1) already exists`);
    expect(refused.stdout).toContain(
      "If that record is this resource's own (`pulumi up --replace`, or a resource `pulumi state taint` marked",
    );
    expect(refused.stdout).toContain(
      "make it again in two steps: `pulumi destroy --target <its URN>`, then `pulumi up`",
    );
    expect(await emulator.calls()).toEqual([]);
    // The two steps, as a person follows them: the old service goes (its final fork kept), then a new one.
    await ws.pulumi(["destroy", "--target", urn, "--yes", "--skip-preview"]);
    await ws.up();
    expect(await emulator.calls()).toEqual([
      "POST /services/{id}/forkService",
      "DELETE /services/{id}",
      "POST /services",
    ]);
    const { serviceId: after } = (await ws.outputs()) as Record<string, string>;
    const { own, forks } = await services(before);
    expect(own).toEqual([expect.objectContaining({ service_id: after, name: "ledger", status: "READY" })]);
    expect(after).not.toBe(before);
    expect(forks).toHaveLength(1);
    expect(await ws.changeSummary()).toEqual({ same: 2 });
  });
});
