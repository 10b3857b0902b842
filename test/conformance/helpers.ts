/**
 * What the conformance suites share: an emulator whose every API answer is checked against the
 * contract (the success status of its operation in api/operations.ts and the STRICT reading of its
 * body, or a strict error body), and the assertions of a 400 naming a field and a 409 naming a state.
 */
import { OPERATIONS, OPERATION_IDS, responseSchema, type Operation } from "../../api/operations";
import { STRICT_RECORDS, describeIssues } from "../../api/schemas";
import type { EmulatorOptions } from "../../emulator";
import { startTestEmulator, type TestEmulator, type TestResponse } from "../helpers/emulator";

/** The operation whose method and path (relative to the base URL, a trailing slash allowed) match, if any. */
export function operationAt(method: string, path: string): Operation | undefined {
  const bare = path.split("?")[0];
  return OPERATION_IDS.map((id) => OPERATIONS[id] as Operation).find(
    (op) =>
      op.method === method.toUpperCase() &&
      new RegExp(`^${op.path.replace(/\{\w+\}/g, "[^/]+")}/?$`).test(bare),
  );
}

/**
 * Throws unless an answer of the emulator keeps the contract: an error is a strict `{code, message}`;
 * a success comes from an operation of the table, with its status and a body its strict schema reads.
 */
export function checkAnswer(method: string, path: string, response: TestResponse): void {
  const what = `${method} ${path} answered ${response.status} ${response.text}`;
  if (response.status >= 400) {
    const error = STRICT_RECORDS.ErrorBody.safeParse(response.body);
    if (!error.success) throw new Error(`${what}: not a strict error body: ${describeIssues(error.error)}`);
    return;
  }
  const op = operationAt(method, path);
  if (!op) throw new Error(`${what}: no operation of the table has this method and path`);
  if (response.status !== op.status) throw new Error(`${what}: ${op.name} answers ${op.status}`);
  const body = responseSchema(op.id, "strict", "seed").safeParse(response.body);
  if (!body.success) {
    throw new Error(`${what}: not the strict body of ${op.name}: ${describeIssues(body.error)}`);
  }
}

/** A test emulator whose `api` checks every answer with {@link checkAnswer}. */
export async function startConformanceEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startTestEmulator(options);
  return {
    ...emu,
    api: async <T>(...args: Parameters<TestEmulator["api"]>) => {
      const response = await emu.api<T>(...args);
      checkAnswer(args[0], args[1], response);
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
