/** What every route plugin of the API receives. */
import type { Credentials } from "../auth";
import type { Model } from "../model";

/** Options of the API route plugins. */
export interface RouteContext {
  /** The emulated service. */
  model: Model;
  /** The accepted key (auth info describes it). */
  credentials: Credentials;
  /** When the emulator started, ISO 8601 (the key's creation time in auth info). */
  startedAt: string;
}

/** Path parameters of a project route. */
export interface ProjectParams {
  project_id: string;
}
/** Path parameters of a service route. */
export interface ServiceParams extends ProjectParams {
  service_id: string;
}
/** Path parameters of a replica set route. */
export interface ReplicaSetParams extends ServiceParams {
  replica_set_id: string;
}
/** Path parameters of a VPC route. */
export interface VpcParams extends ProjectParams {
  vpc_id: string;
}
/** Path parameters of a peering route. */
export interface PeeringParams extends VpcParams {
  peering_id: string;
}
