// A service and its read replica set (whose password follows the service's), from the package's
// main entry (the dynamic classes) or, with `entry: native`, from pulumi-managed-db/native (the
// same classes registering mdb:index:*): a stack moves from one to the other by its import alone.
import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "pulumi-managed-db";
import * as native from "pulumi-managed-db/native";

const config = new pulumi.Config();
const mdb = config.get("entry") === "native" ? native : dynamic;
const region = "us-east-1";

const db = new mdb.Service(
  "db",
  {
    serviceType: "POSTGRES",
    regionCode: region,
    cpuMillis: config.getNumber("cpuMillis") ?? 1000,
    memoryGbs: 4,
    password: config.requireSecret("dbPassword"),
  },
  { protect: true },
);
const reads = new mdb.ReadReplicaSet("reads", {
  serviceId: db.serviceId,
  nodes: 1,
  cpuMillis: 1000,
  memoryGbs: 4,
});

// With `providerApiUrl` set (native only): a VPC through an explicit provider whose settings are
// its own arguments, not the stack's.
const providerApiUrl = config.get("providerApiUrl");
if (mdb === native && providerApiUrl) {
  const own = new native.Provider("own", {
    apiUrl: providerApiUrl,
    publicKey: config.require("providerPublicKey"),
    secretKey: config.requireSecret("providerSecretKey"),
    unexpectedStatusMs: 60000,
  });
  new native.Vpc("own-net", { cidr: "10.9.0.0/16", regionCode: region }, { provider: own });
}

export const serviceId = db.serviceId;
export const replicaSetId = reads.replicaSetId;
export const replicaUri = reads.connectionUri;
