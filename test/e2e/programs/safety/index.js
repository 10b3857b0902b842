// One service, as a user who turns settings on and off from stack config.
const pulumi = require("@pulumi/pulumi");
const mdb = require("pulumi-managed-db");

const config = new pulumi.Config();
const db = new mdb.Service("db", {
  name: "bad-db",
  serviceType: "POSTGRES",
  regionCode: config.get("regionCode") || "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  connectionPooler: config.getBoolean("pooler") || false,
  deletionProtection: config.getBoolean("protect") || false,
});

exports.serviceId = db.serviceId;
