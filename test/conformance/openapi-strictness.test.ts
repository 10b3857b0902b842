/**
 * The served OpenAPI document is as strict as the server (issue 31): for each request body (and
 * query, and path id) of a table of edge cases, the document's schema accepts it exactly when the
 * server does. The server is asked about a service, replica set or VPC that does not exist, so a
 * body it takes is answered 404 and one it refuses 400: no stored state decides.
 */
import Ajv from "ajv-draft-04";
import type { Dialect } from "../../api/dialects";
import { OPERATIONS, operationIdsOf } from "../../api/operations";
import type { TestEmulator } from "../helpers/emulator";
import { DIALECT_CASES, startConformanceEmulator } from "./helpers";

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema: Json;
}
interface Operation {
  parameters: Parameter[];
  requestBody?: { content: { "application/json": { schema: Json } } };
}

const SERVICE = "/projects/{project_id}/services/{service_id}";
const REPLICA_SET = `${SERVICE}/replicaSets/{replica_set_id}`;

/** Bodies per operation (path template), the seed's and the vendor's forms together. */
const BODIES: [path: string, bodies: unknown[]][] = [
  [
    "/projects/{project_id}/services",
    [
      { name: "a" },
      { name: "" },
      { name: "x".repeat(128) },
      { name: "x".repeat(129) },
      { name: "😀".repeat(128) },
      { name: "😀".repeat(129) },
      { name: "a", cpu_millis: "250", memory_gbs: "8" },
      { name: "a", cpu_millis: 250, memory_gbs: 8 },
      { name: "a", cpu_millis: "0250", memory_gbs: "0008" },
      { name: "a", cpu_millis: "260" },
      { name: "a", cpu_millis: "64250" },
      { name: "a", cpu_millis: "64000", memory_gbs: "1024" },
      { name: "a", memory_gbs: "1025" },
      { name: "a", cpu_millis: "shared", memory_gbs: "shared" },
      { name: "a", cpu_millis: "shared" },
      { name: "a", cpu_millis: "shared", memory_gbs: "8" },
      { name: "a", cpu_millis: "+250" },
      { name: "a", cpu_millis: "２５０" },
      { name: "a", replica_count: 2 },
      { name: "a", replica_count: 3 },
      { name: "a", replica_count: "1" },
      { name: "a", addons: ["time-series", "ai"] },
      { name: "a", addons: ["vector"] },
      { name: "a", environment_tag: "prod" },
      { name: "a", region_code: "" },
      { name: "a", unknown: 1 },
    ],
  ],
  [
    `${SERVICE}/resize`,
    [
      {},
      { nodes: 1 },
      { cpu_millis: 500 },
      { memory_gbs: "8" },
      { cpu_millis: "500", memory_gbs: "8" },
      { cpu_millis: "500", memory_gbs: "8", nodes: 1 },
      { cpu_millis: "500", memory_gbs: "8", nodes: 2 },
      { cpu_millis: "shared", memory_gbs: "shared" },
      { cpu_millis: "100", memory_gbs: "8" },
    ],
  ],
  [
    `${SERVICE}/setHA`,
    [
      {},
      { replica_count: 1 },
      { sync_replica_count: 0 },
      { replica_count: 0, sync_replica_count: 2 },
      { replica_count: 1, sync_replica_count: 2 },
      { replica_count: 2, sync_replica_count: 2 },
      { replica_count: "2", sync_replica_count: "1" },
      { replica_count: "01", sync_replica_count: "02" },
      { replica_count: 3 },
    ],
  ],
  [
    `${SERVICE}/forkService`,
    [
      {},
      { fork_strategy: "NOW" },
      { fork_strategy: "PITR" },
      { fork_strategy: "PITR", target_time: "2026-01-01T00:00:00Z" },
      { fork_strategy: "PITR", target_time: "2026-01-01T00:00:00" },
      { fork_strategy: "PITR", target_time: "2026-01-01T00:00:00.123+02:00" },
      { fork_strategy: "PITR", target_time: "２０２６-01-01T00:00:00Z" },
      { fork_strategy: "NOW", cpu_millis: "shared", memory_gbs: "shared" },
      { fork_strategy: "NOW", memory_gbs: "shared" },
      { fork_strategy: "NOW", cpu_millis: "1000", memory_gbs: "4" },
      { fork_strategy: "LATER" },
    ],
  ],
  [
    `${SERVICE}/updatePassword`,
    [
      { password: "12345678" },
      { password: "1234567" },
      { password: "😀😀😀😀" },
      { password: "😀".repeat(8) },
    ],
  ],
  [`${SERVICE}/setEnvironment`, [{ environment: "PROD" }, { environment: "TEST" }, {}]],
  [`${SERVICE}/attachToVPC`, [{ vpc_id: "123" }, { vpc_id: "vpc-1" }, { vpc_id: "" }]],
  [`${SERVICE}/rename`, [{ name: "b" }, { name: "" }, { name: 5 }]],
  [
    `${SERVICE}/replicaSets`,
    [
      { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
      { name: "r", nodes: "1", cpu_millis: "500", memory_gbs: "2" },
      { name: "r", nodes: 11, cpu_millis: 500, memory_gbs: 2 },
      { name: "r", nodes: 1, cpu_millis: 500 },
    ],
  ],
  [
    `${REPLICA_SET}/resize`,
    [
      {},
      { nodes: 2 },
      { cpu_millis: "500", memory_gbs: "2" },
      { cpu_millis: "500", memory_gbs: "2", nodes: 0 },
    ],
  ],
  [
    "/projects/{project_id}/vpcs",
    [
      { name: "v", cidr: "10.0.0.0/16", region_code: "us-east-1" },
      { name: "v", cidr: "10.0.0.0/33", region_code: "us-east-1" },
      { name: "v", cidr: "fd00::/8", region_code: "us-east-1" },
      { name: "v", cidr: "10.0.0.0", region_code: "us-east-1" },
      { name: "v", cidr: "10.0.0.0/16" },
    ],
  ],
  [
    `${SERVICE}/metrics/series`,
    [
      { name: "timescale_cloud_database_qps", from: "2026-01-01T00:00:00Z", to: "2026-01-01T01:00:00Z" },
      { name: "q", from: "2026-01-01T00:00:00Z", to: "2026-01-01", bucket_seconds: 60 },
      { name: "q", from: "2026-01-01T00:00:00Z", to: "2026-01-01T01:00:00Z", bucket_seconds: 59 },
      { name: "", from: "2026-01-01T00:00:00Z", to: "2026-01-01T01:00:00Z" },
    ],
  ],
  ["/analytics/track", [{ event: "e" }, { event: "" }, { event: "e", properties: { a: 1 } }]],
];

/** Path ids per parameter: a few well-formed and every way to break them. */
const IDS = [
  "abc",
  "12345",
  "ab",
  "ab\nc",
  "abc\r",
  "a\u0000bc",
  "a b",
  "😀".repeat(100),
  "a".repeat(100),
  "a".repeat(101),
];

/** A path of the template, with ids that exist nowhere (of the dialect's form). */
function fill(
  template: string,
  dialect: Dialect,
  projectId: string,
  ids: Record<string, string> = {},
): string {
  const defaults: Record<string, string> = {
    project_id: projectId,
    service_id: "no-such-service",
    replica_set_id: "no-such-set",
    vpc_id: dialect === "vendor" ? "404404" : "no-such-vpc",
    peering_id: dialect === "vendor" ? "404404" : "no-such-peering",
  };
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? defaults[name]));
}

describe.each(DIALECT_CASES)("%s dialect", (dialect: Dialect) => {
  let emu: TestEmulator;
  let paths: Record<string, Record<string, Operation>>;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
    paths = ((await (await fetch(`${emu.url}/openapi.json`)).json()) as { paths: typeof paths }).paths;
  });
  afterAll(() => emu.close());

  const served = new Set<string>(operationIdsOf(dialect).map((id) => OPERATIONS[id].path));
  it.each(BODIES.filter(([template]) => served.has(template)))(
    "%s: the document takes a body exactly when the server does",
    async (template, bodies) => {
      const operation = paths[template].post;
      const validate = ajv.compile(operation.requestBody!.content["application/json"].schema);
      const disagreements: string[] = [];
      for (const body of bodies) {
        const response = await emu.api("POST", fill(template, dialect, emu.credentials.projectId), body);
        const serverTakes = response.status !== 400;
        if (validate(body) !== serverTakes)
          disagreements.push(`${JSON.stringify(body)}: server ${response.status} ${response.text}`);
      }
      expect(disagreements).toEqual([]);
    },
  );

  // Service logs are the vendor's addition: the seed has no such path.
  if (dialect === "vendor")
    it("service logs: the document takes a query exactly when the server does", async () => {
      const operation = paths[`${SERVICE}/logs`].get;
      const schemas = Object.fromEntries(
        operation.parameters.filter((p) => p.in === "query").map((p) => [p.name, ajv.compile(p.schema)]),
      );
      const queries: [string, string][] = [
        ["node", "0"],
        ["node", "x"],
        ["node", "٣"],
        ["search", "word"],
        ["search", " "],
        ["search", "\ufeff"],
        ["until", "2026-01-01T00:00:00Z"],
        ["until", "2026-01-01"],
      ];
      const disagreements: string[] = [];
      for (const [name, value] of queries) {
        const path = `${fill(`${SERVICE}/logs`, dialect, emu.credentials.projectId)}?${name}=${encodeURIComponent(value)}`;
        const response = await emu.api("GET", path);
        const docTakes = schemas[name](name === "search" ? [value] : value);
        if (docTakes !== (response.status !== 400))
          disagreements.push(`${name}=${JSON.stringify(value)}: server ${response.status} ${response.text}`);
      }
      expect(disagreements).toEqual([]);
    });

  it("path ids: the document takes an id exactly when the server does, and says what is wrong", async () => {
    const templates = [SERVICE, REPLICA_SET, "/projects/{project_id}/vpcs/{vpc_id}/peerings/{peering_id}"];
    const disagreements: string[] = [];
    for (const template of templates) {
      const operation = Object.values(paths[template])[0];
      const method = Object.keys(paths[template])[0].toUpperCase();
      for (const parameter of operation.parameters.filter(
        (p) => p.in === "path" && p.name !== "project_id",
      )) {
        const validate = ajv.compile(parameter.schema);
        for (const id of IDS) {
          const response = await emu.api<{ message: string }>(
            method,
            fill(template, dialect, emu.credentials.projectId, { [parameter.name]: id }),
            method === "POST" ? {} : undefined,
          );
          const serverTakes = response.status !== 400 && response.status !== 414;
          if (validate(id) !== serverTakes)
            disagreements.push(
              `${parameter.name}=${JSON.stringify(id)}: server ${response.status} ${response.text}`,
            );
          // A refusal names the parameter (or the path, past the length limit).
          if (!serverTakes && !new RegExp(`^(${parameter.name}|\\(path\\)): `).test(response.body.message))
            disagreements.push(`${parameter.name}=${JSON.stringify(id)}: unnamed refusal ${response.text}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
