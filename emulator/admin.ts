/**
 * Admin API of the emulator, for tests and demos. Every route needs the same HTTP Basic key as
 * the API; none is faulted or written to the request log. Bodies are JSON; errors are
 * `{code, message}` like the API's.
 *
 *   GET    /_emulator/requests     200 [{method, path, status, at, userAgent}]: API requests received, in order
 *                                  of completion, faulted ones included (status 0 = dropped)
 *   DELETE /_emulator/requests     204: empties the request log
 *   POST   /_emulator/reset        204: drops every record, empties the log, removes every fault
 *                                  (settings such as transitionMs are kept)
 *   GET    /_emulator/faults       200 the fault configuration:
 *                                  {rate, statuses, retryAfterSeconds, latencyMs, dropRate,
 *                                   rules: [{method, path, count, status?, drop?, after?, down?}]}
 *   PUT    /_emulator/faults       200 the new configuration; replaces the whole configuration, a field
 *                                  left out takes its default (rate 0, statuses [500,503,429],
 *                                  retryAfterSeconds 1, latencyMs 0, dropRate 0, rules []; a rule's
 *                                  method defaults to "*", count to 1, status to 500). See faults.ts.
 *   GET    /_emulator/settings     200 {transitionMs}
 *   PUT    /_emulator/settings     200 {transitionMs}: duration of each lifecycle step, in ms, for
 *                                  actions accepted from now on
 *   POST   /_emulator/replicaSets/:replica_set_id/fail
 *                                  200 the replica set, now in status `error` with `error_message`
 *                                  from the body `{message?}`: a failed terminal state to test with
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Credentials } from "./auth";
import { ADMIN_PREFIX } from "./defaults";
import { FaultConfigSchema, type Faults } from "./faults";
import type { Model } from "./model";
import type { RequestLog } from "./request-log";
import { parseBody } from "./validation";

/** What the admin routes act on. */
export interface AdminContext {
  model: Model;
  faults: Faults;
  requestLog: RequestLog;
  credentials: Credentials;
}

const SettingsSchema = z.strictObject({ transitionMs: z.number().int().min(0) });
const FailSchema = z.strictObject({ message: z.string().min(1).optional() });

/** Registers the admin routes under `/_emulator`. */
export async function adminRoutes(
  app: FastifyInstance,
  { model, faults, requestLog, credentials }: AdminContext,
): Promise<void> {
  app.get(`${ADMIN_PREFIX}/requests`, async () => requestLog.list());

  app.delete(`${ADMIN_PREFIX}/requests`, async (_req, reply) => {
    requestLog.clear();
    return reply.code(204).send();
  });

  app.post(`${ADMIN_PREFIX}/reset`, async (_req, reply) => {
    model.reset();
    requestLog.clear();
    faults.set({});
    return reply.code(204).send();
  });

  app.get(`${ADMIN_PREFIX}/faults`, async () => faults.get());

  app.put(`${ADMIN_PREFIX}/faults`, async (req) => faults.set(parseBody(FaultConfigSchema, req.body, true)));

  app.get(`${ADMIN_PREFIX}/settings`, async () => ({ transitionMs: model.transitionMs }));

  app.put(`${ADMIN_PREFIX}/settings`, async (req) => {
    model.transitionMs = parseBody(SettingsSchema, req.body).transitionMs;
    return { transitionMs: model.transitionMs };
  });

  app.post<{ Params: { replica_set_id: string } }>(
    `${ADMIN_PREFIX}/replicaSets/:replica_set_id/fail`,
    async (req) => {
      const { message } = parseBody(FailSchema, req.body, true);
      return model.failReplicaSet(
        credentials.projectId,
        req.params.replica_set_id,
        message ?? "replica set failed (injected by the emulator)",
      );
    },
  );
}
