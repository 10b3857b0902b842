// One program, two stacks: `prod` and `dev` differ only in their Pulumi.<stack>.yaml.
// Production gets HA, a VPC and protection (what the policy pack asks for); dev stays small.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();
const environment = config.require("environment") as "PROD" | "DEV";
const region = config.get("region") ?? "us-east-1";
const isProd = environment === "PROD";

const vpc = isProd
  ? new mdb.Vpc("network", {
      name: `app-${pulumi.getStack()}`,
      cidr: config.require("vpcCidr"),
      regionCode: region,
    })
  : undefined;

const db = new mdb.Service(
  "app-db",
  {
    name: `app-db-${pulumi.getStack()}`,
    serviceType: "POSTGRES",
    regionCode: region,
    cpuMillis: config.requireNumber("cpuMillis"),
    memoryGbs: config.requireNumber("memoryGbs"),
    replicaCount: config.getNumber("replicaCount") ?? 0,
    environment,
    connectionPooler: isProd,
    vpcId: vpc?.vpcId,
  },
  { protect: config.getBoolean("protect") ?? isProd },
);

export const endpoint = db.endpoint;
export const environmentTag = db.environment;
