/**
 * What the conformance suites share: an emulator whose every API answer is checked against the
 * contract of its dialect (the success status of its operation in api/operations.ts, the STRICT
 * reading of its body as that dialect answers it, and the dialect's words in every service record;
 * or a strict error body), and the assertions of a 400 naming a field and a 409 naming a state.
 */
import type { Dialect } from "../../api/dialects";
import { OPERATIONS, answerKind, operationIdsOf, responseSchema, type Operation } from "../../api/operations";
import { STRICT_RECORDS, describeIssues } from "../../api/schemas";
import type { EmulatorOptions } from "../../emulator";
import { startTestEmulator, type TestEmulator, type TestResponse } from "../helpers/emulator";

/**
 * The operation of `dialect` (default seed) whose method and path (relative to the base URL, a
 * trailing slash allowed) match, if any.
 */
export function operationAt(method: string, path: string, dialect: Dialect = "seed"): Operation | undefined {
  const bare = path.split("?")[0];
  return operationIdsOf(dialect)
    .map((id) => OPERATIONS[id] as Operation)
    .find(
      (op) =>
        op.method === method.toUpperCase() &&
        new RegExp(`^${op.path.replace(/\{\w+\}/g, "[^/]+")}/?$`).test(bare),
    );
}

/**
 * The words of each dialect in a service record (docs/api.md#dialects), as a list of what is wrong:
 * `seed` has `paused`, TIMESERIESDB and `vpcEndpoint` only; `vendor` has no `paused`, TIMESCALEDB,
 * and `vpc_endpoint` (with `vpcEndpoint` equal to it, or absent when deprecated fields are off).
 */
export function dialectFaults(dialect: Dialect, service: Record<string, unknown>): string[] {
  const faults: string[] = [];
  if (dialect === "seed") {
    if (typeof service.paused !== "boolean") faults.push("seed records carry paused");
    if (service.service_type === "TIMESCALEDB") faults.push("seed says TIMESERIESDB");
    if ("vpc_endpoint" in service) faults.push("seed records have no vpc_endpoint");
  } else {
    if ("paused" in service) faults.push("vendor records have no paused");
    if (service.service_type === "TIMESERIESDB") faults.push("vendor says TIMESCALEDB");
    if (
      "vpcEndpoint" in service &&
      JSON.stringify(service.vpcEndpoint) !== JSON.stringify(service.vpc_endpoint)
    )
      faults.push("vendor's deprecated vpcEndpoint goes with an equal vpc_endpoint");
  }
  return faults;
}

/** The service records of an answer of kind `kind`, to check their words. */
function servicesIn(kind: string, body: unknown): Record<string, unknown>[] {
  if (kind === "service" || (kind === "serviceOrNone" && body !== undefined))
    return [body as Record<string, unknown>];
  if (kind === "serviceList") return body as Record<string, unknown>[];
  return [];
}

/**
 * Throws unless an answer of an emulator speaking `dialect` (default seed) keeps the contract: an
 * error is a strict `{code, message}`; a success comes from an operation the dialect serves, with
 * its status, a body its strict schema reads as the dialect answers, and the dialect's words.
 */
export function checkAnswer(
  method: string,
  path: string,
  response: TestResponse,
  dialect: Dialect = "seed",
): void {
  const what = `${method} ${path} answered ${response.status} ${response.text}`;
  if (response.status >= 400) {
    const error = STRICT_RECORDS.ErrorBody.safeParse(response.body);
    if (!error.success) throw new Error(`${what}: not a strict error body: ${describeIssues(error.error)}`);
    return;
  }
  const op = operationAt(method, path, dialect);
  if (!op) throw new Error(`${what}: no operation of the ${dialect} dialect has this method and path`);
  if (response.status !== op.status) throw new Error(`${what}: ${op.name} answers ${op.status}`);
  const body = responseSchema(op.id, "strict", dialect).safeParse(response.body);
  if (!body.success) {
    throw new Error(`${what}: not the strict body of ${op.name}: ${describeIssues(body.error)}`);
  }
  const faults = servicesIn(answerKind(op.id, dialect), response.body).flatMap((s) =>
    dialectFaults(dialect, s),
  );
  if (faults.length > 0)
    throw new Error(`${what}: not in the ${dialect} dialect's words: ${faults.join("; ")}`);
}

/** The dialects every table-driven suite runs in. */
export const DIALECT_CASES: readonly Dialect[] = ["seed", "vendor"];

/** A test emulator (of `options.dialect`, default seed) whose `api` checks every answer with {@link checkAnswer}. */
export async function startConformanceEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startTestEmulator(options);
  const dialect = options.dialect ?? "seed";
  return {
    ...emu,
    api: async <T>(...args: Parameters<TestEmulator["api"]>) => {
      const response = await emu.api<T>(...args);
      checkAnswer(args[0], args[1], response, dialect);
      return response;
    },
  };
}

/** Asserts a 400 INVALID_REQUEST whose message starts with the field (a regular expression). */
export function expectInvalid(response: TestResponse, field: string): void {
  expect(response.status).toBe(400);
  expect(STRICT_RECORDS.ErrorBody.parse(response.body)).toEqual({
    code: "INVALID_REQUEST",
    message: expect.stringMatching(new RegExp(`^${field}: `)),
  });
}

/** Asserts a 409 CONFLICT whose message names the state (or record) that forbids the action. */
export function expectConflict(response: TestResponse, state: string): void {
  expect(response.status).toBe(409);
  expect(STRICT_RECORDS.ErrorBody.parse(response.body)).toEqual({
    code: "CONFLICT",
    message: expect.stringContaining(state),
  });
}
