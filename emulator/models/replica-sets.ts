/**
 * The read replica sets of the emulated service (moto's "models"): one method per replica set
 * operation, named like it in api/operations.ts, plus the admin API's failure injection.
 */
import type {
  CreateReplicaSetRequest,
  Environment,
  ReadReplicaSet,
  ResizeReplicaSetRequest,
} from "../../api/schemas";
import { DATABASE_PORT, POOLER_PORT } from "../defaults";
import { notFound } from "../errors";
import { newReplicaSetId } from "../ids";
import {
  beginReplicaSetCreation,
  beginReplicaSetDeletion,
  beginReplicaSetResize,
  checkReplicaSetAction,
  checkServiceAction,
  failReplicaSet,
} from "../lifecycle";
import type { ReplicaSetData } from "../store";
import { replicaSetView } from "../views";
import { replicaSetHost } from "./records";
import type { State } from "./state";

/** The read replica set operations of the emulated service. */
export class ReplicaSetModel {
  constructor(private readonly state: State) {}

  /** The replica sets of a service. */
  listReplicaSets(projectId: string, serviceId: string): ReadReplicaSet[] {
    return this.state.service(projectId, serviceId).read_replica_sets.map(replicaSetView);
  }

  /** Creates a replica set of a READY service, its endpoint known at once: creating, then active. */
  createReplicaSet(projectId: string, serviceId: string, body: CreateReplicaSetRequest): ReadReplicaSet {
    const service = this.state.service(projectId, serviceId);
    checkServiceAction(service, "createReplicaSet");
    const replicaSet: ReplicaSetData = {
      id: newReplicaSetId(),
      name: body.name,
      status: "creating",
      nodes: body.nodes,
      cpu_millis: body.cpu_millis,
      memory_gbs: body.memory_gbs,
      metadata: { environment: service.metadata.environment },
      endpoint: null,
      connection_pooler: null,
      error_message: null,
      steps: [],
    };
    replicaSet.endpoint = { host: replicaSetHost(service, replicaSet), port: DATABASE_PORT };
    beginReplicaSetCreation(replicaSet, this.state.now(), this.state.transitionMs);
    this.state.databases?.replicaSetCreated(service, replicaSet);
    service.read_replica_sets.push(replicaSet);
    this.state.commit();
    return replicaSetView(replicaSet);
  }

  /** Deletes a replica set: deleting, then gone. A repeat is accepted. Returns the message. */
  deleteReplicaSet(projectId: string, serviceId: string, replicaSetId: string): string {
    const replicaSet = this.state.replicaSet(projectId, serviceId, replicaSetId);
    if (checkReplicaSetAction(replicaSet, "deleteReplicaSet") === "run") {
      beginReplicaSetDeletion(replicaSet, this.state.now(), this.state.transitionMs);
      this.state.databases?.replicaSetDeleted(replicaSet);
      this.state.commit();
    }
    return `replica set ${replicaSetId} is being deleted`;
  }

  /**
   * Resizes an active replica set (a value left out is kept): resizing, then active with the new
   * sizes. Returns the message.
   */
  resizeReplicaSet(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    body: ResizeReplicaSetRequest,
  ): string {
    const replicaSet = this.state.replicaSet(projectId, serviceId, replicaSetId);
    checkReplicaSetAction(replicaSet, "resizeReplicaSet");
    beginReplicaSetResize(replicaSet, this.state.now(), this.state.transitionMs, {
      cpu_millis: body.cpu_millis ?? replicaSet.cpu_millis,
      memory_gbs: body.memory_gbs ?? replicaSet.memory_gbs,
      nodes: body.nodes ?? replicaSet.nodes,
    });
    this.state.databases?.replicaSetRestarted(replicaSet);
    this.state.commit();
    return `replica set ${replicaSetId} is being resized`;
  }

  /** Enables the connection pooler of an active replica set, at once. Returns the message. */
  enableReplicaSetPooler(projectId: string, serviceId: string, replicaSetId: string): string {
    const service = this.state.service(projectId, serviceId);
    const replicaSet = this.state.replicaSet(projectId, serviceId, replicaSetId);
    checkReplicaSetAction(replicaSet, "enableReplicaSetPooler");
    const endpoint = this.state.databases?.replicaSetPooler(replicaSet, true);
    replicaSet.connection_pooler = {
      endpoint: endpoint ?? { host: replicaSetHost(service, replicaSet), port: POOLER_PORT },
    };
    this.state.commit();
    return `connection pooler of replica set ${replicaSetId} enabled`;
  }

  /** Disables the connection pooler of an active replica set, at once. Returns the message. */
  disableReplicaSetPooler(projectId: string, serviceId: string, replicaSetId: string): string {
    const replicaSet = this.state.replicaSet(projectId, serviceId, replicaSetId);
    checkReplicaSetAction(replicaSet, "disableReplicaSetPooler");
    replicaSet.connection_pooler = null;
    this.state.databases?.replicaSetPooler(replicaSet, false);
    this.state.commit();
    return `connection pooler of replica set ${replicaSetId} disabled`;
  }

  /** Sets a replica set's `metadata.environment` at once, in any state but deleting. */
  setReplicaSetEnvironment(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    environment: Environment,
  ): string {
    const replicaSet = this.state.replicaSet(projectId, serviceId, replicaSetId);
    checkReplicaSetAction(replicaSet, "setReplicaSetEnvironment");
    replicaSet.metadata.environment = environment;
    this.state.commit();
    return `environment of replica set ${replicaSetId} set to ${environment}`;
  }

  /** Puts a replica set, found by id in any service of the project, into `error` (admin API). */
  failReplicaSet(projectId: string, replicaSetId: string, message: string): ReadReplicaSet {
    for (const service of this.state.project(projectId).services) {
      const replicaSet = service.read_replica_sets.find((r) => r.id === replicaSetId);
      if (replicaSet) {
        failReplicaSet(replicaSet, message);
        this.state.commit();
        return replicaSetView(replicaSet);
      }
    }
    throw notFound("replica set", replicaSetId);
  }
}
