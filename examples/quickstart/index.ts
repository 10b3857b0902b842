// Quickstart: a VPC, a TimescaleDB service attached to it with a connection pooler and one
// HA replica, a read replica set, and a peering to another account's VPC.
// Every size and switch can be changed with `pulumi config set <key> <value>`.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();
const region = config.get("region") ?? "us-east-1";

const vpc = new mdb.Vpc("network", {
  name: config.get("vpcName") ?? "quickstart-vpc",
  cidr: config.get("vpcCidr") ?? "10.42.0.0/16",
  regionCode: region,
});

const db = new mdb.Service("db", {
  name: config.get("serviceName") ?? "quickstart-db",
  serviceType: (config.get("serviceType") as "TIMESERIESDB" | "POSTGRES" | "VECTOR") ?? "TIMESERIESDB",
  regionCode: region,
  cpuMillis: config.getNumber("cpuMillis") ?? 1000,
  memoryGbs: config.getNumber("memoryGbs") ?? 4,
  replicaCount: config.getNumber("replicaCount") ?? 1,
  environment: (config.get("environment") as "PROD" | "DEV") ?? "DEV",
  connectionPooler: config.getBoolean("connectionPooler") ?? true,
  paused: config.getBoolean("paused") ?? false,
  password: config.getSecret("dbPassword"),
  vpcId: vpc.vpcId,
});

const reads = new mdb.ReadReplicaSet("reads", {
  serviceId: db.serviceId,
  name: "quickstart-reads",
  nodes: config.getNumber("replicaNodes") ?? 1,
  cpuMillis: 1000,
  memoryGbs: 4,
});

const peering = new mdb.VpcPeering("peer", {
  vpcId: vpc.vpcId,
  peerAccountId: config.get("peerAccountId") ?? "123456789012",
  peerRegionCode: region,
  peerVpcId: config.get("peerVpcId") ?? "vpc-0a1b2c3d",
});

export const serviceId = db.serviceId;
export const endpoint = db.endpoint;
export const poolerEndpoint = db.poolerEndpoint;
export const vpcEndpoint = db.vpcEndpoint;
export const replicaEndpoint = reads.endpoint;
export const peeringStatus = peering.status;
export const initialPassword = pulumi.secret(db.initialPassword);
// `psql "$(pulumi stack output connectionUri --show-secrets)"`: against `mdb-emulator --databases`
// (as `npm run demo` runs it), a real PostgreSQL server answers.
export const connectionUri = db.connectionUri;
