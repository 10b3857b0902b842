/**
 * `ProductionDatabase` under `pulumi.runtime` mocks: which children it declares, with which
 * inputs and options (the defaults an SRE chose, or what the args say), which shapes of args
 * it refuses, and that its connection URIs are secret.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  ProductionDatabase,
  type ProductionDatabaseArgs,
} from "../../provider/components/production-database";
import { SECRET_SIG, SIG_KEY } from "../../provider/pulumi-contract/sentinels";
import { type Registered, mockEngine } from "../helpers/mock-engine";

/** A secret, as the mocked engine receives it. */
const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

let registered: Registered[];

beforeEach(async () => {
  registered = await mockEngine("production-database", ({ type, name }) => {
    // The provider's outputs, as far as these tests read them.
    const uri = `postgres://tsdbadmin:pw-${name}@${name}.example:5432/tsdb?sslmode=require`;
    return type.endsWith(":Service")
      ? {
          connectionUri: uri,
          poolerConnectionUri: uri.replace(":5432", ":6432"),
          initialPassword: "initial-pw",
        }
      : type.endsWith(":ReadReplicaSet")
        ? { connectionUri: uri }
        : {};
  });
});

const BASE: ProductionDatabaseArgs = {
  regionCode: "eu-west-1",
  cpuMillis: 2000,
  memoryGbs: 8,
  cidr: "10.60.0.0/16",
};

/** The value of an output, once known. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

/** Builds the component, waits for its children to register, and returns them by name. */
async function build(
  args: ProductionDatabaseArgs,
  opts: pulumi.ComponentResourceOptions = {},
): Promise<{ db: ProductionDatabase; children: Record<string, Registered> }> {
  const db = new ProductionDatabase("orders", args, opts);
  await valueOf(pulumi.all([db.service.urn, ...db.replicaSets.map((r) => r.urn), db.peering?.urn ?? ""]));
  return { db, children: Object.fromEntries(registered.map((r) => [r.name, r])) };
}

describe("defaults", () => {
  it("a VPC, a PROD service with a sync HA standby, the pooler and protection, one replica set", async () => {
    const { children } = await build(BASE);
    expect(Object.fromEntries(Object.values(children).map((c) => [c.name, c.type]))).toEqual({
      orders: "mdb:index:ProductionDatabase",
      "orders-vpc": "pulumi-nodejs:dynamic/mdb:Vpc",
      "orders-db": "pulumi-nodejs:dynamic/mdb:Service",
      "orders-reads-1": "pulumi-nodejs:dynamic/mdb:ReadReplicaSet",
    });
    expect(children["orders-vpc"].inputs).toMatchObject({
      cidr: "10.60.0.0/16",
      regionCode: "eu-west-1",
      deletionProtection: true,
    });
    expect(children["orders-db"].inputs).toMatchObject({
      serviceType: "POSTGRES",
      regionCode: "eu-west-1",
      cpuMillis: 2000,
      memoryGbs: 8,
      replicaCount: 1,
      syncReplicaCount: 1,
      environment: "PROD",
      connectionPooler: true,
      vpcId: "orders-vpc-id",
      deletionProtection: true,
    });
    // Replica sets sized like the service, two nodes, PROD like the service they replicate.
    expect(children["orders-reads-1"].inputs).toMatchObject({
      serviceId: "orders-db-id",
      nodes: 2,
      cpuMillis: 2000,
      memoryGbs: 8,
      environment: "PROD",
    });
    // Its connection URI uses the service's credentials: the initial password (followed, as a
    // secret: nothing restated), the default names.
    expect(children["orders-reads-1"].inputs.password).toEqual(secret("initial-pw"));
  });

  it("protect is set on every resource, so that a destroy refuses before it deletes anything", async () => {
    const protect: Record<string, boolean | undefined> = {};
    const transformations = [
      (args: pulumi.ResourceTransformationArgs) => {
        protect[args.name] = args.opts.protect;
        return undefined;
      },
    ];
    const peering = { peerAccountId: "123456789012", peerVpcId: "vpc-peer" };
    await build({ ...BASE, peering }, { transformations });
    expect(protect).toMatchObject({
      "orders-vpc": true,
      "orders-db": true,
      "orders-reads-1": true,
      "orders-peering": true,
    });

    for (const key of Object.keys(protect)) delete protect[key];
    registered.length = 0;
    const { children } = await build({ ...BASE, peering, deletionProtection: false }, { transformations });
    // No protect set, so the children inherit the component's own `protect` option.
    expect(protect).toEqual({
      orders: undefined,
      "orders-vpc": undefined,
      "orders-db": undefined,
      "orders-reads-1": undefined,
      "orders-peering": undefined,
    });
    expect(children["orders-db"].inputs.deletionProtection).toBe(false);
    expect(children["orders-vpc"].inputs.deletionProtection).toBe(false);
  });
});

describe("args", () => {
  it("an existing vpcId: no VPC child; the service and the peering use it; the peer region defaults", async () => {
    const { db, children } = await build({
      ...BASE,
      cidr: undefined,
      vpcId: "vpc-existing",
      peering: { peerAccountId: "123456789012", peerVpcId: "vpc-peer" },
    });
    expect(db.vpc).toBeUndefined();
    expect(children["orders-vpc"]).toBeUndefined();
    expect(await valueOf(db.vpcId)).toBe("vpc-existing");
    expect(children["orders-db"].inputs.vpcId).toBe("vpc-existing");
    expect(children["orders-peering"].inputs).toMatchObject({
      vpcId: "vpc-existing",
      peerAccountId: "123456789012",
      peerRegionCode: "eu-west-1",
      peerVpcId: "vpc-peer",
    });
  });

  it("readReplicaSets sets how many sets; their size and the HA settings are the program's", async () => {
    const { db, children } = await build({
      ...BASE,
      readReplicaSets: 3,
      readReplicaNodes: 1,
      readReplicaCpuMillis: 1000,
      readReplicaMemoryGbs: 4,
      replicaCount: 2,
      syncReplicaCount: 0,
      serviceType: "TIMESERIESDB",
      password: "chosen-password",
      username: "app",
      databaseName: "orders",
    });
    expect(db.replicaSets).toHaveLength(3);
    for (const n of [1, 2, 3])
      expect(children[`orders-reads-${n}`].inputs).toMatchObject({
        nodes: 1,
        cpuMillis: 1000,
        memoryGbs: 4,
        password: secret("chosen-password"),
        username: "app",
        databaseName: "orders",
      });
    expect(children["orders-db"].inputs).toMatchObject({
      replicaCount: 2,
      syncReplicaCount: 0,
      serviceType: "TIMESERIESDB",
      password: "chosen-password",
      username: "app",
      databaseName: "orders",
    });
    expect((await build({ ...BASE, readReplicaSets: 0 })).db.replicaSets).toEqual([]);
  });

  it.each<[string, Partial<ProductionDatabaseArgs>, RegExp]>([
    ["both cidr and vpcId", { vpcId: "vpc-1" }, /give exactly one of cidr .* and vpcId/],
    ["neither cidr nor vpcId", { cidr: undefined }, /give exactly one of cidr .* and vpcId/],
    ["a negative count of replica sets", { readReplicaSets: -1 }, /readReplicaSets must be a whole number/],
    [
      "a fractional count of replica sets",
      { readReplicaSets: 1.5 },
      /readReplicaSets must be a whole number/,
    ],
    ["no HA replica", { replicaCount: 0 }, /replicaCount must be at least 1 for HA \(got 0\)/],
    // A size the service's or replica set's own check would refuse, said before any child exists.
    [
      "a CPU the service refuses",
      { cpuMillis: 300 },
      /cpuMillis must be a multiple of 250 from 250 to 64000 \(got 300\)$/,
    ],
    [
      "a memory the replica sets refuse",
      { readReplicaMemoryGbs: 2000 },
      /readReplicaMemoryGbs must be .*1024.* \(got 2000\)$/,
    ],
    [
      "more nodes than a replica set has",
      { readReplicaNodes: 11 },
      /readReplicaNodes must be .*10.* \(got 11\)$/,
    ],
    ["more HA replicas than a service has", { replicaCount: 3 }, /replicaCount must be .*2.* \(got 3\)$/],
    [
      "a service type the API does not have",
      { serviceType: "MYSQL" as never },
      /serviceType must be one of TIMESERIESDB, POSTGRES, VECTOR/,
    ],
  ])("refuses %s, naming the component", (_name, change, message) => {
    expect(() => new ProductionDatabase("orders", { ...BASE, ...change })).toThrow(message);
    expect(() => new ProductionDatabase("orders", { ...BASE, ...change })).toThrow(
      /^ProductionDatabase "orders": /,
    );
  });
});

describe("outputs", () => {
  it("the connection URIs of the service, its pooler and the replica sets, all secret", async () => {
    const { db } = await build({ ...BASE, readReplicaSets: 2 });
    const outputs: pulumi.Output<unknown>[] = [
      db.connectionUri,
      db.poolerConnectionUri,
      db.readReplicaConnectionUris,
    ];
    for (const output of outputs) expect(await pulumi.isSecret(output)).toBe(true);
    expect(await valueOf(db.connectionUri)).toBe(
      "postgres://tsdbadmin:pw-orders-db@orders-db.example:5432/tsdb?sslmode=require",
    );
    expect(await valueOf(db.poolerConnectionUri)).toMatch(/@orders-db\.example:6432\//);
    expect(await valueOf(db.readReplicaConnectionUris)).toEqual([
      expect.stringMatching(/@orders-reads-1\.example:5432\//),
      expect.stringMatching(/@orders-reads-2\.example:5432\//),
    ]);
  });
});
