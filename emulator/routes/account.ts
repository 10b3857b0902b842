/**
 * HTTP routes of the caller's credentials and of analytics (3 operations). Analytics calls are
 * validated and acknowledged; the emulator keeps nothing of them.
 */
import type { FastifyInstance } from "fastify";
import { IdentifyRequestSchema, TrackRequestSchema, type AuthInfo } from "../../provider/client/schemas";
import { parseBody } from "../validation";
import type { RouteContext } from "./context";

/** Registers auth info and analytics routes. */
export async function accountRoutes(
  app: FastifyInstance,
  { credentials, startedAt }: RouteContext,
): Promise<void> {
  app.get("/auth/info", async (): Promise<AuthInfo> => ({
    type: "apiKey",
    apiKey: {
      public_key: credentials.publicKey,
      name: "mdb-emulator key",
      created: startedAt,
      project: { id: credentials.projectId, name: credentials.projectId, plan_type: "FREE" },
      issuing_user: { id: "user-emulator", name: "Emulator User", email: "emulator@mdb.local" },
    },
  }));

  // `properties` is optional, so an identify call may come without a body at all.
  app.post("/analytics/identify", async (req) => {
    parseBody(IdentifyRequestSchema, req.body, true);
    return { status: "ok" };
  });

  app.post("/analytics/track", async (req) => {
    parseBody(TrackRequestSchema, req.body);
    return { status: "ok" };
  });
}
