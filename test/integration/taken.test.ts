/**
 * Taken at check: a new resource whose identity a record already in the API has (a name the
 * program chose, a peering to the same peer) fails check in the words its create refuses it with,
 * so `pulumi preview` says it and `up` does not make the program's other resources first and
 * then stop on this one. A generated name, the adoption switch, a resource already in the stack
 * and a parent this run created ask nothing; each collection is listed once per run.
 */
import { IMPORT_INPUT, RESOURCE_NAME_INPUT } from "../../provider/adapters/dynamic/hidden";
import type { ProviderImpl } from "../../provider/adapters/dynamic/provider";
import { AUTO_NAMED_INPUT } from "../../provider/kit/hidden";
import type { ResourceKind } from "../../provider/resources/registry";
import { ConfigRuntime } from "../../provider/runtime";
import type { TestEmulator } from "../helpers/emulator";
import { PROVIDER, type Props, describeCall, errorOf, useProviderEmulator } from "../helpers/provider";
import { providerWith } from "../helpers/runtime";

let emu: TestEmulator;
/** The runs' progress lines. */
const lines: string[] = [];
useProviderEmulator({}, (started) => (emu = started));
beforeEach(async () => {
  lines.length = 0;
  await emu.reset();
});
afterEach(() => {
  delete process.env.MDB_ADOPT_EXISTING;
});

/** One run: a provider per kind on one runtime, each configured as the provider host does. */
function newRun() {
  const runtime = new ConfigRuntime((line) => lines.push(line));
  const providers = new Map<ResourceKind, Promise<ProviderImpl>>();
  const of = (kind: ResourceKind) => {
    let provider = providers.get(kind);
    if (!provider) {
      const made = providerWith(kind, runtime);
      provider = Promise.resolve(made.configure?.({ config: undefined } as never)).then(() => made);
      providers.set(kind, provider);
    }
    return provider;
  };
  const given = (name: string, news: Props) => ({
    __provider: PROVIDER,
    [RESOURCE_NAME_INPUT]: name,
    ...news,
  });
  return {
    /** check of resource `name`: its failures, as `property: reason`. */
    async failures(kind: ResourceKind, name: string, news: Props, olds: Props = {}): Promise<string[]> {
      const result = await (await of(kind)).check(olds, given(name, news));
      return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
    },
    /** create of resource `name` with `news`, as if its check had passed. */
    async create(kind: ResourceKind, name: string, news: Props) {
      return (await of(kind)).create(given(name, news));
    },
    /** diff of resource `name`, of id `id` and state `olds`, against `news`. */
    async diff(kind: ResourceKind, name: string, id: string, olds: Props, news: Props) {
      return (await of(kind)).diff(id, olds, given(name, news));
    },
  };
}

/** The requests `action` made, as `METHOD /path`. */
async function requestsOf(action: () => Promise<unknown>): Promise<string[]> {
  await emu.clearRequests();
  await action();
  await new Promise((resolve) => setTimeout(resolve, 5));
  return (await emu.requests()).map((entry) => describeCall(emu, entry));
}

/** Makes a record through the API, as another stack or a person would; returns its id. */
async function made(collection: string, body: Props): Promise<string> {
  const answer = await emu.api<{ id?: string; service_id?: string }>(
    "POST",
    `${emu.projectPath}/${collection}`,
    body,
  );
  expect(answer.status).toBeLessThan(300);
  return (answer.body.service_id ?? answer.body.id) as string;
}

/** Makes a POSTGRES service `name` in us-east-1 through the API; returns its id. */
const madeService = (name: string) =>
  made("services", { name, region_code: "us-east-1", cpu_millis: 500, memory_gbs: 2 });

const service = {
  name: "orders",
  serviceType: "POSTGRES",
  regionCode: "us-east-1",
  cpuMillis: 1000,
  memoryGbs: 4,
};
const SWITCH =
  "To adopt every record of the same identity instead (after an interrupted run), set mdb:adoptExisting to " +
  "true: `pulumi config set mdb:adoptExisting true`, or MDB_ADOPT_EXISTING=true for one run";

describe("services", () => {
  let existing: string;
  beforeEach(async () => {
    existing = await madeService("orders");
  });

  it("a new service named as one the project has fails check, naming name, in the create's words", async () => {
    const refusal =
      `a service named "orders" (POSTGRES, us-east-1) already exists in project ${emu.credentials.projectId} ` +
      `with id ${existing}. Adopt it with the resource option { import: "${existing}" }, or choose another name. ${SWITCH}`;
    // The check cannot tell a new resource from `pulumi up --replace` of the record's own, and says what works then.
    const replaced =
      "If that record is this resource's own (`pulumi up --replace`, or a resource `pulumi state taint` marked: " +
      "Pulumi replaces it without asking the provider, and the new record cannot be made beside the old one), " +
      "make it again in two steps: `pulumi destroy --target <its URN>`, then `pulumi up`";
    expect(await newRun().failures("service", "db", service)).toEqual([`name: ${refusal}. ${replaced}`]);
    // The create, should a record appear after the check, refuses it the same way.
    expect((await errorOf(newRun().create("service", "db", service))).message).toBe(refusal);
  });

  it("passes for another type, region or fork source, once in the stack, imported, or with the switch", async () => {
    const run = newRun();
    expect(await run.failures("service", "a", { ...service, serviceType: "VECTOR" })).toEqual([]);
    expect(await run.failures("service", "b", { ...service, regionCode: "eu-west-1" })).toEqual([]);
    const fork = { ...service, forkFrom: { serviceId: existing, strategy: "NOW" } };
    expect(await run.failures("service", "c", fork)).toEqual([]);
    expect(await run.failures("service", "d", service, service)).toEqual([]);
    // The import option names the record: the create adopts it.
    expect(await newRun().failures("service", "f", { ...service, [IMPORT_INPUT]: existing })).toEqual([]);
    process.env.MDB_ADOPT_EXISTING = "true";
    expect(await newRun().failures("service", "e", service)).toEqual([]);
  });

  it("a generated name asks nothing: a record that carries it is this resource's, adopted at up", async () => {
    const calls = await requestsOf(async () => {
      const run = newRun();
      expect(await run.failures("service", "x", { ...service, [AUTO_NAMED_INPUT]: true })).toEqual([]);
    });
    expect(calls).toEqual(["GET /auth/info"]);
  });

  it("lists the services once per run, however many resources it checks", async () => {
    const run = newRun();
    const calls = await requestsOf(async () => {
      for (const name of ["s1", "s2", "s3"])
        expect(await run.failures("service", name, { ...service, name: `new-${name}` })).toEqual([]);
    });
    expect(calls).toEqual(["GET /auth/info", "GET /projects/{project}/services"]);
  });

  it("two records of the identity: the error lists both", async () => {
    const second = await madeService("orders");
    const [failure] = await newRun().failures("service", "db", service);
    expect(failure).toBe(
      `name: service orders matches 2 existing records by name, type, region and fork source: ${existing}, ` +
        `${second}. Import the one to keep with the resource option { import: "${existing}" } (or another of ` +
        "them), and delete the others",
    );
  });

  it("Pulumi's replacement of a service whose name stays (replaceOnChanges) deletes the old one first, passes its check, and the preview says so", async () => {
    const run = newRun();
    const ledger = { ...service, name: "ledger" };
    const made = await run.create("service", "db", ledger);
    // An in-place change: the engine reads deleteBeforeReplace only if it replaces the service
    // anyway, and a new "ledger" could not be made beside the old one.
    const moved = await run.diff("service", "db", made.id, made.outs, { ...ledger, environment: "PROD" });
    expect(moved).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: true });
    const same = await run.diff("service", "db", made.id, made.outs, ledger);
    // No change: nothing for the engine to replace, and the diff answers as it always did.
    expect(same).toMatchObject({ changes: false, deleteBeforeReplace: false });
    // A new name: the new service can be made first, as Pulumi does by default.
    const renamed = await run.diff("service", "db", made.id, made.outs, { ...ledger, name: "ledger-2" });
    expect(renamed).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
    // The kit's own replacement keeps its order (the region is part of the identity).
    const moving = await run.diff("service", "db", made.id, made.outs, {
      ...ledger,
      regionCode: "eu-west-1",
    });
    expect(moving).toMatchObject({ replaces: ["regionCode"], deleteBeforeReplace: false });
    // The engine checks the replacement as a new resource: the record of the name is its own old one,
    // and the preview says what up does instead of the in-place call the diff listed.
    lines.length = 0;
    await run.diff("service", "db", made.id, made.outs, { ...ledger, environment: "PROD" });
    expect(await run.failures("service", "db", { ...ledger, environment: "PROD" })).toEqual([]);
    expect(lines).toEqual([
      "db: setServiceEnvironment DEV → PROD (no restart)",
      "db: replace (by Pulumi, as the replaceOnChanges resource option asks, instead of the calls above): " +
        "deleteService of the old service first, then createService ledger 1000m/4GB",
    ]);
    // In another run (no diff of it held the record), a resource of that name is still refused.
    expect(await newRun().failures("service", "other", ledger)).toEqual([
      expect.stringMatching(/^name: a service named "ledger" \(POSTGRES, us-east-1\) already exists/),
    ]);
  });

  it("a list the API does not answer finds nothing wrong, says so, and is asked again", async () => {
    const run = newRun();
    // A 400 is not retried: the check goes on at once.
    await emu.setFaults({ rules: [{ method: "GET", path: "/services$", status: 400 }] });
    expect(await run.failures("service", "db", service)).toEqual([]);
    expect(lines.join("\n")).toContain("could not check service inputs against the API");
    // The same resource checked again (as the engine does after a preview's first look).
    expect(await run.failures("service", "db", service)).toEqual([
      expect.stringMatching(/^name: a service named "orders"/),
    ]);
  });
});

describe("VPCs, read replica sets and peerings", () => {
  it("a VPC of an existing name, block and region fails, naming name", async () => {
    const id = await made("vpcs", { name: "core", cidr: "10.0.0.0/16", region_code: "us-east-1" });
    const vpc = { name: "core", cidr: "10.0.0.0/16", regionCode: "us-east-1" };
    expect(await newRun().failures("vpc", "net", vpc)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^name: a VPC named "core" \\(10\\.0\\.0\\.0/16, us-east-1\\) already exists .* with id ${id}\\.`,
        ),
      ),
    ]);
    expect(await newRun().failures("vpc", "net", { ...vpc, cidr: "10.1.0.0/16" })).toEqual([]);
  });

  it("a read replica set named as one its existing service has fails; of a service this run created, nothing is asked", async () => {
    const serviceId = await madeService("src");
    await emu.waitFor(
      () => emu.api<{ status: string }>("GET", `${emu.projectPath}/services/${serviceId}`),
      (r) => r.body.status === "READY",
      { what: "service READY" },
    );
    await made(`services/${serviceId}/replicaSets`, {
      name: "reads",
      nodes: 1,
      cpu_millis: 500,
      memory_gbs: 2,
    });
    const set = { serviceId, name: "reads", nodes: 1, cpuMillis: 500, memoryGbs: 2 };
    expect(await newRun().failures("read-replica-set", "r", set)).toEqual([
      expect.stringMatching(/^name: a read replica set named "reads" .*already exists/),
    ]);

    const run = newRun();
    const created = await run.create("service", "fresh", { ...service, name: "fresh" });
    const calls = await requestsOf(async () =>
      expect(await run.failures("read-replica-set", "r2", { ...set, serviceId: created.id })).toEqual([]),
    );
    // The run's access check (its first check), and no look at the service or its replica sets.
    expect(calls).toEqual(["GET /auth/info"]);
  });

  it("a peering to the peer an existing peering of the VPC has fails, naming peerVpcId; a failed one does not count", async () => {
    const vpcId = await made("vpcs", { name: "core", cidr: "10.0.0.0/16", region_code: "us-east-1" });
    const peer = { peer_account_id: "123456789012", peer_region_code: "us-west-2" };
    await made(`vpcs/${vpcId}/peerings`, { ...peer, peer_vpc_id: "vpc-peer1" });
    await made(`vpcs/${vpcId}/peerings`, { ...peer, peer_vpc_id: "unreachable-1" });
    const peering = {
      vpcId,
      peerAccountId: "123456789012",
      peerRegionCode: "us-west-2",
      peerVpcId: "vpc-peer1",
    };
    expect(await newRun().failures("vpc-peering", "p", peering)).toEqual([
      expect.stringMatching(
        new RegExp(`^peerVpcId: VPC ${vpcId} already has a peering to account 123456789012`),
      ),
    ]);
    await emu.waitFor(
      () => emu.api<{ status: string }[]>("GET", `${emu.projectPath}/vpcs/${vpcId}/peerings`),
      (r) => r.body.some((p) => p.status === "failed"),
      { what: "peering failed" },
    );
    expect(await newRun().failures("vpc-peering", "q", { ...peering, peerVpcId: "unreachable-1" })).toEqual(
      [],
    );
  });
});
