/**
 * What every part of the model shares: the store, the clock, the duration of lifecycle steps, and
 * the lookups that answer 404 for an unknown id. Every lookup first advances the project's
 * lifecycles to the present (see `advance` in lifecycle.ts), so callers always see current records.
 */
import type { Dialect } from "../../api/dialects";
import { ApiError, notFound } from "../errors";
import { advance } from "../lifecycle";
import type { PeeringData, ProjectData, ReplicaSetData, ServiceData, Store, VpcData } from "../store";

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
}

/** The emulated service's state, its clock and its lookups. */
export class State {
  /** Duration of each lifecycle step, in milliseconds; applies to actions accepted from now on. */
  transitionMs: number;
  /** The clock, in epoch milliseconds. */
  readonly now: () => number;
  /** The dialect spoken (the form of new VPC and peering ids). */
  readonly dialect: Dialect;
  private readonly store: Store;

  constructor(options: ModelOptions) {
    this.store = options.store;
    this.transitionMs = options.transitionMs;
    this.now = options.now ?? Date.now;
    this.dialect = options.dialect ?? "seed";
  }

  /** Saves the state (after every change). */
  commit(): void {
    this.store.commit();
  }

  /** Drops every record of every project. */
  reset(): void {
    this.store.clear();
  }

  /** The project's records, every lifecycle advanced to now (gone records removed). */
  project(projectId: string): ProjectData {
    const now = this.now();
    const project = this.store.project(projectId);
    project.services = project.services.filter((service) => {
      if (!advance(service, now)) return false;
      service.read_replica_sets = service.read_replica_sets.filter((r) => advance(r, now));
      return true;
    });
    for (const vpc of project.vpcs) for (const peering of vpc.peerings) advance(peering, now);
    return project;
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
