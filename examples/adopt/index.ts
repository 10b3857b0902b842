// Adopts a VPC and a service that already exist (made in the console, or by a script) with
// the `import` resource option: the first `pulumi up` takes them over without creating
// anything, and fails, naming each difference, when the program does not describe them as
// they are. From then on they are managed like any other resource, destroy included.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();
const region = config.get("region") ?? "us-east-1";

const vpc = new mdb.Vpc(
  "network",
  {
    name: config.require("vpcName"),
    cidr: config.require("vpcCidr"),
    regionCode: region,
  },
  { import: config.require("vpcId") },
);

const db = new mdb.Service(
  "db",
  {
    name: config.require("serviceName"),
    serviceType: (config.get("serviceType") as "TIMESERIESDB" | "POSTGRES" | "VECTOR") ?? "POSTGRES",
    regionCode: region,
    cpuMillis: config.requireNumber("cpuMillis"),
    memoryGbs: config.requireNumber("memoryGbs"),
    vpcId: vpc.vpcId,
  },
  { import: config.require("serviceId") },
);

export const vpcId = vpc.vpcId;
export const vpcName = vpc.name;
export const serviceId = db.serviceId;
export const endpoint = db.endpoint;
export const vpcEndpoint = db.vpcEndpoint;
