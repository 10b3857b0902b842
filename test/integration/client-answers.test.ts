/**
 * Answers of every published version, read over real HTTP by the client and the Service's field
 * table with no error (W2): a current-era service (TIMESCALEDB, only `vpc_endpoint`, no `paused`),
 * a spec-era one (`vpcEndpoint`, `paused`), empty resize bodies (spec-era), and a VPC rename
 * answered `{message}` (current), which the client follows with a read of the VPC.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { MdbApi } from "../../provider/client/api";
import { recordOutputs } from "../../provider/kit/fields/field-table";
import { SERVICE } from "../../provider/resources/service/fields";

const VPC = { id: "1234567890", name: "core", cidr: "10.0.0.0/16", region_code: "us-east-1" };
const CURRENT_SERVICE = {
  service_id: "svc1",
  project_id: "p",
  name: "orders",
  region_code: "us-east-1",
  service_type: "TIMESCALEDB",
  created: "2026-01-01T00:00:00Z",
  status: "PAUSING",
  resources: [{ id: "r1", spec: { cpu_millis: 1000, memory_gbs: 4 } }],
  vpc_endpoint: { host: "vpc.example", port: 5432, vpc_id: VPC.id },
};
const SPEC_ERA_SERVICE = {
  ...CURRENT_SERVICE,
  service_type: "TIMESERIESDB",
  status: "READY",
  paused: false,
  vpc_endpoint: undefined,
  vpcEndpoint: { host: "vpc.example", port: 5432, vpc_id: VPC.id },
};

/** Canned answers: `METHOD path` -> [status, body text]. */
const ANSWERS: Record<string, [number, string]> = {
  "GET /public/api/v1/projects/p/services/svc1": [200, JSON.stringify(CURRENT_SERVICE)],
  "GET /public/api/v1/projects/p/services/old1": [200, JSON.stringify(SPEC_ERA_SERVICE)],
  "POST /public/api/v1/projects/p/services/svc1/resize": [202, ""],
  "POST /public/api/v1/projects/p/services/svc1/replicaSets/rs1/resize": [202, ""],
  "POST /public/api/v1/projects/p/vpcs/1234567890/rename": [200, JSON.stringify({ message: "renamed" })],
  "GET /public/api/v1/projects/p/vpcs/1234567890": [200, JSON.stringify(VPC)],
};

let server: http.Server;
let api: MdbApi;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const key = `${req.method} ${req.url}`;
      seen.push(key);
      const [status, body] = ANSWERS[key] ?? [404, JSON.stringify({ code: "NOT_FOUND", message: key })];
      res.writeHead(status, body ? { "content-type": "application/json" } : {});
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  api = new MdbApi({ baseUrl: `http://127.0.0.1:${port}`, publicKey: "pk", secretKey: "sk" });
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

it("a current service: TIMESCALEDB is TIMESERIESDB, the VPC from vpc_endpoint, pause from the status", async () => {
  const record = await api.getService("p", "svc1");
  expect(recordOutputs(SERVICE, record, { projectId: "p" })).toMatchObject({
    serviceType: "TIMESERIESDB",
    vpcId: VPC.id,
    vpcEndpoint: { host: "vpc.example", port: 5432, vpcId: VPC.id },
    paused: true,
  });
});

it("a spec-era service reads the same way from vpcEndpoint and paused", async () => {
  const record = await api.getService("p", "old1");
  expect(recordOutputs(SERVICE, record, { projectId: "p" })).toMatchObject({
    serviceType: "TIMESERIESDB",
    vpcId: VPC.id,
    paused: false,
  });
});

it("empty resize answers (spec-era) are read without error", async () => {
  await expect(api.resizeService("p", "svc1", { cpuMillis: 2000, memoryGbs: 8 })).resolves.toBeUndefined();
  await expect(
    api.resizeReplicaSet("p", "svc1", "rs1", { cpuMillis: 2000, memoryGbs: 8 }),
  ).resolves.toBeUndefined();
});

it("a VPC rename answered {message} (current) resolves to the VPC, read back", async () => {
  seen.length = 0;
  await expect(api.renameVpc("p", VPC.id, { name: "core" })).resolves.toEqual(VPC);
  expect(seen).toEqual([
    `POST /public/api/v1/projects/p/vpcs/${VPC.id}/rename`,
    `GET /public/api/v1/projects/p/vpcs/${VPC.id}`,
  ]);
});
