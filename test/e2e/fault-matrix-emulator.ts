/**
 * The fault matrix's emulator: a real `mdb-emulator` process with a state file, which a cell may
 * kill and start again on the same port; and what the checks read from it, the project's records
 * and a service's password.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import { E2E_KEYS, EmulatorProcess, type LoggedCall } from "./workspace";

/**
 * An `mdb-emulator` process with a state file, restartable on the same port: a cell may kill it
 * (the API away) and start it again, at the same URL with the same records.
 */
export class MatrixEmulator {
  private process?: EmulatorProcess;
  /** Base URL of the API (the same across restarts). */
  url = "";

  constructor(
    readonly stateFile: string,
    private readonly transitionMs: number,
  ) {}

  /** Starts the process (on the port of the previous start, if any) and waits for its listening line. */
  async start(): Promise<void> {
    const port = this.url ? Number(new URL(this.url).port) : 0;
    this.process = await EmulatorProcess.start(this.transitionMs, { stateFile: this.stateFile, port });
    this.url = this.process.url;
  }

  /** Ends the process at once (SIGKILL: the state file holds every accepted change). */
  async kill(): Promise<void> {
    await this.process?.stop("SIGKILL");
  }

  private get running(): EmulatorProcess {
    if (!this.process) throw new Error("the matrix emulator was never started");
    return this.process;
  }

  /** Calls the API: `projectPath` relative to the project, e.g. `/services`. */
  api<T = unknown>(method: string, projectPath: string, body?: unknown): Promise<T> {
    return this.running.api<T>(method, projectPath, body);
  }

  /** The request log (full paths). */
  requests(): Promise<LoggedCall[]> {
    return this.running.requests();
  }

  /** Empties the request log. */
  clearRequests(): Promise<void> {
    return this.running.clearCalls();
  }

  /** Replaces the fault configuration. */
  setFaults(config: Record<string, unknown>): Promise<void> {
    return this.running.setFaults(config);
  }

  /** Drops every record, the log and the faults. */
  reset(): Promise<void> {
    return this.running.reset();
  }

  /** The emulator's own record of a service's password hash (`salt:hex`), from its state file. */
  passwordHash(serviceId: string): string | undefined {
    const state = JSON.parse(fs.readFileSync(this.stateFile, "utf8")) as {
      projects: Record<string, { services: Array<{ service_id: string; password_hash: string }> }>;
    };
    return state.projects[E2E_KEYS.projectId]?.services.find((s) => s.service_id === serviceId)
      ?.password_hash;
  }
}

/** A service record, as far as the checks read it. */
export interface ServiceRecord {
  service_id: string;
  name: string;
  service_type: string;
  created: string;
  status: string;
  paused?: boolean;
  resources?: Array<{ spec: { cpu_millis: number; memory_gbs: number } }>;
  ha_replicas?: { replica_count?: number };
  connection_pooler?: unknown;
  metadata?: { environment?: string };
  vpcEndpoint?: { vpc_id?: string };
  forked_from?: { service_id?: string };
  read_replica_sets?: Array<{
    id: string;
    name: string;
    status: string;
    nodes: number;
    cpu_millis: number;
    memory_gbs: number;
    connection_pooler?: unknown;
    metadata?: { environment?: string };
  }>;
}

/** Everything the project holds. */
export interface Inventory {
  services: ServiceRecord[];
  vpcs: Array<{ id: string; name: string; cidr: string }>;
  peerings: Array<{ id: string; vpcId: string; peer_vpc_id: string; status: string }>;
}

/** What the project holds now, read through the API. */
export async function inventory(emulator: MatrixEmulator): Promise<Inventory> {
  const services = await emulator.api<ServiceRecord[]>("GET", "/services");
  const vpcs = await emulator.api<Inventory["vpcs"]>("GET", "/vpcs");
  const peerings = (
    await Promise.all(
      vpcs.map(async (v) =>
        (
          await emulator.api<Array<{ id: string; peer_vpc_id: string; status: string }>>(
            "GET",
            `/vpcs/${v.id}/peerings`,
          )
        ).map((p) => ({ ...p, vpcId: v.id })),
      ),
    )
  ).flat();
  return { services, vpcs, peerings };
}

/** True when `password` is the one the emulator's hash `salt:hex` was made from. */
export function matchesHash(hash: string | undefined, password: string): boolean {
  if (!hash) return false;
  const [salt, hex] = hash.split(":");
  return (
    createHash("sha256")
      .update(salt + password)
      .digest("hex") === hex
  );
}
