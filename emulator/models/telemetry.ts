/**
 * Service logs and metrics of the emulated service (the vendor's additions, `vendor` dialect):
 * synthetic but plausible data, derived from the service's record and the clock alone, so the same
 * question asked twice gets the same answer and nothing is stored. Logs: one PostgreSQL-like line
 * every {@link LOG_INTERVAL_MS} from the service's creation, newest first, in pages with a cursor.
 * Metrics: one point per bucket of the window, null before the service existed.
 */
import type { MetricSeries, MetricSeriesRequest, ServiceLogs, ServiceLogsQuery } from "../../api/schemas";
import { invalidField } from "../errors";
import type { ServiceData } from "../store";
import type { State } from "./state";

/** Time between two synthetic log lines of a service, in milliseconds. */
export const LOG_INTERVAL_MS = 15_000;
/** Most entries in one page of logs, as the vendor's document says. */
export const LOG_PAGE_SIZE = 500;
/** Oldest log line kept: a day of lines before now. */
const LOG_RETENTION_MS = 24 * 3600 * 1000;
/** Most buckets one metric series query may ask for. */
const MAX_BUCKETS = 10_000;

/** The lines a service logs, in turn, with their PostgreSQL severity. */
const LOG_LINES: readonly (readonly [severity: string, message: string])[] = [
  ["LOG", "checkpoint starting: time"],
  ["LOG", "connection received: host=10.0.0.12 port=51234"],
  ["LOG", "connection authorized: user=tsdbadmin database=tsdb application_name=psql"],
  ["LOG", "checkpoint complete: wrote 42 buffers (0.3%)"],
  ["WARNING", "there is no transaction in progress"],
  ["LOG", "disconnection: session time: 0:00:03.214 user=tsdbadmin database=tsdb"],
  ["LOG", 'automatic vacuum of table "tsdb.public.metrics": index scans: 0'],
  ["ERROR", 'relation "missing_table" does not exist at character 15'],
];

/** The first line of every service, at its creation. */
const READY_LINE = ["LOG", "database system is ready to accept connections"] as const;

/**
 * The metric series the emulator knows, with the value of a point: `base` the service's level,
 * `swing` how much it moves over an hour. None takes an aggregation function (`fn`), as the
 * vendor's document says of these names.
 */
const SERIES: Readonly<Record<string, (s: ServiceData) => { base: number; swing: number }>> = {
  timescale_cloud_system_cpu_usage_millicores: (s) => ({ base: 0.3 * cpu(s), swing: 0.15 * cpu(s) }),
  timescale_cloud_system_cpu_total_millicores: (s) => ({ base: cpu(s), swing: 0 }),
  timescale_cloud_system_memory_usage_bytes: (s) => ({ base: 0.55 * memory(s), swing: 0.1 * memory(s) }),
  timescale_cloud_system_memory_total_bytes: (s) => ({ base: memory(s), swing: 0 }),
  timescale_cloud_system_disk_usage_bytes: () => ({ base: 2.5e9, swing: 1e8 }),
  timescale_cloud_database_num_connections: () => ({ base: 12, swing: 6 }),
  timescale_cloud_database_qps: () => ({ base: 140, swing: 90 }),
};

/** The service's CPU in milli-cores (a shared service counts as 250). */
function cpu(service: ServiceData): number {
  return service.resources[0]?.spec.cpu_millis || 250;
}

/** The service's memory in bytes (a shared service counts as 1 GB). */
function memory(service: ServiceData): number {
  return (service.resources[0]?.spec.memory_gbs || 1) * 2 ** 30;
}

/** A small deterministic hash of a text, 0 to 2^32 - 1. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The cursor of a page that continues before `beforeMs`. */
function cursorOf(beforeMs: number): string {
  return Buffer.from(JSON.stringify({ before: beforeMs })).toString("base64url");
}

/** The time a cursor continues before, or 400 naming the `cursor` parameter. */
function readCursor(cursor: string): number {
  try {
    const before = (JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { before?: unknown })
      .before;
    if (typeof before === "number" && Number.isSafeInteger(before)) return before;
  } catch {
    // Falls through to the answer below.
  }
  throw invalidField("cursor", "is not a cursor this API returned (pass last_cursor as it came)");
}

/** The service logs and metrics of the emulated service. */
export class TelemetryModel {
  constructor(private readonly state: State) {}

  /**
   * A page of a service's logs, newest first: at most {@link LOG_PAGE_SIZE} entries between
   * `since` and `until` (and before the cursor), matching every `search` term (case-insensitive)
   * and one of `severities` when given; `last_cursor` when older entries remain. `node` picks one
   * node of the service (0 the primary, then its HA replicas).
   */
  serviceLogs(projectId: string, serviceId: string, query: ServiceLogsQuery): ServiceLogs {
    const service = this.state.service(projectId, serviceId);
    const nodes = 1 + service.ha_replicas.replica_count;
    const node = query.node ?? 0;
    if (node >= nodes) throw invalidField("node", `service ${serviceId} has nodes 0 to ${nodes - 1}`);
    const created = Date.parse(service.created);
    const now = this.state.now();
    let before = Math.min(now, query.until ? Date.parse(query.until) : now);
    if (query.cursor !== undefined) before = Math.min(before, readCursor(query.cursor));
    const oldest = Math.max(
      created,
      now - LOG_RETENTION_MS,
      query.since ? Date.parse(query.since) : -Infinity,
    );
    const severities = query.severities?.map((s) => s.toUpperCase());
    const terms = query.search?.map((t) => t.toLowerCase());
    const entries: NonNullable<ServiceLogs["entries"]> = [];
    let index = Math.floor((before - created) / LOG_INTERVAL_MS);
    // The newest line at or before `before` first; `before` itself is excluded once paging.
    if (query.cursor !== undefined && created + index * LOG_INTERVAL_MS >= before) index--;
    let more = false;
    for (; index >= 0; index--) {
      const at = created + index * LOG_INTERVAL_MS;
      if (at < oldest) break;
      const [severity, message] =
        index === 0 ? READY_LINE : LOG_LINES[(index + hash(`${serviceId}/${node}`)) % LOG_LINES.length];
      if (severities && !severities.includes(severity)) continue;
      if (terms && !terms.every((t) => message.toLowerCase().includes(t))) continue;
      if (entries.length === LOG_PAGE_SIZE) {
        more = true;
        break;
      }
      entries.push({ timestamp: new Date(at).toISOString(), message, severity });
    }
    const last = entries.at(-1);
    return {
      logs: entries.map((e) => e.message),
      entries,
      ...(more && last ? { last_cursor: cursorOf(Date.parse(last.timestamp)) } : {}),
    };
  }

  /** The names of the metric series of a service. */
  availableSeries(projectId: string, serviceId: string): string[] {
    this.state.service(projectId, serviceId);
    return Object.keys(SERIES);
  }

  /**
   * One metric of a service over a window: one point per bucket (the default bucket follows the
   * window: a minute up to an hour, an hour up to 30 days, a day beyond), null before the service
   * existed. The `role` filter picks `primary` (the default) or `replica`.
   */
  metricSeries(projectId: string, serviceId: string, body: MetricSeriesRequest): MetricSeries[] {
    const service = this.state.service(projectId, serviceId);
    // Own names only: `__proto__` or `constructor` must not reach Object's own members.
    const level = Object.hasOwn(SERIES, body.name) ? SERIES[body.name] : undefined;
    if (!level) throw invalidField("name", `no metric series ${body.name} (see metrics/available-series)`);
    if (body.fn !== undefined) throw invalidField("fn", `is not accepted for ${body.name}`);
    const from = Date.parse(body.from);
    const to = Date.parse(body.to);
    if (!(to > from)) throw invalidField("to", "must be after from");
    const windowS = (to - from) / 1000;
    const bucketS = body.bucket_seconds ?? (windowS <= 3600 ? 60 : windowS <= 30 * 86400 ? 3600 : 86400);
    const buckets = Math.ceil(windowS / bucketS);
    if (buckets > MAX_BUCKETS)
      throw invalidField(
        "bucket_seconds",
        `gives ${buckets} buckets; at most ${MAX_BUCKETS} (take a larger bucket)`,
      );
    const role = body.filters?.find((f) => f.key === "role")?.value.toLowerCase() ?? "primary";
    const created = Date.parse(service.created);
    const { base, swing } = level(service);
    const phase = (hash(`${serviceId}/${body.name}/${role}`) % 3600) / 3600;
    const data = Array.from({ length: buckets }, (_, i) => {
      const at = from + i * bucketS * 1000;
      const value =
        at + bucketS * 1000 <= created
          ? null
          : Math.round(base + swing * Math.sin(2 * Math.PI * (at / 3_600_000 + phase)));
      return { time: new Date(at).toISOString(), value };
    });
    return [{ labels: { role }, data }];
  }
}
