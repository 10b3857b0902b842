// Every input of the README's "What a change does" table, set from config, so a test can
// change one at a time: two VPCs, a service attached to one of them, a second service with a
// read replica set, and a peering.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();
const region = "us-east-1";

const netA = new mdb.Vpc("net-a", {
  name: config.get("vpcName") ?? "pc-net-a",
  cidr: config.get("vpcCidr") ?? "10.50.0.0/16",
  regionCode: region,
});
const netB = new mdb.Vpc("net-b", { name: "pc-net-b", cidr: "10.51.0.0/16", regionCode: region });

const db = new mdb.Service("db", {
  name: config.get("serviceName") ?? "pc-db",
  serviceType: (config.get("serviceType") as "POSTGRES" | "VECTOR" | undefined) ?? "POSTGRES",
  regionCode: region,
  cpuMillis: config.getNumber("cpuMillis") ?? 1000,
  memoryGbs: config.getNumber("memoryGbs") ?? 4,
  replicaCount: config.getNumber("replicaCount") ?? 0,
  environment: (config.get("environment") as "PROD" | "DEV" | undefined) ?? "DEV",
  connectionPooler: config.getBoolean("connectionPooler") ?? true,
  paused: config.getBoolean("paused") ?? false,
  password: config.getSecret("dbPassword"),
  vpcId: config.get("vpc") === "b" ? netB.vpcId : netA.vpcId,
});

const base = new mdb.Service("base", {
  name: "pc-base",
  serviceType: "POSTGRES",
  regionCode: region,
  cpuMillis: 1000,
  memoryGbs: 4,
});

const reads = new mdb.ReadReplicaSet("reads", {
  serviceId: base.serviceId,
  name: config.get("readsName") ?? "pc-reads",
  nodes: config.getNumber("readsNodes") ?? 1,
  cpuMillis: 1000,
  memoryGbs: 4,
  environment: (config.get("readsEnvironment") as "PROD" | "DEV" | undefined) ?? "DEV",
  connectionPooler: config.getBoolean("readsPooler") ?? false,
});

const peer = new mdb.VpcPeering("peer", {
  vpcId: netB.vpcId,
  peerAccountId: config.get("peerAccountId") ?? "111122223333",
  peerRegionCode: region,
  peerVpcId: "vpc-0peer",
});

export const serviceId = db.serviceId;
export const replicaSetId = reads.replicaSetId;
export const peeringId = peer.peeringId;
