/**
 * The words the emulator speaks (docs/api.md#dialects), apart from the model: the model answers in
 * the seed's words, and this layer rewrites an answer for the `vendor` dialect by the kind of body
 * its operation answers (api/operations.ts): service records without `paused`, with service type
 * TIMESCALEDB and `vpc_endpoint` (plus the deprecated `vpcEndpoint` unless switched off), renameVpc
 * answering `{message}`, delete replica set answering no body, auth info and logs without their
 * deprecated aliases when switched off. Path ids are checked by api/path-ids.ts; VPC and peering
 * ids themselves are made digit strings by the model (ids.ts).
 */
import type { Dialect } from "../api/dialects";
import { answerKind, type OperationId } from "../api/operations";

/** How the emulator speaks: its dialect, and whether `vendor` answers carry deprecated aliases. */
export interface Speech {
  /** The dialect. */
  readonly dialect: Dialect;
  /**
   * `vendor` only: whether answers carry the current document's deprecated aliases beside the
   * current names (`vpcEndpoint`, auth info's `apiKey`, logs' `lastCursor`). Default true, as the
   * vendor serves them; false checks that a client reads the current names alone.
   */
  readonly deprecatedFields: boolean;
}

/** The seed's words. */
export const SEED_SPEECH: Speech = { dialect: "seed", deprecatedFields: true };

type Json = Record<string, unknown>;

/** The answer of operation `id` as `speech` words it; the seed's words are the model's own. */
export function speak(speech: Speech, id: OperationId, answer: unknown): unknown {
  if (speech.dialect === "seed") return answer;
  const kind = answerKind(id, "vendor");
  switch (kind) {
    case "service":
    case "serviceOrNone":
      return answer === undefined ? answer : vendorService(answer as Json, speech);
    case "serviceList":
      return (answer as Json[]).map((s) => vendorService(s, speech));
    case "actionResult":
      // renameVpc's VPC becomes the message the current document answers.
      return id === "renameVpc" ? { message: `VPC renamed to ${(answer as Json).name as string}` } : answer;
    case "none":
      return undefined;
    case "authInfo":
      return speech.deprecatedFields ? answer : withoutKey(answer as Json, "apiKey");
    case "serviceLogs": {
      const logs = answer as Json;
      return speech.deprecatedFields && logs.last_cursor !== undefined
        ? { ...logs, lastCursor: logs.last_cursor }
        : logs;
    }
    default:
      return answer;
  }
}

/** A service record in the current document's words. */
function vendorService(service: Json, speech: Speech): Json {
  const { paused: _paused, vpcEndpoint, ...rest } = service;
  const words: Json = {
    ...rest,
    service_type: rest.service_type === "TIMESERIESDB" ? "TIMESCALEDB" : rest.service_type,
  };
  if (vpcEndpoint) {
    words.vpc_endpoint = vpcEndpoint;
    if (speech.deprecatedFields) words.vpcEndpoint = vpcEndpoint;
  }
  return words;
}

/** `record` without `key`. */
function withoutKey(record: Json, key: string): Json {
  const copy = { ...record };
  delete copy[key];
  return copy;
}
