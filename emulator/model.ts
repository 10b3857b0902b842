/**
 * The emulated service, apart from HTTP (moto's "models"): its services, read replica sets and
 * network (VPCs and peerings) over one shared state. Each area has one method per operation, named
 * like the operation in api/operations.ts; the routes (routes/handlers.ts) call them.
 */
import { NetworkModel } from "./models/network";
import { ReplicaSetModel } from "./models/replica-sets";
import { ServiceModel } from "./models/services";
import { State, type ModelOptions } from "./models/state";
import { TelemetryModel } from "./models/telemetry";

export type { ModelOptions } from "./models/state";
export { UNREACHABLE_PEER_PREFIX } from "./models/network";

/** The emulated service. */
export class Model {
  /** Services: create, fork, resize, HA, pooler, environment, password, VPC attachment, delete. */
  readonly services: ServiceModel;
  /** Read replica sets of the services. */
  readonly replicaSets: ReplicaSetModel;
  /** VPCs and their peerings. */
  readonly network: NetworkModel;
  /** Service logs and metrics, synthetic (the vendor's additions). */
  readonly telemetry: TelemetryModel;
  private readonly state: State;

  constructor(options: ModelOptions) {
    this.state = new State(options);
    this.services = new ServiceModel(this.state);
    this.replicaSets = new ReplicaSetModel(this.state);
    this.network = new NetworkModel(this.state);
    this.telemetry = new TelemetryModel(this.state);
  }

  /** Duration of each lifecycle step, in milliseconds; applies to actions accepted from now on. */
  get transitionMs(): number {
    return this.state.transitionMs;
  }

  set transitionMs(value: number) {
    this.state.transitionMs = value;
  }

  /** True when `password` is the service's current password (for in-process tests). */
  verifyPassword(projectId: string, serviceId: string, password: string): boolean {
    return this.services.verifyPassword(projectId, serviceId, password);
  }

  /** Puts a replica set, found by id in any service of the project, into `error` (admin API). */
  failReplicaSet(
    projectId: string,
    replicaSetId: string,
    message: string,
  ): ReturnType<ReplicaSetModel["failReplicaSet"]> {
    return this.replicaSets.failReplicaSet(projectId, replicaSetId, message);
  }

  /** Drops every record of every project. */
  reset(): void {
    this.state.reset();
  }
}
