/**
 * HTTP routes of VPC peerings (4 operations): parse and validate, call the model, answer with the
 * status and body DESIGN.md fixes for each operation.
 */
import type { FastifyInstance } from "fastify";
import { CreatePeeringRequestSchema } from "../../provider/client/schemas";
import { parseBody } from "../validation";
import type { PeeringParams, RouteContext, VpcParams } from "./context";

/** Registers the VPC peering routes. */
export async function peeringRoutes(app: FastifyInstance, { model }: RouteContext): Promise<void> {
  const peerings = "/projects/:project_id/vpcs/:vpc_id/peerings";
  const peering = `${peerings}/:peering_id`;

  app.get<{ Params: VpcParams }>(peerings, async (req) =>
    model.listPeerings(req.params.project_id, req.params.vpc_id),
  );

  app.post<{ Params: VpcParams }>(peerings, async (req, reply) => {
    const body = parseBody(CreatePeeringRequestSchema, req.body);
    return reply.code(201).send(model.createPeering(req.params.project_id, req.params.vpc_id, body));
  });

  app.get<{ Params: PeeringParams }>(peering, async (req) =>
    model.getPeering(req.params.project_id, req.params.vpc_id, req.params.peering_id),
  );

  app.delete<{ Params: PeeringParams }>(peering, async (req, reply) => {
    model.deletePeering(req.params.project_id, req.params.vpc_id, req.params.peering_id);
    return reply.code(204).send();
  });
}
