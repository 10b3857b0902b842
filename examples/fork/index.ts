// A source service, and two forks of it: one from its last snapshot, one as of now.
// A fork keeps the source's type and region; it may be sized differently.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();

const source = new mdb.Service("source", {
  name: "fork-source",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
});

const fromSnapshot = new mdb.Service("from-snapshot", {
  name: "fork-from-snapshot",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  forkFrom: { serviceId: source.serviceId, strategy: "LAST_SNAPSHOT" },
});

const asOfNow = new mdb.Service("as-of-now", {
  name: "fork-as-of-now",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: config.getNumber("forkCpuMillis") ?? 500,
  memoryGbs: 2,
  forkFrom: { serviceId: source.serviceId, strategy: "NOW" },
});

export const sourceId = source.serviceId;
export const snapshotForkOf = fromSnapshot.forkedFrom;
export const nowForkOf = asOfNow.forkedFrom;
export const nowForkEndpoint = asOfNow.endpoint;
