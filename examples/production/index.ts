// A production database in one component: a VPC, a PROD service with a synchronous HA
// standby and the connection pooler, a read replica set, a peering to another account's VPC,
// and deletion protection over all of it. Sizes and switches come from stack config.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();
const region = config.get("region") ?? "us-east-1";

const db = new mdb.ProductionDatabase("orders", {
  regionCode: region,
  cpuMillis: config.getNumber("cpuMillis") ?? 2000,
  memoryGbs: config.getNumber("memoryGbs") ?? 8,
  cidr: config.get("cidr") ?? "10.60.0.0/16",
  readReplicaSets: config.getNumber("readReplicaSets") ?? 1,
  peering: {
    peerAccountId: config.get("peerAccountId") ?? "123456789012",
    peerVpcId: config.get("peerVpcId") ?? "vpc-0a1b2c3d",
  },
  // To delete: `pulumi config set deletionProtection false && pulumi up`, then destroy.
  deletionProtection: config.getBoolean("deletionProtection") ?? true,
});

export const serviceId = db.service.serviceId;
export const vpcId = db.vpcId;
export const connectionUri = db.connectionUri;
export const poolerConnectionUri = db.poolerConnectionUri;
export const readReplicaConnectionUris = db.readReplicaConnectionUris;
// A function in its Output form, read once the replica sets exist.
export const readReplicaSets = mdb
  .listReadReplicaSetsOutput({ serviceId: db.service.serviceId }, { dependsOn: db.replicaSets })
  .apply((sets) => sets.map((s) => ({ name: s.name, status: s.status, nodes: s.nodes })));
