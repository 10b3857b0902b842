// The program of the fault matrix (test/e2e/fault-matrix-harness.ts walks it; what it declares
// is `Spec` in test/e2e/fault-matrix-life.ts): every resource kind, as `spec.json` beside this
// file declares them, so a test walks a life by rewriting that file between runs. Plain
// JavaScript, so a run starts without compiling anything.
"use strict";
const fs = require("fs");
const path = require("path");
const mdb = require("pulumi-managed-db");

const spec = JSON.parse(fs.readFileSync(path.join(__dirname, "spec.json"), "utf8"));

const vpcs = {};
for (const [key, vpc] of Object.entries(spec.vpcs ?? {})) {
  vpcs[key] = new mdb.Vpc(key, { name: vpc.name, cidr: vpc.cidr, regionCode: "us-east-1" });
}

if (spec.service) {
  const s = spec.service;
  const db = new mdb.Service("db", {
    name: s.name,
    serviceType: s.serviceType,
    regionCode: "us-east-1",
    cpuMillis: s.cpuMillis,
    memoryGbs: s.memoryGbs,
    replicaCount: s.replicaCount,
    connectionPooler: s.pooler,
    environment: s.environment,
    password: s.password === undefined ? undefined : require("@pulumi/pulumi").secret(s.password),
    paused: s.paused,
    vpcId: s.vpc ? vpcs[s.vpc].vpcId : undefined,
    finalFork: s.finalFork,
  });
  if (spec.reads) {
    const r = spec.reads;
    new mdb.ReadReplicaSet("reads", {
      serviceId: db.serviceId,
      name: r.name,
      nodes: r.nodes,
      cpuMillis: r.cpuMillis,
      memoryGbs: r.memoryGbs,
      connectionPooler: r.pooler,
      environment: r.environment,
    });
  }
}

if (spec.peering) {
  new mdb.VpcPeering("peer", {
    vpcId: vpcs[spec.peering.vpc].vpcId,
    peerAccountId: "123456789012",
    peerRegionCode: "us-east-1",
    peerVpcId: spec.peering.peerVpcId,
  });
}
