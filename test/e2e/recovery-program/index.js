// The program of the recovery tests: `groups` (default 1) groups of a VPC, a service attached
// to it with the connection pooler, a read replica set on the service and a peering of the
// VPC. With `named` true every VPC and service gets an explicit name; otherwise the names are
// generated. `cpuMillis` (default 500) sizes the services. Plain JavaScript, so a run starts
// without compiling anything; on the native face its require names the generated SDK instead.
"use strict";
const pulumi = require("@pulumi/pulumi");
const mdb = require("pulumi-managed-db");

const config = new pulumi.Config();
const groups = config.getNumber("groups") ?? 1;
const named = config.getBoolean("named") ?? false;

for (let i = 0; i < groups; i++) {
  const vpc = new mdb.Vpc(`vpc-${i}`, {
    name: named ? `recovery-vpc-${i}` : undefined,
    cidr: `10.${50 + i}.0.0/16`,
    regionCode: "us-east-1",
  });
  const db = new mdb.Service(`db-${i}`, {
    name: named ? `recovery-db-${i}` : undefined,
    serviceType: "POSTGRES",
    regionCode: "us-east-1",
    cpuMillis: config.getNumber("cpuMillis") ?? 500,
    memoryGbs: 2,
    connectionPooler: true,
    vpcId: vpc.vpcId,
  });
  new mdb.ReadReplicaSet(`reads-${i}`, { serviceId: db.serviceId, nodes: 1, cpuMillis: 500, memoryGbs: 2 });
  new mdb.VpcPeering(`peer-${i}`, {
    vpcId: vpc.vpcId,
    peerAccountId: "123456789012",
    peerRegionCode: "us-east-1",
    peerVpcId: `vpc-peer${i}`,
  });
}
