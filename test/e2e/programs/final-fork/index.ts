// One service with `finalFork`, as a user who wants a last copy kept when the stack goes.
import * as mdb from "pulumi-managed-db";

const db = new mdb.Service("orders", {
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
  finalFork: true,
});

export const serviceId = db.serviceId;
export const name = db.name;
// A function in its Output form, finding the service by its name once it exists.
export const foundByName = mdb.getServiceOutput({ name: db.name }).serviceId;
