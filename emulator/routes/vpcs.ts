/**
 * HTTP routes of VPCs (5 operations): parse and validate, call the model, answer with the status
 * and body DESIGN.md fixes for each operation.
 */
import type { FastifyInstance } from "fastify";
import { CreateVpcRequestSchema, RenameVpcRequestSchema } from "../../provider/client/schemas";
import { parseBody } from "../validation";
import type { ProjectParams, RouteContext, VpcParams } from "./context";

/** Registers the VPC routes. */
export async function vpcRoutes(app: FastifyInstance, { model }: RouteContext): Promise<void> {
  const vpcs = "/projects/:project_id/vpcs";
  const vpc = `${vpcs}/:vpc_id`;

  app.get<{ Params: ProjectParams }>(vpcs, async (req) => model.listVpcs(req.params.project_id));

  app.post<{ Params: ProjectParams }>(vpcs, async (req, reply) => {
    const body = parseBody(CreateVpcRequestSchema, req.body);
    return reply.code(201).send(model.createVpc(req.params.project_id, body));
  });

  app.get<{ Params: VpcParams }>(vpc, async (req) => model.getVpc(req.params.project_id, req.params.vpc_id));

  app.delete<{ Params: VpcParams }>(vpc, async (req, reply) => {
    model.deleteVpc(req.params.project_id, req.params.vpc_id);
    return reply.code(204).send();
  });

  app.post<{ Params: VpcParams }>(`${vpc}/rename`, async (req) => {
    const body = parseBody(RenameVpcRequestSchema, req.body);
    return model.renameVpc(req.params.project_id, req.params.vpc_id, body);
  });
}
