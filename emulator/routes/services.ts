/**
 * HTTP routes of services (15 operations): parse and validate, call the model, answer with the
 * status and body DESIGN.md fixes for each operation.
 */
import type { FastifyInstance } from "fastify";
import {
  SetEnvironmentRequestSchema,
  SetHaRequestSchema,
  UpdatePasswordRequestSchema,
  VpcAttachmentRequestSchema,
} from "../../provider/client/schemas";
import { CreateServiceBody, ForkServiceBody, ResizeServiceBody, parseBody } from "../validation";
import type { ProjectParams, RouteContext, ServiceParams } from "./context";

/** Registers the service routes. */
export async function serviceRoutes(app: FastifyInstance, { model }: RouteContext): Promise<void> {
  const services = "/projects/:project_id/services";
  const service = `${services}/:service_id`;

  app.get<{ Params: ProjectParams }>(services, async (req) => model.listServices(req.params.project_id));

  app.post<{ Params: ProjectParams }>(services, async (req, reply) => {
    const body = parseBody(CreateServiceBody, req.body);
    return reply.code(202).send(model.createService(req.params.project_id, body));
  });

  app.get<{ Params: ServiceParams }>(service, async (req) =>
    model.getService(req.params.project_id, req.params.service_id),
  );

  app.delete<{ Params: ServiceParams }>(service, async (req, reply) => {
    model.deleteService(req.params.project_id, req.params.service_id);
    return reply.code(202).send();
  });

  app.post<{ Params: ServiceParams }>(`${service}/start`, async (req, reply) =>
    reply.code(202).send(model.startService(req.params.project_id, req.params.service_id)),
  );

  app.post<{ Params: ServiceParams }>(`${service}/stop`, async (req, reply) =>
    reply.code(202).send(model.stopService(req.params.project_id, req.params.service_id)),
  );

  app.post<{ Params: ServiceParams }>(`${service}/resize`, async (req, reply) => {
    const body = parseBody(ResizeServiceBody, req.body);
    model.resizeService(req.params.project_id, req.params.service_id, body);
    return reply.code(202).send();
  });

  app.post<{ Params: ServiceParams }>(`${service}/updatePassword`, async (req, reply) => {
    const { password } = parseBody(UpdatePasswordRequestSchema, req.body);
    model.updatePassword(req.params.project_id, req.params.service_id, password);
    return reply.code(204).send();
  });

  app.post<{ Params: ServiceParams }>(`${service}/setEnvironment`, async (req) => {
    const { environment } = parseBody(SetEnvironmentRequestSchema, req.body);
    return {
      message: model.setServiceEnvironment(req.params.project_id, req.params.service_id, environment),
    };
  });

  app.post<{ Params: ServiceParams }>(`${service}/setHA`, async (req, reply) => {
    const body = parseBody(SetHaRequestSchema, req.body);
    return reply.code(202).send(model.setHA(req.params.project_id, req.params.service_id, body));
  });

  app.post<{ Params: ServiceParams }>(`${service}/enablePooler`, async (req) => ({
    message: model.enableServicePooler(req.params.project_id, req.params.service_id),
  }));

  app.post<{ Params: ServiceParams }>(`${service}/disablePooler`, async (req) => ({
    message: model.disableServicePooler(req.params.project_id, req.params.service_id),
  }));

  app.post<{ Params: ServiceParams }>(`${service}/forkService`, async (req, reply) => {
    const body = parseBody(ForkServiceBody, req.body);
    return reply.code(202).send(model.forkService(req.params.project_id, req.params.service_id, body));
  });

  app.post<{ Params: ServiceParams }>(`${service}/attachToVPC`, async (req, reply) => {
    const { vpc_id } = parseBody(VpcAttachmentRequestSchema, req.body);
    return reply
      .code(202)
      .send({ message: model.attachToVpc(req.params.project_id, req.params.service_id, vpc_id) });
  });

  app.post<{ Params: ServiceParams }>(`${service}/detachFromVPC`, async (req, reply) => {
    const { vpc_id } = parseBody(VpcAttachmentRequestSchema, req.body);
    return reply
      .code(202)
      .send({ message: model.detachFromVpc(req.params.project_id, req.params.service_id, vpc_id) });
  });
}
