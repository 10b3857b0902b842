// The package's resources as any language's program declares them through the native plugin
// `mdb` (here with pulumi.CustomResource, as a generated SDK does), each input from config; or,
// with `face: dynamic`, the dynamic Service a stack moves from, then (`face: moved`) the same
// service as mdb:index:Service with the alias that moves it; `face: production-dynamic`, a
// ProductionDatabase of the dynamic classes, then (`production-native`) the same component as the
// plugin builds it (a remote component, as a generated SDK declares it), with no alias written.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();
const face = config.get("face") ?? "native";
const region = "us-east-1";

/** A resource of a type the program knows only by its token. */
class Native extends pulumi.CustomResource {}

/** A resource of the plugin: `args`, and `outputs` the program reads. */
function native(
  type: string,
  name: string,
  args: Record<string, pulumi.Input<unknown>>,
  outputs: string[],
  opts?: pulumi.CustomResourceOptions,
): pulumi.CustomResource & Record<string, pulumi.Output<unknown>> {
  const props: Record<string, unknown> = { ...args };
  for (const output of outputs) if (!(output in props)) props[output] = undefined;
  return new Native(`mdb:index:${type}`, name, props, opts) as never;
}

const serviceArgs = {
  serviceType: "POSTGRES",
  regionCode: region,
  cpuMillis: config.getNumber("cpuMillis") ?? 1000,
  memoryGbs: 4,
  password: config.getSecret("dbPassword"),
};

/** The plugin's ProductionDatabase, as a generated SDK declares it: a remote component. */
class RemoteProductionDatabase extends pulumi.ComponentResource {
  declare readonly serviceId: pulumi.Output<string>;
  constructor(name: string, args: Record<string, unknown>) {
    super("mdb:index:ProductionDatabase", name, { ...args, serviceId: undefined }, {}, true);
  }
}

const production = {
  regionCode: region,
  cpuMillis: 1000,
  memoryGbs: 4,
  cidr: "10.61.0.0/16",
  replicaCount: 1,
  readReplicaSets: 1,
  readReplicaNodes: 1,
  deletionProtection: false,
};

if (face === "production-dynamic") {
  exports.serviceId = new mdb.ProductionDatabase("prod", production).service.serviceId;
} else if (face === "production-native") {
  exports.serviceId = new RemoteProductionDatabase("prod", production).serviceId;
} else if (face === "dynamic") {
  const db = new mdb.Service("db", serviceArgs as mdb.ServiceArgs, { protect: true });
  exports.serviceId = db.serviceId;
} else if (face === "moved") {
  const db = native("Service", "db", serviceArgs, ["serviceId"], {
    protect: true,
    aliases: [{ type: "pulumi-nodejs:dynamic/mdb:Service" }],
  });
  exports.serviceId = db.serviceId;
} else {
  const network = native("Vpc", "network", { cidr: "10.60.0.0/16", regionCode: region }, ["vpcId", "name"]);
  const db = native("Service", "db", { ...serviceArgs, vpcId: network.vpcId }, [
    "serviceId",
    "name",
    "endpoint",
    "initialPassword",
  ]);
  native("ReadReplicaSet", "reads", { serviceId: db.serviceId, nodes: 1, cpuMillis: 1000, memoryGbs: 4 }, []);
  native(
    "VpcPeering",
    "peer",
    {
      vpcId: network.vpcId,
      peerAccountId: "123456789012",
      peerRegionCode: region,
      peerVpcId: "vpc-0a1b2c3d",
    },
    ["status"],
  );
  const legacy = config.get("legacyName");
  if (legacy)
    native(
      "Service",
      "legacy",
      { name: legacy, serviceType: "POSTGRES", regionCode: region, cpuMillis: 1000, memoryGbs: 4 },
      [],
      {
        protect: true,
      },
    );
  if (config.getBoolean("typo")) native("Servce", "typo", {}, []);
  exports.serviceId = db.serviceId;
  exports.serviceName = db.name;
  exports.endpoint = db.endpoint;
  exports.initialPassword = db.initialPassword;
}
