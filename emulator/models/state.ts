/**
 * What every part of the model shares: the store, the clock, the duration of lifecycle steps, and
 * the lookups that answer 404 for an unknown id. Every lookup first advances the project's
 * lifecycles to the present (see `advance` in lifecycle.ts), so callers always see current records.
 */
import type { Dialect } from "../../api/dialects";
import { ApiError, notFound } from "../errors";
import { advance, failReplicaSet, failService, retryReplicaSet, retryService } from "../lifecycle";
import type { DatabaseHooks } from "../databases/hooks";
import type { PeeringData, ProjectData, ReplicaSetData, ServiceData, Step, Store, VpcData } from "../store";

/** Options of the model. */
export interface ModelOptions {
  /** Where the records live. */
  store: Store;
  /** Duration of each lifecycle step, in milliseconds. */
  transitionMs: number;
  /** Clock in epoch milliseconds; `Date.now` by default (tests may pass a fake one). */
  now?: () => number;
  /** The dialect spoken: `vendor` gives VPCs and peerings ids of digits. Default `seed`. */
  dialect?: Dialect;
  /** Real servers behind the services (`--databases`); none by default. */
  databases?: DatabaseHooks;
}

/** The steps a database's work holds back: those after which the API says the server is there, or gone. */
function settles(step: Step<string, object>): boolean {
  return (
    step.gone === true || step.status === "READY" || step.status === "PAUSED" || step.status === "active"
  );
}

/** The emulated service's state, its clock and its lookups. */
export class State {
  /** Duration of each lifecycle step, in milliseconds; applies to actions accepted from now on. */
  transitionMs: number;
  /** The clock, in epoch milliseconds. */
  readonly now: () => number;
  /** The dialect spoken (the form of new VPC and peering ids). */
  readonly dialect: Dialect;
  /** The real servers behind the services, with `--databases`. */
  readonly databases?: DatabaseHooks;
  private readonly store: Store;

  constructor(options: ModelOptions) {
    this.store = options.store;
    this.transitionMs = options.transitionMs;
    this.now = options.now ?? Date.now;
    this.dialect = options.dialect ?? "seed";
    this.databases = options.databases;
    if (this.databases) {
      const services = this.store.projects().flatMap((p) => p.services);
      this.retryFailed(services);
      this.databases.restore(services);
    }
  }

  /** Saves the state (after every change). */
  commit(): void {
    this.store.commit();
  }

  /** Drops every record of every project. */
  reset(): void {
    this.databases?.dropAll();
    this.store.clear();
  }

  /** The project's records, every lifecycle advanced to now (gone records removed). */
  project(projectId: string): ProjectData {
    const now = this.now();
    const project = this.store.project(projectId);
    const db = this.databases;
    const held = (id: string) => db && ((step: Step<string, object>) => settles(step) && db.holds(id));
    project.services = project.services.filter((service) => {
      // Failures first: a failed server's pending steps are kept to retry, not taken.
      if (db) this.reportFailures(db, service);
      if (!advance(service, now, held(service.service_id))) return false;
      service.read_replica_sets = service.read_replica_sets.filter((r) => advance(r, now, held(r.id)));
      return true;
    });
    for (const vpc of project.vpcs) for (const peering of vpc.peerings) advance(peering, now);
    return project;
  }

  /**
   * A server that failed shows, with the reason: the service UNSTABLE, a replica set `error`. A
   * record tried again after a restart (steps pending) fails again when its server does; once its
   * server is back and it settled, the reason goes.
   */
  private reportFailures(db: DatabaseHooks, service: ServiceData): void {
    const failure = db.failure(service.service_id);
    if (failure && service.status !== "DELETING") {
      const known = service.status === "UNSTABLE" && service.steps.length === 0;
      if (!known || service.error_message !== failure) failService(service, failure);
    } else if (service.status !== "UNSTABLE" && (service.error_message || service.retry_steps)) {
      delete service.error_message;
      delete service.retry_steps;
    }
    for (const replicaSet of service.read_replica_sets) {
      const failed = db.failure(replicaSet.id);
      if (failed && replicaSet.status !== "deleting") {
        if (replicaSet.status !== "error" || replicaSet.steps.length > 0)
          failReplicaSet(replicaSet, failed, true);
      } else if (replicaSet.status !== "error" && replicaSet.retry_steps) {
        replicaSet.error_message = null;
        delete replicaSet.retry_steps;
      }
    }
  }

  /**
   * At start with `--databases`: records whose server had failed are tried again (the failure may
   * have been a port another program held, since freed). A replica set failed through the admin
   * API stays failed.
   */
  private retryFailed(services: ServiceData[]): void {
    const now = this.now();
    for (const service of services) {
      if (service.status === "UNSTABLE") retryService(service, now);
      for (const replicaSet of service.read_replica_sets) {
        if (replicaSet.status === "error" && replicaSet.retry_steps !== undefined)
          retryReplicaSet(replicaSet, now);
      }
    }
  }

  /** A service, or 404. */
  service(projectId: string, serviceId: string): ServiceData {
    const service = this.project(projectId).services.find((s) => s.service_id === serviceId);
    if (!service) throw notFound("service", serviceId);
    return service;
  }

  /** A replica set of a service, or 404. */
  replicaSet(projectId: string, serviceId: string, replicaSetId: string): ReplicaSetData {
    const replicaSet = this.service(projectId, serviceId).read_replica_sets.find(
      (r) => r.id === replicaSetId,
    );
    if (!replicaSet) throw notFound("replica set", `${replicaSetId} of service ${serviceId}`);
    return replicaSet;
  }

  /** A VPC, or 404; `fieldPrefix` names the body field when the id comes from a request body. */
  vpc(projectId: string, vpcId: string, fieldPrefix = ""): VpcData {
    const vpc = this.project(projectId).vpcs.find((v) => v.id === vpcId);
    if (!vpc) throw new ApiError(404, "NOT_FOUND", `${fieldPrefix}VPC ${vpcId} not found`);
    return vpc;
  }

  /** A peering of a VPC, or 404. */
  peering(projectId: string, vpcId: string, peeringId: string): PeeringData {
    const peering = this.vpc(projectId, vpcId).peerings.find((p) => p.id === peeringId);
    if (!peering) throw notFound("peering", `${peeringId} of VPC ${vpcId}`);
    return peering;
  }
}
