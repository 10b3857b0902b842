/**
 * Errors as the engine reads them. A failure with a gRPC code of its own (`RpcError`: an RPC the
 * plugin does not serve, a call made out of order); a partial create or update (`InitFailed`),
 * answered with the engine's `ErrorResourceInitFailed` detail so it records the resource with
 * the state given instead of forgetting it (invariant I1, docs/recovery.md); anything else is the
 * error's message, which the engine shows.
 */
import * as grpc from "@grpc/grpc-js";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { INIT_FAILED_TYPE, STATUS_DETAILS_KEY, protocol } from "../../pulumi-contract/grpc-protocol";

/** A failure with its own gRPC status code. */
export class RpcError extends Error {
  constructor(
    /** The status code the engine gets. */
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

/** A resource that exists although its create or update failed: its id, its state as the engine keeps it, why. */
export class InitFailed extends Error {
  constructor(
    /** The resource's id. */
    readonly id: string,
    /** Its state, secrets wrapped. */
    readonly properties: Struct,
    /** Why the operation did not finish. */
    readonly reasons: string[],
  ) {
    super(reasons.join("; "));
    this.name = "InitFailed";
  }
}

/** The status of `error` as a gRPC server answers it. */
export function statusOf(error: unknown): Partial<grpc.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RpcError) return { code: error.code, details: message };
  if (!(error instanceof InitFailed)) return { code: grpc.status.UNKNOWN, details: message };
  const pb = protocol();
  const detail = new pb.provider.ErrorResourceInitFailed();
  detail.setId(error.id);
  detail.setProperties(error.properties);
  detail.setReasonsList(error.reasons);
  const packed = new pb.any.Any();
  packed.pack(detail.serializeBinary(), INIT_FAILED_TYPE);
  const status = new pb.status.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(message);
  status.addDetails(packed);
  const metadata = new grpc.Metadata();
  metadata.add(STATUS_DETAILS_KEY, Buffer.from(status.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}
