/**
 * The emulator serves clients written by others from the vendor's description of the API, unchanged:
 * what such clients send and read, over real HTTP, with the status and body they need. Every answer
 * is also checked against the strict contract (see helpers.ts).
 */
import { STRICT_RECORDS, type Service } from "../../api/schemas";
import type { TestEmulator } from "../helpers/emulator";
import { startConformanceEmulator } from "./helpers";

const { Service: ServiceSchema } = STRICT_RECORDS;

let emu: TestEmulator;
let p: string;

beforeAll(async () => {
  emu = await startConformanceEmulator();
  p = emu.projectPath;
});
afterAll(() => emu.close());

describe("create service with add-ons", () => {
  it.each([
    [["time-series", "ai"], "TIMESERIESDB"],
    [["ai", "time-series"], "TIMESERIESDB"],
    [["ai"], "VECTOR"],
    [["time-series"], "TIMESERIESDB"],
    [[], "POSTGRES"],
  ])("%j: 202 with service_type %s", async (addons, serviceType) => {
    const response = await emu.api("POST", `${p}/services`, { name: "addons", addons });
    expect(response.status).toBe(202);
    expect(ServiceSchema.parse(response.body)).toMatchObject({ name: "addons", service_type: serviceType });
  });

  it("the vendor's example pair is kept once READY", async () => {
    const created = await emu.api<Service>("POST", `${p}/services`, {
      name: "metrics",
      addons: ["time-series", "ai"],
    });
    const ready = await emu.waitFor(
      async () =>
        ServiceSchema.parse((await emu.api("GET", `${p}/services/${created.body.service_id}`)).body),
      (s) => s.status === "READY",
    );
    expect(ready.service_type).toBe("TIMESERIESDB");
  });
});
