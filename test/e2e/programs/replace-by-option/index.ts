// A service of a name the program chose, which its author wants replaced, not changed in place,
// when its environment changes (Pulumi's replaceOnChanges option); its last copy is kept.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();

const db = new mdb.Service(
  "db",
  {
    name: "ledger",
    serviceType: "POSTGRES",
    regionCode: "us-east-1",
    cpuMillis: 1000,
    memoryGbs: 4,
    environment: config.get("environment") === "PROD" ? "PROD" : "DEV",
    finalFork: true,
  },
  { replaceOnChanges: ["environment"] },
);

export const serviceId = db.serviceId;
