// A service with the connection pooler and a read replica set; with `fork: true`, a fork of it
// as of now. Run against `mdb-emulator --databases`, every endpoint is a real PostgreSQL server:
// migrations/ is applied through `connectionUri`, and read back through the replica and the fork.
import * as pulumi from "@pulumi/pulumi";
import * as mdb from "pulumi-managed-db";

const config = new pulumi.Config();
const password = config.getSecret("dbPassword");

const db = new mdb.Service("db", {
  name: "app-db",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 500,
  memoryGbs: 2,
  connectionPooler: true,
  password,
  paused: config.getBoolean("paused") ?? false,
});

const reads = new mdb.ReadReplicaSet("reads", {
  serviceId: db.serviceId,
  name: "app-reads",
  nodes: 1,
  cpuMillis: 500,
  memoryGbs: 2,
  password: password ?? db.initialPassword.apply((p) => p ?? ""),
});

const copy = config.getBoolean("fork")
  ? new mdb.Service("copy", {
      name: "app-db-copy",
      serviceType: "POSTGRES",
      regionCode: "us-east-1",
      cpuMillis: 500,
      memoryGbs: 2,
      forkFrom: { serviceId: db.serviceId, strategy: "NOW" },
    })
  : undefined;

export const connectionUri = db.connectionUri;
export const poolerConnectionUri = db.poolerConnectionUri;
export const readerUri = reads.connectionUri;
export const forkUri = copy?.connectionUri;
export const endpoint = db.endpoint;
