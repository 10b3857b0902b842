/**
 * What the four resources send, as it goes over the wire, in a full life against the emulator
 * speaking the vendor's current words (which validates requests as the current document types
 * them): create, resize, HA, environment, pooler, VPC attach, replica set create and resize, VPC
 * rename, detach, fork, peering, destroy. Every request body is then checked against each
 * published version's facts (api/): the current document's, and the spec-era one's except the
 * type of the resize sizes (the spec-era document typed them integers; the client sends strings).
 *
 * The emulator's request log (`GET /_emulator/requests`) names each call but keeps no body, so a
 * recording proxy between the provider and the emulator keeps the bodies exactly as sent.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { OPERATIONS, OPERATION_IDS, type OperationId } from "../../api/operations";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { drive, pointProviderAt, type ResourceState } from "../helpers/provider";
import { PROVIDERS } from "../../provider/host";
import { requestFacts } from "./wire-facts";

jest.setTimeout(60_000);

/** One request as it went over the wire. */
interface SentRequest {
  method: string;
  path: string;
  body?: unknown;
}

let emu: TestEmulator;
let proxy: http.Server;
let restore: () => void;
const sent: SentRequest[] = [];

/** A proxy to `target` that records each request's method, path and JSON body. */
function recordingProxy(target: string): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "").split("?")[0];
      sent.push({ method: req.method ?? "", path, ...(text ? { body: JSON.parse(text) } : {}) });
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k)),
      ) as Record<string, string>;
      fetch(`${target}${req.url}`, { method: req.method, headers, body: text || undefined })
        .then(async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer());
          const type = answer.headers.get("content-type");
          const retry = answer.headers.get("retry-after");
          res.writeHead(answer.status, {
            ...(type ? { "content-type": type } : {}),
            ...(retry ? { "retry-after": retry } : {}),
          });
          res.end(body);
        })
        .catch(() => res.destroy());
    });
  });
}

beforeAll(async () => {
  emu = await startTestEmulator({ dialect: "vendor" });
  proxy = recordingProxy(emu.origin);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const port = (proxy.address() as AddressInfo).port;
  restore = pointProviderAt({ ...emu, url: emu.url.replace(emu.origin, `http://127.0.0.1:${port}`) });
});

afterAll(async () => {
  restore?.();
  await new Promise((resolve) => proxy?.close(resolve));
  await emu?.close();
});

/** The operation a request called, by method and path template. */
function operationOf(request: SentRequest): OperationId {
  const id = OPERATION_IDS.find(
    (op) =>
      OPERATIONS[op].method === request.method &&
      new RegExp(`^/public/api/v1${OPERATIONS[op].path.replace(/\{\w+\}/g, "[^/]+")}$`).test(request.path),
  );
  if (!id) throw new Error(`no operation is ${request.method} ${request.path}`);
  return id;
}

const services = drive(PROVIDERS.service);
const replicaSets = drive(PROVIDERS["read-replica-set"]);
const vpcs = drive(PROVIDERS.vpc);
const peerings = drive(PROVIDERS["vpc-peering"]);

/** The whole life, in the order a user would make it. */
async function fullLife(): Promise<void> {
  const net = { name: "wire-net", cidr: "10.60.0.0/16", regionCode: "us-east-1" };
  let vpc: ResourceState = await vpcs.create(net);
  const base = {
    name: "wire-db",
    serviceType: "TIMESERIESDB",
    regionCode: "us-east-1",
    cpuMillis: 1000,
    memoryGbs: 4,
  };
  let db: ResourceState = await services.create(base);
  let want: Record<string, unknown> = { ...base, cpuMillis: 2000 };
  db = (await services.update(db, want)).state;
  want = { ...want, replicaCount: 1 };
  db = (await services.update(db, want)).state;
  want = { ...want, environment: "PROD" };
  db = (await services.update(db, want)).state;
  want = { ...want, connectionPooler: true };
  db = (await services.update(db, want)).state;
  want = { ...want, vpcId: vpc.id };
  db = (await services.update(db, want)).state;
  want = { ...want, name: "wire-db-2" };
  db = (await services.update(db, want)).state;
  const set = { serviceId: db.id, name: "wire-reads", nodes: 1, cpuMillis: 1000, memoryGbs: 4 };
  let reads: ResourceState = await replicaSets.create(set);
  reads = (await replicaSets.update(reads, { ...set, nodes: 2 })).state;
  reads = (await replicaSets.update(reads, { ...set, nodes: 2, memoryGbs: 8 })).state;
  vpc = (await vpcs.update(vpc, { ...net, name: "wire-net-2" })).state;
  const { vpcId: _detached, ...rest } = want;
  db = (await services.update(db, rest)).state;
  const fork = await services.create({
    ...base,
    name: "wire-fork",
    forkFrom: { serviceId: db.id, strategy: "NOW" },
  });
  const peer = await peerings.create({
    vpcId: vpc.id,
    peerAccountId: "123456789012",
    peerRegionCode: "us-east-1",
    peerVpcId: "vpc-0peer",
  });
  await peerings.delete(peer);
  await replicaSets.delete(reads);
  await services.delete(fork);
  await services.delete(db);
  await vpcs.delete(vpc);
}

describe("every request of a full life", () => {
  let bodies: Array<{ op: OperationId; body: unknown }>;

  beforeAll(async () => {
    await fullLife();
    bodies = sent.filter((r) => r.method !== "GET").map((r) => ({ op: operationOf(r), body: r.body }));
  });

  it("covers every kind of change the resources make", () => {
    const made = new Set(bodies.map((b) => b.op));
    for (const op of [
      "createVpc",
      "createService",
      "resizeService",
      "setHA",
      "setServiceEnvironment",
      "enablePooler",
      "attachToVpc",
      "renameService",
      "createReplicaSet",
      "resizeReplicaSet",
      "renameVpc",
      "detachFromVpc",
      "forkService",
      "createPeering",
      "deletePeering",
      "deleteReplicaSet",
      "deleteService",
      "deleteVpc",
    ] as OperationId[])
      expect(made).toContain(op);
  });

  it("sends sizes as strings of digits, both on every resize, a strategy on every fork, a region on every VPC", () => {
    for (const { op, body } of bodies) {
      const b = body as Record<string, unknown>;
      if (["createService", "forkService", "resizeService", "resizeReplicaSet"].includes(op))
        for (const size of ["cpu_millis", "memory_gbs"])
          if (b[size] !== undefined)
            expect([op, size, b[size]]).toEqual([op, size, expect.stringMatching(/^\d+$/)]);
      if (op === "resizeService" || op === "resizeReplicaSet") {
        expect(b).toHaveProperty("cpu_millis");
        expect(b).toHaveProperty("memory_gbs");
      }
      if (op === "forkService") expect(b.fork_strategy).toBe("NOW");
      if (op === "createVpc") expect(b.region_code).toBe("us-east-1");
    }
  });

  it.each(["current", "specEra"] as const)(
    "every body validates against the %s version's facts",
    (version) => {
      const refused = bodies.flatMap(({ op, body }) => {
        const problem = requestFacts(version, op, body);
        return problem ? [`${op}: ${problem}`] : [];
      });
      expect(refused).toEqual([]);
    },
  );
});
