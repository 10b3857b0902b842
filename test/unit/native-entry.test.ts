/**
 * `pulumi-managed-db/native` under `pulumi.runtime` mocks: the main entry with the four resource
 * classes and the component swapped for ones that register the plugin's native types
 * (`mdb:index:*`), so a program moves by changing its import. Every other export is the main
 * entry's own.
 */
import * as pulumi from "@pulumi/pulumi";
import * as fs from "fs";
import * as path from "path";
import * as main from "../../provider";
import { AUTO_NAMED_INPUT, DYNAMIC_FACE_INPUTS } from "../../provider/kit/hidden";
import * as native from "../../provider/native";
import { type Registered, mockEngine } from "../helpers/mock-engine";

let registered: Registered[];

beforeEach(async () => {
  registered = await mockEngine("native-entry");
});

const SWAPPED = ["Service", "ReadReplicaSet", "Vpc", "VpcPeering", "ProductionDatabase"];

/** Resolves once the mocked engine has seen every registration made so far. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

it("exports every name the main entry exports, and only the classes differ; and Provider, as a generated SDK has it", () => {
  expect(Object.keys(native).sort()).toEqual([...Object.keys(main), "Provider"].sort());
  for (const name of Object.keys(main) as (keyof typeof main & keyof typeof native)[]) {
    if (SWAPPED.includes(name)) expect(native[name]).not.toBe(main[name]);
    else expect(native[name]).toBe(main[name]);
  }
});

it("exports the schema's enumerations as a generated SDK has them (the code pulumi import writes runs here)", async () => {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "../../plugin/schema.json"), "utf8")) as {
    types: Record<string, { enum?: { value: string }[] }>;
  };
  const enums = Object.entries(schema.types).filter(([, type]) => type.enum);
  expect(enums.length).toBeGreaterThan(0);
  for (const [token, type] of enums) {
    const name = token.replace("mdb:index:", "") as keyof typeof native;
    expect([name, native[name]]).toEqual([
      name,
      Object.fromEntries(type.enum!.map((m) => [m.value, m.value])),
    ]);
  }
  // As `pulumi import` writes a service's args for @pulumi/mdb.
  new native.Service("imported", {
    serviceType: native.ServiceType.POSTGRES,
    environment: native.Environment.DEV,
    regionCode: "us-east-1",
    cpuMillis: "shared",
    memoryGbs: "shared",
  });
  await settle();
  expect(registered.find((r) => r.name === "imported")?.inputs).toMatchObject({
    serviceType: "POSTGRES",
    environment: "DEV",
  });
});

it("each class registers its native type with the program's args and no hidden input", async () => {
  const vpc = new native.Vpc("net", { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
  const db = new native.Service("db", {
    serviceType: "POSTGRES",
    regionCode: "us-east-1",
    cpuMillis: 1000,
    memoryGbs: 4,
    vpcId: vpc.vpcId,
  });
  new native.ReadReplicaSet("reads", { serviceId: db.serviceId, nodes: 1, cpuMillis: 500, memoryGbs: 2 });
  new native.VpcPeering("peer", {
    vpcId: vpc.vpcId,
    peerAccountId: "123456789012",
    peerRegionCode: "us-east-1",
    peerVpcId: "vpc-1",
  });
  await settle();
  expect(registered.map((r) => [r.name, r.type]).sort()).toEqual([
    ["db", "mdb:index:Service"],
    ["net", "mdb:index:Vpc"],
    ["peer", "mdb:index:VpcPeering"],
    ["reads", "mdb:index:ReadReplicaSet"],
  ]);
  const service = registered.find((r) => r.name === "db")!;
  expect(service.inputs).toMatchObject({ cpuMillis: 1000, vpcId: "net-id" });
  // The engine names it (the plugin's Check) and runs it: none of the dynamic face's hidden inputs.
  for (const r of registered)
    for (const hidden of [...Object.values(DYNAMIC_FACE_INPUTS), AUTO_NAMED_INPUT])
      expect(r.inputs).not.toHaveProperty(hidden);
  // Rows that are the id are known at once, as in the dynamic classes.
  expect(await new Promise((resolve) => vpc.vpcId.apply(resolve))).toBe("net-id");
});

it("a read replica set's password follows its service's, as a secret, as on the main entry", async () => {
  const db = new native.Service("db", {
    serviceType: "POSTGRES",
    regionCode: "us-east-1",
    cpuMillis: 1000,
    memoryGbs: 4,
    password: pulumi.secret("Db-Password-2046"),
  });
  const reads = new native.ReadReplicaSet("reads", {
    serviceId: db.serviceId,
    nodes: 1,
    cpuMillis: 500,
    memoryGbs: 2,
  });
  expect(await pulumi.isSecret(reads.password)).toBe(true);
  await settle();
  expect(registered.find((r) => r.name === "reads")!.inputs).toHaveProperty("password");
});

it("ProductionDatabase is the main entry's component with native children", async () => {
  const prod = new native.ProductionDatabase("orders", {
    regionCode: "us-east-1",
    cpuMillis: 2000,
    memoryGbs: 8,
    cidr: "10.60.0.0/16",
    readReplicaSets: 1,
  });
  expect(prod).toBeInstanceOf(main.ProductionDatabase);
  await settle();
  expect(registered.map((r) => [r.name, r.type]).sort()).toEqual([
    ["orders", "mdb:index:ProductionDatabase"],
    ["orders-db", "mdb:index:Service"],
    ["orders-reads-1", "mdb:index:ReadReplicaSet"],
    ["orders-vpc", "mdb:index:Vpc"],
  ]);
});

it("Provider registers the plugin's explicit provider: its settings as text, the secret key secret; the classes take it", async () => {
  const prod = new native.Provider("prod", {
    apiUrl: "https://api.example.com",
    publicKey: "pk",
    secretKey: "sk-value",
    unexpectedStatusMs: 60000,
    adoptExisting: false,
  });
  const net = new native.Vpc("net", { cidr: "10.0.0.0/16", regionCode: "us-east-1" }, { provider: prod });
  await settle();
  const registeredProvider = registered.find((r) => r.name === "prod");
  expect(registeredProvider?.type).toBe("pulumi:providers:mdb");
  expect(registeredProvider?.inputs).toEqual({
    apiUrl: "https://api.example.com",
    publicKey: "pk",
    // Secret: the engine keeps it encrypted in the state.
    secretKey: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "sk-value" },
    unexpectedStatusMs: "60000",
    adoptExisting: "false",
  });
  expect(registered.find((r) => r.name === "net")?.provider).toMatch(
    /::pulumi:providers:mdb::prod::prod-id$/,
  );
  expect(native.Provider.isInstance(prod)).toBe(true);
  expect(native.Provider.isInstance(net)).toBe(false);
});
