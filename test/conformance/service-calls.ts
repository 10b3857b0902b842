/**
 * Calls the service suites share, over one conformance emulator: read a service (strictly), wait for
 * a status, create one READY or still QUEUED, create a VPC.
 */
import { STRICT_RECORDS, type Service, type Vpc } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";

/** The service calls of the suites, bound to `emu()` (called late: the emulator starts in beforeAll). */
export function serviceCalls(emu: () => TestEmulator) {
  const p = () => emu().projectPath;
  /** Path of a service, or of one of its actions. */
  const path = (id: string, action = "") => `${p()}/services/${id}${action ? `/${action}` : ""}`;

  async function getService(id: string): Promise<Service> {
    const response = await emu().api("GET", path(id));
    expect(response.status).toBe(200);
    return STRICT_RECORDS.Service.parse(response.body);
  }

  function waitForStatus(id: string, status: string): Promise<Service> {
    return emu().waitFor(
      () => getService(id),
      (s) => s.status === status,
      { what: `service ${id} ${status}` },
    );
  }

  async function createReadyService(body: Record<string, unknown> = {}): Promise<Service> {
    const response = await emu().api<Service>("POST", `${p()}/services`, { name: "db", ...body });
    expect(response.status).toBe(202);
    return waitForStatus(response.body.service_id, "READY");
  }

  /** A service that stays QUEUED long enough for the test's own requests. */
  async function createQueuedService(): Promise<Service> {
    const response = await emu().withTransitionMs(() =>
      emu().api<Service>("POST", `${p()}/services`, { name: "young" }),
    );
    expect(response.body.status).toBe("QUEUED");
    return response.body;
  }

  async function createVpc(regionCode = "us-east-1"): Promise<Vpc> {
    const response = await emu().api<Vpc>("POST", `${p()}/vpcs`, {
      name: "v",
      cidr: "10.9.0.0/16",
      region_code: regionCode,
    });
    expect(response.status).toBe(201);
    return response.body;
  }

  return { path, getService, waitForStatus, createReadyService, createQueuedService, createVpc };
}
