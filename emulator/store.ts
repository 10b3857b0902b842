/**
 * In-memory state of the emulator: per project, its services (each holding its read replica sets)
 * and its VPCs (each holding its peerings). Pending lifecycle steps are part of every record, so
 * the state is plain JSON: it can be saved to a state file and loaded at the next start, and the
 * transitions resume where they were.
 *
 * The store knows nothing about HTTP or about lifecycle rules; `model.ts` changes the records and
 * calls `commit()` after every change.
 */
import writeFileAtomic from "write-file-atomic";
import type { Dialect } from "../api/dialects";
import { emptyState, loadStateFile, type StateFileContents } from "./state-file";
import type {
  Environment,
  ReplicaSetStatus,
  ServiceStatus,
  ServiceType,
  PeeringStatus,
} from "../api/schemas";

/** A lifecycle step due at `due` (epoch ms): set `status`, merge `patch`, or remove the record (`gone`). */
export interface Step<Status extends string, Patch extends object> {
  /** When the step happens, in epoch milliseconds. */
  due: number;
  /** Status the record takes at `due`. */
  status?: Status;
  /** Fields the record takes at `due`. */
  patch?: Patch;
  /** The record disappears at `due` (end of a deletion). */
  gone?: boolean;
}

/** Host and port. A type alias, not an interface, so it fits the schemas' loose object types. */
export type EndpointData = {
  host: string;
  port: number;
};

/** Fields of a service that lifecycle steps change. */
export interface ServicePatch {
  paused?: boolean;
  resources?: { id: string; spec: { cpu_millis: number; memory_gbs: number; volume_type: string } }[];
  ha_replicas?: { replica_count: number; sync_replica_count: number };
  endpoint?: EndpointData | null;
  vpcEndpoint?: (EndpointData & { vpc_id: string }) | null;
}

/** How a fork copies its source's data: NOW and LAST_SNAPSHOT as it is, PITR as of a time. */
export type ForkStrategy = "NOW" | "LAST_SNAPSHOT" | "PITR";

/** Where a service's data come from: a copy of the template (a create), or of a fork's source. */
export type ServerOrigin =
  | { from: "template" }
  | {
      from: "fork";
      /** The source service. */
      service_id: string;
      strategy: ForkStrategy;
      /** PITR's target, epoch milliseconds. */
      target_ms?: number;
    };

/**
 * What the server behind a service (`--databases`) must end up as, kept by the databases room so a
 * restart after a crash can finish or redo its work (docs/emulator.md#after-a-crash).
 */
export interface ServerData {
  /** SCRAM-SHA-256 verifier of the current password, as PostgreSQL keeps it: never the password. */
  password_verifier: string;
  /** What a data folder the crash left half-made is made again from. */
  origin: ServerOrigin;
}

/** A service as the emulator keeps it: the wire fields, its secrets and pending steps. */
export interface ServiceData extends ServicePatch {
  service_id: string;
  project_id: string;
  name: string;
  region_code: string;
  service_type: ServiceType;
  /** ISO 8601 creation time. */
  created: string;
  status: ServiceStatus;
  paused: boolean;
  resources: NonNullable<ServicePatch["resources"]>;
  metadata: { environment: Environment };
  forked_from: { project_id: string; service_id: string; is_standby: boolean } | null;
  ha_replicas: NonNullable<ServicePatch["ha_replicas"]>;
  connection_pooler: { endpoint: EndpointData } | null;
  /** Salted SHA-256 of the current password (`salt:hex`); the password itself is never kept. */
  password_hash: string;
  /** VPC the service is attached or being attached to, from the attach request on; null after detach. */
  attached_vpc_id: string | null;
  read_replica_sets: ReplicaSetData[];
  steps: Step<ServiceStatus, ServicePatch>[];
  /** Its server, with `--databases`. */
  server?: ServerData;
  /** Why the service is UNSTABLE (its server failed); absent otherwise. */
  error_message?: string | null;
  /**
   * The steps a server failure interrupted (an UNSTABLE service's way back): the next start with
   * `--databases` tries the server again and, once it runs, takes them.
   */
  retry_steps?: Step<ServiceStatus, ServicePatch>[];
}

/** Fields of a read replica set that lifecycle steps change. */
export interface ReplicaSetPatch {
  nodes?: number;
  cpu_millis?: number;
  memory_gbs?: number;
  endpoint?: EndpointData | null;
}

/** A read replica set as the emulator keeps it. */
export interface ReplicaSetData extends ReplicaSetPatch {
  id: string;
  name: string;
  status: ReplicaSetStatus;
  nodes: number;
  cpu_millis: number;
  memory_gbs: number;
  metadata: { environment: Environment };
  connection_pooler: { endpoint: EndpointData } | null;
  /** Why the set is in `error` (its server failed, or the admin API said so); null otherwise. */
  error_message: string | null;
  steps: Step<ReplicaSetStatus, ReplicaSetPatch>[];
  /** As a service's: set when its server failed (not when the admin API failed it). */
  retry_steps?: Step<ReplicaSetStatus, ReplicaSetPatch>[];
}

/** Fields of a peering that lifecycle steps change. */
export interface PeeringPatch {
  provisioned_id?: string | null;
  error_message?: string | null;
}

/** A VPC peering as the emulator keeps it. */
export interface PeeringData extends PeeringPatch {
  id: string;
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id: string;
  status: PeeringStatus;
  steps: Step<PeeringStatus, PeeringPatch>[];
}

/** A VPC as the emulator keeps it. */
export interface VpcData {
  id: string;
  name: string;
  cidr: string;
  region_code: string;
  peerings: PeeringData[];
}

/** Everything one project holds, in creation order (lists answer in that order). */
export interface ProjectData {
  services: ServiceData[];
  vpcs: VpcData[];
}

/** Options of the store. */
export interface StoreOptions {
  /** Path of the JSON state file: loaded if present, rewritten atomically after every change. */
  stateFile?: string;
  /** The dialect spoken: a state file another dialect wrote is refused (state-file.ts). Default `seed`. */
  dialect?: Dialect;
}

/** The emulator's state, optionally persisted to a state file. */
export class Store {
  private state: StateFileContents<ProjectData>;
  private readonly dialect: Dialect;

  constructor(private readonly options: StoreOptions = {}) {
    this.dialect = options.dialect ?? "seed";
    this.state = options.stateFile
      ? loadStateFile<ProjectData>(options.stateFile, this.dialect)
      : emptyState<ProjectData>(this.dialect);
  }

  /** The records of a project, created empty on first use. */
  project(projectId: string): ProjectData {
    const existing = this.state.projects[projectId];
    if (existing) return existing;
    const created: ProjectData = { services: [], vpcs: [] };
    this.state.projects[projectId] = created;
    return created;
  }

  /** Every project held (the model advances lifecycles across all of them). */
  projects(): ProjectData[] {
    return Object.values(this.state.projects);
  }

  /** Drops every record (admin reset) and saves the empty state. */
  clear(): void {
    this.state = emptyState<ProjectData>(this.dialect);
    this.commit();
  }

  /**
   * Saves the state file, if any. Synchronous and atomic (temporary file + rename), so that an
   * answer is only sent once its change is on disk and a `kill -9` never leaves a torn file.
   */
  commit(): void {
    if (!this.options.stateFile) return;
    writeFileAtomic.sync(this.options.stateFile, JSON.stringify(this.state, null, 2) + "\n");
  }
}
