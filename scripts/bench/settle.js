// Settle lag from the emulator's request log: for every accepted asynchronous action, when the
// emulator's record settled, and when the provider's polling first saw it settled.
//
// The emulator moves a record one lifecycle step every `transitionMs` after it accepts an action
// (two steps for a new service: QUEUED, CONFIGURING, READY), so the record settles at the
// action's arrival + steps x transitionMs; for a new service at its `created` time + 2 steps,
// which is the emulator's own clock. Any GET arriving after that sees the settled record, so the
// first GET of the polled path at or after that moment is the one with which the provider
// notices it. Lag = that GET's arrival - the settle time; the wait = from the action to that GET.
"use strict";

const API_PREFIX = /^\/public\/api\/v1\/projects\/[^/]+/;

/**
 * What an accepted action waits for: `{steps, watch, exact}` (the GET path polled, exactly or as
 * a prefix), or undefined for a synchronous one. `path` is relative to the project.
 */
function waitOf(method, path) {
  let m;
  if (method === "POST" && path === "/services") return { steps: 2, watch: undefined, exact: true };
  if (
    method === "POST" &&
    (m = /^(\/services\/[^/]+)\/(attachToVPC|detachFromVPC|resize|setHA|start|stop)$/.exec(path))
  )
    return { steps: 1, watch: m[1], exact: true };
  if (method === "DELETE" && /^\/services\/[^/]+$/.test(path)) return { steps: 1, watch: path, exact: true };
  if (method === "POST" && /^\/services\/[^/]+\/replicaSets$/.test(path))
    return { steps: 1, watch: path, exact: true };
  if (method === "DELETE" && (m = /^(\/services\/[^/]+\/replicaSets)\/[^/]+$/.exec(path)))
    return { steps: 1, watch: m[1], exact: true };
  // One peering per VPC in the bench programs, so the VPC's peering path prefix names it.
  // (Deleting a peering, like VPC create and delete, takes effect at once: no wait.)
  if (method === "POST" && /^\/vpcs\/[^/]+\/peerings$/.test(path))
    return { steps: 1, watch: `${path}/`, exact: false };
  return undefined;
}

/**
 * The waits of one operation. `log` is the request log (`at` in epoch ms), `services` the
 * project's services read afterwards (`service_id`, `created`), to name the service each
 * create made. Returns `[{lagMs, waitMs, gets}]`, one per action whose settling was seen.
 */
function settleWaits(log, services, transitionMs) {
  const calls = log
    .filter((entry) => entry.status >= 200 && entry.status < 500 && API_PREFIX.test(entry.path))
    .map((entry) => ({ ...entry, rel: entry.path.replace(API_PREFIX, "") }))
    .sort((a, b) => a.at - b.at);
  const gets = calls.filter((c) => c.method === "GET");
  const created = services
    .map((s) => ({ id: s.service_id, at: Date.parse(s.created) }))
    .sort((a, b) => a.at - b.at);
  const waits = [];
  for (const call of calls) {
    if (call.method === "GET" || call.status >= 300) continue;
    const wait = waitOf(call.method, call.rel);
    if (!wait) continue;
    let settle = call.at + wait.steps * transitionMs;
    let watch = wait.watch;
    if (watch === undefined) {
      // A new service: the first unclaimed one created at or just after the request arrived.
      const index = created.findIndex((s) => s.at >= call.at - 1 && s.at - call.at < 1000);
      if (index < 0) continue;
      const [service] = created.splice(index, 1);
      settle = service.at + wait.steps * transitionMs;
      watch = `/services/${service.id}`;
    }
    const polls = gets.filter(
      (g) => g.at > call.at && (wait.exact ? g.rel === watch : g.rel.startsWith(watch) && g.rel !== watch),
    );
    const notice = polls.find((g) => g.at >= settle);
    if (!notice) continue;
    waits.push({
      lagMs: notice.at - settle,
      waitMs: notice.at - call.at,
      gets: polls.filter((g) => g.at <= notice.at).length,
    });
  }
  return waits;
}

/** API calls of an operation by method, e.g. `{GET: 120, POST: 24, DELETE: 0}`; admin routes are not logged. */
function countCalls(log) {
  const counts = {};
  for (const entry of log) counts[entry.method] = (counts[entry.method] ?? 0) + 1;
  return counts;
}

module.exports = { settleWaits, countCalls, waitOf };
