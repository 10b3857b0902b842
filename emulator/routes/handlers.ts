/**
 * What each operation does (the spec's 34 and the vendor's additions), by operation id (moto's "responses"): a call of the model,
 * from path parameters and parsed body to the success body. Method, path, body validation and
 * status are the operation's row in api/operations.ts (see register.ts); lifecycle rules are the
 * model's. The type makes a missing operation a compile error.
 */
import type { OperationId, ParsedRequestOf, PathParam, ResponseOf } from "../../api/operations";
import type { ServiceLogsQuery } from "../../api/requests";
import type { AuthInfo } from "../../api/schemas";
import type { RouteContext } from "./context";

/** The path parameters of a request, by name. */
export type Params = Readonly<Record<PathParam, string>>;

/**
 * What one operation does: path parameters, parsed body and parsed query (for the operations that
 * take one) in, success body out (none: void).
 */
export type Handler<Id extends OperationId> = (
  params: Params,
  body: ParsedRequestOf<Id>,
  query: Id extends "getServiceLogs" ? ServiceLogsQuery : undefined,
) => ResponseOf<Id> | void;

/** Every operation's handler. */
export type Handlers = { readonly [Id in OperationId]: Handler<Id> };

/** The handlers of every operation over one emulated service. */
export function handlers({ model, credentials, startedAt }: RouteContext): Handlers {
  const { services, replicaSets, network, telemetry } = model;
  const message = (text: string) => ({ message: text });
  return {
    getAuthInfo: () => authInfo({ credentials, startedAt }),
    // Analytics calls are validated and acknowledged; the emulator keeps nothing of them.
    identify: () => ({ status: "ok" }),
    track: () => ({ status: "ok" }),

    listServices: (p) => services.listServices(p.project_id),
    createService: (p, body) => services.createService(p.project_id, body),
    getService: (p) => services.getService(p.project_id, p.service_id),
    deleteService: (p) => services.deleteService(p.project_id, p.service_id),
    startService: (p) => services.startService(p.project_id, p.service_id),
    stopService: (p) => services.stopService(p.project_id, p.service_id),
    resizeService: (p, body) => services.resizeService(p.project_id, p.service_id, body),
    updatePassword: (p, body) => services.updatePassword(p.project_id, p.service_id, body.password),
    setServiceEnvironment: (p, body) =>
      message(services.setServiceEnvironment(p.project_id, p.service_id, body.environment)),
    setHA: (p, body) => services.setHA(p.project_id, p.service_id, body),
    enablePooler: (p) => message(services.enablePooler(p.project_id, p.service_id)),
    disablePooler: (p) => message(services.disablePooler(p.project_id, p.service_id)),
    forkService: (p, body) => services.forkService(p.project_id, p.service_id, body),
    attachToVpc: (p, body) => message(services.attachToVpc(p.project_id, p.service_id, body.vpc_id)),
    detachFromVpc: (p, body) => message(services.detachFromVpc(p.project_id, p.service_id, body.vpc_id)),

    listReplicaSets: (p) => replicaSets.listReplicaSets(p.project_id, p.service_id),
    createReplicaSet: (p, body) => replicaSets.createReplicaSet(p.project_id, p.service_id, body),
    // The spec shows the error shape as the body of this 202, so it answers `{code, message}`.
    deleteReplicaSet: (p) => ({
      code: "ACCEPTED",
      message: replicaSets.deleteReplicaSet(p.project_id, p.service_id, p.replica_set_id),
    }),
    resizeReplicaSet: (p, body) =>
      message(replicaSets.resizeReplicaSet(p.project_id, p.service_id, p.replica_set_id, body)),
    enableReplicaSetPooler: (p) =>
      message(replicaSets.enableReplicaSetPooler(p.project_id, p.service_id, p.replica_set_id)),
    disableReplicaSetPooler: (p) =>
      message(replicaSets.disableReplicaSetPooler(p.project_id, p.service_id, p.replica_set_id)),
    setReplicaSetEnvironment: (p, body) =>
      message(
        replicaSets.setReplicaSetEnvironment(p.project_id, p.service_id, p.replica_set_id, body.environment),
      ),

    listVpcs: (p) => network.listVpcs(p.project_id),
    createVpc: (p, body) => network.createVpc(p.project_id, body),
    getVpc: (p) => network.getVpc(p.project_id, p.vpc_id),
    renameVpc: (p, body) => network.renameVpc(p.project_id, p.vpc_id, body),
    deleteVpc: (p) => network.deleteVpc(p.project_id, p.vpc_id),
    listPeerings: (p) => network.listPeerings(p.project_id, p.vpc_id),
    createPeering: (p, body) => network.createPeering(p.project_id, p.vpc_id, body),
    getPeering: (p) => network.getPeering(p.project_id, p.vpc_id, p.peering_id),
    deletePeering: (p) => network.deletePeering(p.project_id, p.vpc_id, p.peering_id),

    // The vendor's additions.
    renameService: (p, body) => services.renameService(p.project_id, p.service_id, body.name),
    // An API key reaches one project: the list is that project, named as auth info names it.
    listProjects: () => [{ id: credentials.projectId, name: credentials.projectId }],
    getServiceLogs: (p, _body, query) => telemetry.serviceLogs(p.project_id, p.service_id, query),
    listServiceMetricSeries: (p) => telemetry.availableSeries(p.project_id, p.service_id),
    getServiceMetricSeries: (p, body) => telemetry.metricSeries(p.project_id, p.service_id, body),
    // API keys hold no refresh token and the emulator no session: nothing to revoke.
    logout: () => undefined,
  };
}

/**
 * Auth info of the one accepted key (docs/api.md#auth-info), never the secret: under `api_key`,
 * the current name, and `apiKey`, its deprecated alias, for clients of either.
 */
function authInfo({ credentials, startedAt }: Pick<RouteContext, "credentials" | "startedAt">): AuthInfo {
  const key = {
    public_key: credentials.publicKey,
    name: "mdb-emulator key",
    created: startedAt,
    project: { id: credentials.projectId, name: credentials.projectId, plan_type: "FREE" },
    issuing_user: { id: "user-emulator", name: "Emulator User", email: "emulator@mdb.local" },
  };
  return { type: "apiKey", api_key: key, apiKey: key };
}
