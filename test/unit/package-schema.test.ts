/**
 * The package schema of the plugin `mdb` (`plugin/schema.json`) says what the declarations say:
 * it is valid under Pulumi's own metaschema (the one of the Pulumi release tools/ pins), every
 * row of every field table is a property with its facts (type, secret, replace, default,
 * required, description), every function and the component are there as declared, and so is
 * the configuration. `docs.test.ts` checks the file is what `npm run docs` writes today.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import type { PackageSpec, PropertySpec } from "../../provider/adapters/plugin/schema/spec";
import { PRODUCTION_DATABASE } from "../../provider/components/production-database-args";
import { CONFIG_KEY_NAMES } from "../../provider/config";
import { PROVIDER_CONFIG, configEnvVar, type ConfigKey } from "../../provider/config-declaration";
import { LIST_RESULTS } from "../../provider/functions/results";
import { FUNCTIONS } from "../../provider/functions/declarations";
import { defaultOf } from "../../provider/kit/fields/field-table";
import { REGISTRY } from "../../provider/resources/registry";

const root = path.resolve(__dirname, "..", "..");
const schema = JSON.parse(fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8")) as PackageSpec;
const token = (name: string) => `mdb:index:${name}`;

/** Pulumi's metaschema at the release tools/sdkgen pins, from the Go module cache (downloaded if need be). */
function pulumiMetaschema(): object {
  const run = spawnSync("go", ["mod", "download", "-json", "github.com/pulumi/pulumi/pkg/v3"], {
    cwd: path.join(root, "tools", "sdkgen"),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`go mod download failed: ${run.stderr || run.error}`);
  const dir = JSON.parse(run.stdout).Dir as string;
  return JSON.parse(fs.readFileSync(path.join(dir, "codegen", "schema", "pulumi.json"), "utf8"));
}

/** Every property spec in the schema with where it is, for the checks that hold for all of them. */
function allProperties(): [string, PropertySpec][] {
  const found: [string, PropertySpec][] = [];
  const add = (where: string, properties?: Record<string, PropertySpec>) =>
    Object.entries(properties ?? {}).forEach(([name, spec]) => found.push([`${where}.${name}`, spec]));
  for (const [key, type] of Object.entries(schema.types)) if ("properties" in type) add(key, type.properties);
  for (const [key, resource] of Object.entries(schema.resources)) {
    add(`${key} input`, resource.inputProperties);
    add(`${key} output`, resource.properties);
  }
  for (const [key, fn] of Object.entries(schema.functions)) {
    add(`${key} input`, fn.inputs?.properties);
    add(`${key} output`, fn.outputs.properties);
  }
  add("config", schema.config.variables);
  add("provider", schema.provider.inputProperties);
  return found;
}

describe("plugin/schema.json", () => {
  it("is valid under Pulumi's metaschema", () => {
    const validate = new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile(
      pulumiMetaschema(),
    );
    expect(validate(schema) ? [] : validate.errors).toEqual([]);
  });

  it("is the package mdb at the npm package's version, with each language's Pulumi SDK", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    expect(schema).toMatchObject({ name: "mdb", version: manifest.version, homepage: manifest.homepage });
    const pulumi = manifest.peerDependencies["@pulumi/pulumi"] as string;
    expect(schema.language.nodejs.dependencies).toEqual({ "@pulumi/pulumi": pulumi });
    expect(schema.language.python.requires).toEqual({ pulumi: `>=${pulumi.replace(/^\^/, "")},<4.0.0` });
  });

  it("describes every property and every named type", () => {
    const undescribed = allProperties().filter(([, spec]) => !spec.description);
    expect(undescribed.map(([where]) => where)).toEqual([]);
    const types = Object.entries(schema.types).filter(([, type]) => !type.description);
    expect(types.map(([key]) => key)).toEqual([]);
  });
});

describe("Service's object inputs and outputs", () => {
  it("forkFrom: its fields, the two required, targetTime with a zone, the strategies as an enum", () => {
    expect(schema.resources[token("Service")].inputProperties?.forkFrom).toMatchObject({
      $ref: "#/types/mdb:index:ForkFrom",
      replaceOnChanges: true,
    });
    const forkFrom = schema.types[token("ForkFrom")];
    expect(forkFrom).toMatchObject({ type: "object", required: ["serviceId", "strategy"] });
    if (!("properties" in forkFrom)) throw new Error("ForkFrom is not an object type");
    expect(Object.keys(forkFrom.properties ?? {})).toEqual([
      "serviceId",
      "projectId",
      "strategy",
      "targetTime",
    ]);
    expect(forkFrom.properties?.targetTime.description).toMatch(/with a zone, e\.g\. `2026-11-01T10:00:00Z`/);
    expect(schema.types[token("ForkStrategy")]).toMatchObject({
      enum: [{ value: "LAST_SNAPSHOT" }, { value: "NOW" }, { value: "PITR" }],
    });
  });

  it('finalFork: a boolean or its object form; sizes: a whole number or "shared"', () => {
    const inputs = schema.resources[token("Service")].inputProperties ?? {};
    expect(inputs.finalFork).toMatchObject({
      oneOf: [{ type: "boolean" }, { $ref: "#/types/mdb:index:FinalFork" }],
    });
    // The plugin's Check fills it in: Go's generator cannot write a union's default.
    expect(inputs.finalFork).not.toHaveProperty("default");
    // "shared" as plain text beside the number: with an enum there, Go's SDK would take only text.
    for (const size of [inputs.cpuMillis, inputs.memoryGbs])
      expect(size).toMatchObject({ oneOf: [{ type: "integer" }, { type: "string" }] });
    expect(inputs.cpuMillis.description).toMatch(/or `"shared"`/);
  });

  it("forkedFrom: the source, and the strategy and time the program forked with", () => {
    const forkedFrom = schema.types[token("ForkedFrom")];
    if (!("properties" in forkedFrom)) throw new Error("ForkedFrom is not an object type");
    expect(Object.keys(forkedFrom.properties ?? {})).toEqual([
      "projectId",
      "serviceId",
      "isStandby",
      "strategy",
      "targetTime",
    ]);
  });
});

describe.each(Object.values(REGISTRY).map((e) => [e.definition.typeName, e.definition] as const))(
  "resource %s",
  (typeName, def) => {
    const spec = schema.resources[token(typeName)];
    const rows = Object.entries(def.fields);

    it("is there, described", () => {
      expect(spec).toBeDefined();
      expect(spec.description).toMatch(/\w/);
    });

    it.each(rows.filter(([, row]) => row.role === "input"))(
      "input %s: an input property with its secret, replace and default facts",
      (name, row) => {
        if (row.role !== "input") throw new Error("not an input");
        const input = spec.inputProperties?.[name] as PropertySpec;
        expect(input.description).toMatch(/\w/);
        expect(input.secret === true).toBe(row.secret === true);
        expect(input.replaceOnChanges === true).toBe("replace" in row.change);
        // A union's default is left to the plugin's Check (Go's generator cannot write one).
        const fallback = "oneOf" in input ? undefined : defaultOf(row.type);
        expect(input.default).toEqual(typeof fallback === "object" ? undefined : fallback);
        const required = row.type.safeParse(undefined).success === false && !("generated" in row);
        expect(spec.requiredInputs?.includes(name)).toBe(required);
      },
    );

    it.each(rows)("row %s: a property, secret as the row says", (name, row) => {
      const output = spec.properties?.[name] as PropertySpec;
      expect(output).toBeDefined();
      expect(output.secret === true).toBe(row.secret === true);
    });

    it("has exactly the table's rows", () => {
      expect(Object.keys(spec.properties ?? {})).toEqual(rows.map(([name]) => name));
      expect(Object.keys(spec.inputProperties ?? {})).toEqual(
        rows.filter(([, row]) => row.role === "input").map(([name]) => name),
      );
    });
  },
);

describe("functions", () => {
  it.each(Object.entries(FUNCTIONS))("%s is an invoke with its arguments and result", (name, fn) => {
    const spec = schema.functions[token(name)];
    expect(spec.description).toMatch(/\w/);
    if ("args" in fn) expect(Object.keys(spec.inputs?.properties ?? {}).length).toBeGreaterThan(0);
    else expect(spec.inputs).toBeUndefined();
    if ("listKey" in fn) expect(spec.outputs.properties?.[fn.listKey]).toMatchObject({ type: "array" });
    else expect(Object.keys(spec.outputs.properties ?? {}).length).toBeGreaterThan(0);
  });

  it("are exactly the declared ones, a list under the name the plugin's Invoke gives it", () => {
    expect(Object.keys(schema.functions)).toEqual(Object.keys(FUNCTIONS).map(token));
    for (const [name, key] of Object.entries(LIST_RESULTS))
      expect(Object.keys(schema.functions[token(name)].outputs.properties ?? {})).toEqual([key]);
    expect(Object.keys(LIST_RESULTS)).toEqual([
      "getProjects",
      "listServices",
      "listVpcs",
      "listReadReplicaSets",
      "listVpcPeerings",
    ]);
  });

  it("getService takes serviceId or name, neither required; its result is the Service's outputs without secrets", () => {
    const spec = schema.functions[token("getService")];
    expect(spec.inputs).toEqual({ properties: expect.objectContaining({ serviceId: expect.anything() }) });
    expect(Object.keys(spec.inputs?.properties ?? {}).sort()).toEqual(["name", "projectId", "serviceId"]);
    const outputs = Object.keys(spec.outputs.properties ?? {});
    const service = schema.resources[token("Service")].properties ?? {};
    expect(outputs).toEqual(Object.keys(service).filter((key) => !service[key].secret));
  });
});

describe("function results Pulumi's Python SDK can read", () => {
  // Its generator checks each field of a function's result with isinstance, and checks a union
  // against dict: a field that is a number or a word fails for every value.
  const primitive = (spec: object) => "type" in spec && spec.type !== "object" && spec.type !== "array";
  const results = Object.entries(schema.functions).flatMap(([tok, fn]) =>
    Object.entries(fn.outputs.properties ?? {}).map(([key, spec]) => [`${tok} ${key}`, spec] as const),
  );

  it.each(results)("%s is no union of plain values", (_where, spec) => {
    const options = "oneOf" in spec ? (spec.oneOf as object[]) : [];
    expect(options.length > 0 && options.every(primitive)).toBe(false);
  });

  it('a size is a whole number, where "shared" reads 0, also in a list\'s items', () => {
    const outputs = schema.functions[token("getService")].outputs.properties ?? {};
    const item = schema.types[token("ServiceResult")];
    if (!("properties" in item)) throw new Error("ServiceResult is not an object type");
    for (const size of [outputs.cpuMillis, outputs.memoryGbs, item.properties?.cpuMillis])
      expect(size).toMatchObject({
        type: "integer",
        description: expect.stringContaining('`"shared"` reads `0`'),
      });
  });
});

describe("the component", () => {
  const spec = schema.resources[token(PRODUCTION_DATABASE.name)];

  it("is mdb:index:ProductionDatabase, a component with the declared inputs and outputs", () => {
    expect(spec.isComponent).toBe(true);
    expect(Object.keys(spec.inputProperties ?? {})).toEqual(Object.keys(PRODUCTION_DATABASE.args.shape));
    expect(Object.keys(spec.properties ?? {})).toEqual(Object.keys(PRODUCTION_DATABASE.outputs.shape));
    expect(spec.requiredInputs).toEqual(["regionCode", "cpuMillis", "memoryGbs"]);
  });

  it("keeps the plain inputs plain, the secrets secret and the defaults the component applies", () => {
    const inputs = spec.inputProperties ?? {};
    expect(["readReplicaSets", "peering", "deletionProtection"].filter((k) => inputs[k].plain)).toHaveLength(
      3,
    );
    expect(inputs.password.secret).toBe(true);
    expect(inputs.deletionProtection.default).toBe(true);
    expect(inputs.serviceType).toMatchObject({ $ref: "#/types/mdb:index:ServiceType", default: "POSTGRES" });
    const secrets = Object.entries(spec.properties ?? {}).filter(([, p]) => p.secret);
    expect(secrets.map(([k]) => k)).toEqual([
      "connectionUri",
      "poolerConnectionUri",
      "readReplicaConnectionUris",
    ]);
  });
});

describe("the configuration", () => {
  const keys = Object.keys(PROVIDER_CONFIG.shape) as ConfigKey[];

  it("declares exactly the keys the provider reads (those the plugin's CheckConfig knows)", () => {
    expect(keys.map((key) => `mdb:${key}`).sort()).toEqual([...CONFIG_KEY_NAMES].sort());
  });

  it.each(keys)("mdb:%s is a variable with its environment variable, and a provider input", (key) => {
    expect(schema.config.variables[key].defaultInfo).toEqual({ environment: [configEnvVar(key)] });
    expect(schema.provider.inputProperties?.[key]).toBeDefined();
  });

  it("keeps the secret key secret, and never fills the credentials from the program's environment", () => {
    expect(schema.config.variables.secretKey.secret).toBe(true);
    expect(schema.provider.inputProperties?.secretKey).toMatchObject({ secret: true });
    expect(schema.provider.inputProperties?.secretKey.defaultInfo).toBeUndefined();
    expect(schema.provider.inputProperties?.publicKey.defaultInfo).toBeUndefined();
    expect(schema.provider.inputProperties?.apiUrl.defaultInfo).toEqual({ environment: ["MDB_API_URL"] });
    expect(Object.keys(schema.provider.properties ?? {})).not.toContain("secretKey");
  });

  it("types the transport limits as whole numbers and the adoption switch as a boolean", () => {
    expect(schema.config.variables.callDeadlineMs).toMatchObject({ type: "integer" });
    expect(schema.config.variables.maxRetryAfterMs.description).toMatch(/Retry-After/);
    expect(schema.config.variables.adoptExisting).toMatchObject({ type: "boolean" });
  });
});
