/**
 * The vendor's own CLI (tiger-cli at d7201d6) against the `vendor` dialect: the exact requests its
 * commands send, played over HTTP, and what it reads of the answers (facts taken from its source,
 * docs/api.md#tiger-cli; nothing of it is copied here).
 *
 * - `tiger service logs ID [--node N] [--since T] [--until T] [--tail N]`: GET .../logs with its
 *   query in Go's order (`cursor`, `node`, `since`, `until`), `until` fixed to the time of the first
 *   request (RFC 3339 with nanoseconds), then again with `cursor` = `last_cursor` until it has
 *   `--tail` entries or no cursor comes; it prints `entries` oldest first.
 * - `tiger auth login` with OAuth: GET /projects, and takes the one project when there is one.
 * - `tiger auth logout` with OAuth: POST /auth/logout with `{"refresh_token": ...}` (or `{}`).
 * - renameService: the CLI has no command yet; its generated client POSTs `{"name"}` and reads a
 *   Service from the 200.
 * - `tiger db connect|psql|connection-string|test-connection|create role|schema`, `tiger service
 *   get|update-password` and the MCP database tools, given a read replica set id: GET
 *   /services/{replica set id}; a Service whose `forked_from.is_standby` is true is a replica
 *   (IsReadReplica), `forked_from.service_id` names the primary whose password it uses, `endpoint`
 *   (or `connection_pooler.endpoint` with `--pooled`) is where it connects, and `status` READY
 *   lets `db schema` in.
 */
import type { ReadReplicaSet, Service } from "../../api/schemas";
import { LOG_INTERVAL_MS, LOG_PAGE_SIZE } from "../../emulator/models/telemetry";
import type { TestEmulator } from "../helpers/emulator";
import { startConformanceEmulator } from "./helpers";

/** A time as Go's RFC3339Nano writes it: nanoseconds, trailing zeros dropped, `Z`. */
function goTime(ms: number, extraNanos = 0): string {
  const iso = new Date(ms).toISOString(); // 2026-01-01T00:00:00.123Z
  const nanos = (Number(iso.slice(20, 23)) * 1_000_000 + extraNanos).toString().padStart(9, "0");
  const fraction = nanos.replace(/0+$/, "");
  return `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ""}Z`;
}

/** A query string as Go's url.Values.Encode writes it: keys sorted, values escaped. */
function goQuery(params: Record<string, string | undefined>): string {
  return Object.keys(params)
    .filter((k) => params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${encodeURIComponent(params[k]!)}`)
    .join("&");
}

interface LogsPage {
  entries?: { timestamp: string; message: string; severity: string }[];
  last_cursor?: string;
}

let now = Date.parse("2026-03-01T08:00:00Z");
let emu: TestEmulator;
let service: Service;

beforeAll(async () => {
  emu = await startConformanceEmulator({ dialect: "vendor", now: () => now });
  service = (await emu.api<Service>("POST", `${emu.projectPath}/services`, { name: "cli-db" })).body;
  // Two pages and a bit of history.
  now += (LOG_PAGE_SIZE + 40) * LOG_INTERVAL_MS + 1234;
});
afterAll(() => emu.close());

/** `tiger service logs`: its request loop, as its source runs it; entries oldest first. */
async function serviceLogs(options: { tail: number; node?: number; since?: string }) {
  const path = `${emu.projectPath}/services/${service.service_id}/logs`;
  const until = goTime(now, 456_789);
  const entries: NonNullable<LogsPage["entries"]> = [];
  const urls: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const url = `${path}?${goQuery({ cursor, node: options.node?.toString(), since: options.since, until })}`;
    urls.push(url);
    const response = await emu.api<LogsPage>("GET", url);
    expect(response.status).toBe(200);
    entries.push(...(response.body.entries ?? []));
    if (entries.length >= options.tail || response.body.last_cursor === undefined) break;
    cursor = response.body.last_cursor;
  }
  return { urls, entries: entries.slice(0, options.tail).reverse() };
}

describe("tiger service logs", () => {
  it("the default --tail 100: one request, with until only", async () => {
    const { urls, entries } = await serviceLogs({ tail: 100 });
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/\/logs\?until=2026-03-01T10%3A15%3A01\.234456789Z$/);
    expect(entries).toHaveLength(100);
    const times = entries.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("--tail beyond a page: follows last_cursor to the first line, each entry once, oldest first", async () => {
    const { urls, entries } = await serviceLogs({ tail: 10_000, node: 0 });
    expect(urls).toHaveLength(2);
    expect(urls[1]).toMatch(/\/logs\?cursor=[^&]+&node=0&until=/);
    expect(entries).toHaveLength(LOG_PAGE_SIZE + 41);
    expect(new Set(entries.map((e) => e.timestamp)).size).toBe(entries.length);
    expect(entries[0]).toMatchObject({
      timestamp: service.created,
      message: "database system is ready to accept connections",
    });
  });

  it("--since: only what came after it", async () => {
    const since = goTime(now - 10 * LOG_INTERVAL_MS);
    const { entries } = await serviceLogs({ tail: 100, since });
    expect(entries).toHaveLength(10);
    expect(entries.every((e) => Date.parse(e.timestamp) >= Date.parse(since))).toBe(true);
  });

  it("--node beyond the service's nodes: a 4xx with {code, message}, which the CLI prints", async () => {
    const response = await emu.api(
      "GET",
      `${emu.projectPath}/services/${service.service_id}/logs?${goQuery({ node: "1", until: goTime(now) })}`,
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_REQUEST", message: expect.stringMatching(/^node: /) });
  });
});

describe("tiger auth login (OAuth) and logout", () => {
  it("GET /projects: one project, the key's, which login takes without asking", async () => {
    const response = await emu.api<{ id: string; name: string }[]>("GET", "/projects");
    expect(response.status).toBe(200);
    expect(response.body.map((p) => p.id)).toEqual([emu.credentials.projectId]);
  });

  it.each([[{ refresh_token: "rt-from-the-keyring" }], [{}]])(
    "POST /auth/logout %j: 204, no body",
    async (body) => {
      const response = await emu.api("POST", "/auth/logout", body);
      expect(response.status).toBe(204);
      expect(response.text).toBe("");
    },
  );
});

describe("renameService, as the generated client sends it", () => {
  it("POST {name} answers 200 with the Service renamed", async () => {
    const response = await emu.api<Service>(
      "POST",
      `${emu.projectPath}/services/${service.service_id}/rename`,
      {
        name: "cli-db-renamed",
      },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ service_id: service.service_id, name: "cli-db-renamed" });
  });
});

describe("a read replica set id where a service id goes (GET /services/{id})", () => {
  it("a Service with the replica's endpoint and pooler, forked_from its primary with is_standby, READY once active", async () => {
    const servicePath = `${emu.projectPath}/services/${service.service_id}`;
    const created = await emu.api<{ id: string }>("POST", `${servicePath}/replicaSets`, {
      name: "cli-reader",
      nodes: 1,
      cpu_millis: 500,
      memory_gbs: 2,
    });
    expect(created.status).toBe(202);
    const asService = () => emu.api<Service>("GET", `${emu.projectPath}/services/${created.body.id}`);
    expect((await asService()).body.status).toBe("QUEUED");
    now += 60_000;
    const rsPath = `${servicePath}/replicaSets/${created.body.id}`;
    expect((await emu.api("POST", `${rsPath}/enablePooler`)).status).toBe(200);
    const [set] = (await emu.api<ReadReplicaSet[]>("GET", `${servicePath}/replicaSets`)).body;
    const replica = await asService();
    expect(replica.status).toBe(200);
    expect(replica.body).toMatchObject({
      service_id: created.body.id,
      name: "cli-reader",
      status: "READY",
      endpoint: set.endpoint,
      connection_pooler: { endpoint: set.connection_pooler!.endpoint },
      forked_from: {
        project_id: emu.credentials.projectId,
        service_id: service.service_id,
        is_standby: true,
      },
    });
    // The primary itself reads as no replica.
    const primary = await emu.api<Service>("GET", servicePath);
    expect(primary.body.forked_from?.is_standby).not.toBe(true);
  });

  it("an id that is neither a service nor a replica set: 404 naming it", async () => {
    const response = await emu.api("GET", `${emu.projectPath}/services/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: "NOT_FOUND", message: "service nothing-here not found" });
  });
});
