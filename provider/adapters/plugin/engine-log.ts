/**
 * Progress to the person running Pulumi, through the engine's `Log` (the engine hides a
 * plugin's stderr): a line with the URN of a resource shows under that resource, as the
 * preview's `[mdb]` lines and a wait's progress do; one without belongs to the run. Lines are
 * sent one after the other, in order, and an RPC's answer waits until its lines are sent
 * ({@link EngineLog.flushed}), so the engine never ends a command before showing them.
 */
import * as grpc from "@grpc/grpc-js";
import { protocol } from "../../pulumi-contract/grpc-protocol";

/** A unary call of a generic gRPC client. */
type Unary = (
  request: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null) => void,
) => void;

/** How long one line may take to reach the engine before it is given up. */
const SEND_LIMIT_MS = 5000;

/** The engine's log, at the address the engine gave (its argument, then Handshake or Attach). */
export class EngineLog {
  private client: (grpc.Client & { log: Unary }) | undefined;
  private address: string | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(address?: string) {
    this.address = address || undefined;
  }

  /** The engine's address, once known. */
  get engineAddress(): string | undefined {
    return this.address;
  }

  /** Sends later lines to `address` (what Handshake or Attach says). */
  setAddress(address: string): void {
    if (!address || address === this.address) return;
    this.close();
    this.address = address;
  }

  /** Sends `message` at severity info, under the resource `urn` when given. */
  info(message: string, urn?: string): void {
    const address = this.address;
    if (!address) return;
    this.queue = this.queue.then(() => this.send(address, message, urn));
  }

  /** Resolves once every line given so far was sent (or failed to be: a lost line never fails an RPC). */
  flushed(): Promise<void> {
    return this.queue;
  }

  /** Closes the connection. */
  close(): void {
    this.client?.close();
    this.client = undefined;
  }

  private send(address: string, message: string, urn?: string): Promise<void> {
    const pb = protocol();
    if (!this.client) {
      const Client = grpc.makeGenericClientConstructor(
        pb.engineService as unknown as grpc.ServiceDefinition,
        "Engine",
      );
      this.client = new Client(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
        log: Unary;
      };
    }
    const request = new pb.engine.LogRequest();
    request.setSeverity(pb.engine.LogSeverity.INFO);
    request.setMessage(message);
    if (urn) request.setUrn(urn);
    const client = this.client;
    return new Promise((resolve) =>
      client.log(request, new grpc.Metadata(), { deadline: Date.now() + SEND_LIMIT_MS }, () => resolve()),
    );
  }
}
