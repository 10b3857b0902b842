// One service, as a user who turns settings on and off from stack config.
const pulumi = require("@pulumi/pulumi");
const mdb = require("pulumi-managed-db");

const config = new pulumi.Config();
const db = new mdb.Service("db", {
  name: "bad-db",
  serviceType: "POSTGRES",
  regionCode: config.get("regionCode") || "us-east-1",
  cpuMillis: config.get("size") === "shared" ? "shared" : 1000,
  memoryGbs: config.get("size") === "shared" ? "shared" : 4,
  connectionPooler: config.getBoolean("pooler") || false,
  deletionProtection: config.getBoolean("protect") || false,
});

exports.serviceId = db.serviceId;
