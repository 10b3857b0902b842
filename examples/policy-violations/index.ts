// Breaks every mandatory policy of the pack in policy/, once each, to show what
// `pulumi preview --policy-pack <path to policy>` reports. Preview it; never deploy it.
// Every value the policies judge is a literal, so it is known at preview.
import * as mdb from "pulumi-managed-db";

// mdb-prod-service-ha, mdb-prod-service-vpc, mdb-prod-service-protected:
// a PROD service with no HA replica, no VPC, and neither `deletionProtection` nor `protect`.
const orders = new mdb.Service("orders-db", {
  name: "orders-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  environment: "PROD",
});

// mdb-prod-replica-set-environment: a DEV replica set of that PROD service. Its serviceId is
// unknown at preview; the policy finds the service through the engine's property dependencies.
new mdb.ReadReplicaSet("orders-reads", {
  serviceId: orders.serviceId,
  name: "orders-reads",
  nodes: 1,
  cpuMillis: 1000,
  memoryGbs: 4,
  environment: "DEV",
});

// mdb-allowed-regions: a region outside the allowed list.
new mdb.Service("faraway-db", {
  name: "faraway-db",
  serviceType: "POSTGRES",
  regionCode: "mars-north-1",
  cpuMillis: 500,
  memoryGbs: 2,
});

// mdb-vpc-cidr: a public (not RFC 1918) block, and a block larger than /16.
new mdb.Vpc("public-vpc", { name: "public-vpc", cidr: "8.8.0.0/16", regionCode: "us-east-1" });
new mdb.Vpc("huge-vpc", { name: "huge-vpc", cidr: "172.16.0.0/12", regionCode: "us-east-1" });

// mdb-vpc-cidr-no-overlap: two VPCs sharing addresses (10.1.128.0/17 is inside 10.1.0.0/16).
new mdb.Vpc("apps-vpc", { name: "apps-vpc", cidr: "10.1.0.0/16", regionCode: "us-east-1" });
new mdb.Vpc("batch-vpc", { name: "batch-vpc", cidr: "10.1.128.0/17", regionCode: "us-east-1" });
