/**
 * HTTP routes of read replica sets (7 operations): parse and validate, call the model, answer
 * with the status and body DESIGN.md fixes for each operation.
 */
import type { FastifyInstance } from "fastify";
import { SetEnvironmentRequestSchema } from "../../provider/client/schemas";
import { CreateReplicaSetBody, ResizeReplicaSetBody, parseBody } from "../validation";
import type { ReplicaSetParams, RouteContext, ServiceParams } from "./context";

/** Registers the read replica set routes. */
export async function replicaSetRoutes(app: FastifyInstance, { model }: RouteContext): Promise<void> {
  const replicaSets = "/projects/:project_id/services/:service_id/replicaSets";
  const replicaSet = `${replicaSets}/:replica_set_id`;

  app.get<{ Params: ServiceParams }>(replicaSets, async (req) =>
    model.listReplicaSets(req.params.project_id, req.params.service_id),
  );

  app.post<{ Params: ServiceParams }>(replicaSets, async (req, reply) => {
    const body = parseBody(CreateReplicaSetBody, req.body);
    return reply.code(202).send(model.createReplicaSet(req.params.project_id, req.params.service_id, body));
  });

  // The spec shows the error shape as the body of this 202, so it answers `{code, message}`.
  app.delete<{ Params: ReplicaSetParams }>(replicaSet, async (req, reply) => {
    const { project_id, service_id, replica_set_id } = req.params;
    const message = model.deleteReplicaSet(project_id, service_id, replica_set_id);
    return reply.code(202).send({ code: "ACCEPTED", message });
  });

  app.post<{ Params: ReplicaSetParams }>(`${replicaSet}/resize`, async (req, reply) => {
    const body = parseBody(ResizeReplicaSetBody, req.body);
    model.resizeReplicaSet(req.params.project_id, req.params.service_id, req.params.replica_set_id, body);
    return reply.code(202).send();
  });

  app.post<{ Params: ReplicaSetParams }>(`${replicaSet}/enablePooler`, async (req) => ({
    message: model.enableReplicaSetPooler(
      req.params.project_id,
      req.params.service_id,
      req.params.replica_set_id,
    ),
  }));

  app.post<{ Params: ReplicaSetParams }>(`${replicaSet}/disablePooler`, async (req) => ({
    message: model.disableReplicaSetPooler(
      req.params.project_id,
      req.params.service_id,
      req.params.replica_set_id,
    ),
  }));

  app.post<{ Params: ReplicaSetParams }>(`${replicaSet}/setEnvironment`, async (req) => {
    const { environment } = parseBody(SetEnvironmentRequestSchema, req.body);
    const { project_id, service_id, replica_set_id } = req.params;
    return { message: model.setReplicaSetEnvironment(project_id, service_id, replica_set_id, environment) };
  });
}
