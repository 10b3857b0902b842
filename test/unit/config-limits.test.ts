/**
 * The transport's limits, and the waits', a stack may set: stack config `mdb:<name>` first, else `MDB_<NAME>`; a
 * value that is not a whole number in range is a configuration problem naming both, which check
 * reports at preview. The client built from them: test/integration/transport-bounds.test.ts.
 */
import {
  configProblems,
  keySettingsWhere,
  resolveConfig,
  resolveTransportLimits,
  resolveWaitLimits,
  settingWhere,
} from "../../provider/config";
import { ApiSession } from "../../provider/runtime";

const BASE = { MDB_API_URL: "https://api.example.com", MDB_PUBLIC_KEY: "pk", MDB_SECRET_KEY: "sk" };
const stack = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

describe("transport limits from stack config and the environment", () => {
  it("reads every limit from stack config, else the environment, as whole numbers", () => {
    const { limits, problems } = resolveTransportLimits(
      stack({ "mdb:callDeadlineMs": "90000", "mdb:maxRetryAfterMs": "0", "mdb:timeoutMs": "" }),
      {
        MDB_CALL_DEADLINE_MS: "5",
        MDB_ATTEMPT_DEADLINE_MS: "20000",
        MDB_TIMEOUT_MS: "7000",
        MDB_MAX_RESPONSE_BYTES: "1048576",
        MDB_MAX_HEADER_BYTES: "32768",
      },
    );
    expect(problems).toEqual([]);
    expect(limits).toEqual({
      callDeadlineMs: 90_000,
      attemptDeadlineMs: 20_000,
      timeoutMs: 7_000,
      maxResponseBytes: 1_048_576,
      maxHeaderBytes: 32_768,
      maxRetryAfterMs: 0,
    });
  });

  it("sets none by default: the client's defaults apply", () => {
    expect(resolveTransportLimits(stack({}), {})).toEqual({ limits: {}, problems: [] });
  });

  it.each([
    [
      "mdb:callDeadlineMs",
      "2m",
      /^stack config mdb:callDeadlineMs is "2m"; it must be a whole number from 1 to \d+ \(milliseconds\)\. Set it with `pulumi config set mdb:callDeadlineMs <value>` or the environment variable MDB_CALL_DEADLINE_MS$/,
    ],
    [
      "mdb:attemptDeadlineMs",
      "0",
      /^stack config mdb:attemptDeadlineMs is "0"; it must be a whole number from 1 to/,
    ],
    [
      "mdb:maxResponseBytes",
      "1.5",
      /^stack config mdb:maxResponseBytes is "1\.5"; .*\(bytes\).*MDB_MAX_RESPONSE_BYTES$/,
    ],
    ["mdb:maxResponseBytes", "99999999999", /must be a whole number from 1 to \d+ \(bytes\)/],
    [
      "mdb:maxRetryAfterMs",
      "-1",
      /^stack config mdb:maxRetryAfterMs is "-1"; it must be a whole number from 0 to/,
    ],
  ])("%s = %p is a configuration problem naming the key and the variable", (key, value, message) => {
    const problems = configProblems(stack({ [key]: value }), BASE);
    expect(problems).toEqual([expect.stringMatching(message)]);
    expect(() => resolveConfig(stack({ [key]: value }), BASE)).toThrow(
      /^pulumi-managed-db is not configured correctly: stack config/,
    );
  });

  it("a bad environment variable is named as such", () => {
    expect(configProblems(stack({}), { ...BASE, MDB_TIMEOUT_MS: "soon" })).toEqual([
      expect.stringMatching(/^environment variable MDB_TIMEOUT_MS is "soon"; it must be a whole number/),
    ]);
  });
});

describe("the wait limit mdb:unexpectedStatusMs", () => {
  it("is read from stack config, else MDB_UNEXPECTED_STATUS_MS, and reaches the session", () => {
    expect(resolveWaitLimits(stack({ "mdb:unexpectedStatusMs": "60000" }), {}).limits).toEqual({
      unexpectedStatusMs: 60_000,
    });
    expect(resolveWaitLimits(stack({}), { MDB_UNEXPECTED_STATUS_MS: "1500" }).limits).toEqual({
      unexpectedStatusMs: 1_500,
    });
    expect(resolveWaitLimits(stack({}), {})).toEqual({ limits: {}, problems: [] });
    const session = new ApiSession(resolveConfig(stack({}), { ...BASE, MDB_UNEXPECTED_STATUS_MS: "1500" }));
    expect(session.unexpectedStatusMs).toBe(1_500);
  });

  it("a value that is not a whole number is a configuration problem naming the key and the variable", () => {
    expect(configProblems(stack({ "mdb:unexpectedStatusMs": "5m" }), BASE)).toEqual([
      'stack config mdb:unexpectedStatusMs is "5m"; it must be a whole number from 1 to 9007199254740991 ' +
        "(milliseconds). Set it with `pulumi config set mdb:unexpectedStatusMs <value>` or the environment " +
        "variable MDB_UNEXPECTED_STATUS_MS",
    ]);
  });
});

describe("the adoption switch and an explicit provider's arguments", () => {
  it("an adoption switch that is not true or false is a configuration problem, which check reports at preview", () => {
    expect(configProblems(stack({ "mdb:adoptExisting": "yes" }), BASE)).toEqual([
      'stack config mdb:adoptExisting is "yes"; it must be true or false. Set it with `pulumi config set mdb:adoptExisting true|false` or the environment variable MDB_ADOPT_EXISTING',
    ]);
    expect(configProblems(stack({}), { ...BASE, MDB_ADOPT_EXISTING: "1" })).toEqual([
      'environment variable MDB_ADOPT_EXISTING is "1"; it must be true or false. Set it with `pulumi config set mdb:adoptExisting true|false` or the environment variable MDB_ADOPT_EXISTING',
    ]);
    expect(configProblems(stack({ "mdb:adoptExisting": "true" }), BASE)).toEqual([]);
  });

  it("values given as an explicit provider's arguments are named as such, with how to give them", () => {
    const args = {
      get: (key: string) =>
        ({
          "mdb:apiUrl": "not a url",
          "mdb:unexpectedStatusMs": "-5",
          "mdb:adoptExisting": "yes",
        })[key],
      origin: "the arguments of provider prod",
    };
    expect(configProblems(args, {})).toEqual([
      "publicKey is required: give it in the arguments of provider prod, or set the environment variable MDB_PUBLIC_KEY",
      "secretKey is required: give it in the arguments of provider prod, or set the environment variable MDB_SECRET_KEY",
      'apiUrl in the arguments of provider prod: API URL "not a url" is not a valid URL',
      'unexpectedStatusMs in the arguments of provider prod is "-5"; it must be a whole number from 1 to 9007199254740991 (milliseconds). Give unexpectedStatusMs in the arguments of provider prod, or set the environment variable MDB_UNEXPECTED_STATUS_MS',
      'adoptExisting in the arguments of provider prod is "yes"; it must be true or false. Give adoptExisting in the arguments of provider prod, or set the environment variable MDB_ADOPT_EXISTING',
    ]);
    // A value the environment gives is named as the environment's, whoever asks.
    expect(
      configProblems(
        { get: () => undefined, origin: "the arguments of provider prod" },
        { ...BASE, MDB_TIMEOUT_MS: "x" },
      ),
    ).toEqual([
      'environment variable MDB_TIMEOUT_MS is "x"; it must be a whole number from 1 to 9007199254740991 (milliseconds). Give timeoutMs in the arguments of provider prod, or set the environment variable MDB_TIMEOUT_MS',
    ]);
  });

  it("where a setting in use was given: stack config, an explicit provider's argument, or the environment", () => {
    const prod = "the arguments of provider prod";
    const args = (values: Record<string, string>) => ({ get: (key: string) => values[key], origin: prod });
    expect(settingWhere("projectId", stack({ "mdb:projectId": "p" }))).toBe("mdb:projectId / MDB_PROJECT_ID");
    expect(settingWhere("projectId", undefined)).toBe("mdb:projectId / MDB_PROJECT_ID");
    expect(settingWhere("projectId", args({ "mdb:projectId": "p" }))).toBe(`projectId in ${prod}`);
    // An explicit provider reads no stack config: what its arguments leave out comes from the environment.
    expect(settingWhere("projectId", args({ "mdb:projectId": "" }))).toBe(
      "the environment variable MDB_PROJECT_ID",
    );
    expect(keySettingsWhere(stack({}))).toBe(
      "mdb:publicKey / MDB_PUBLIC_KEY and mdb:secretKey / MDB_SECRET_KEY",
    );
    expect(keySettingsWhere(args({ "mdb:publicKey": "pk", "mdb:secretKey": "sk" }))).toBe(
      `publicKey and secretKey in ${prod}`,
    );
    expect(keySettingsWhere(args({ "mdb:publicKey": "pk" }))).toBe(
      `publicKey in ${prod} and the environment variable MDB_SECRET_KEY`,
    );
    // A bad API URL: named where it was given.
    expect(configProblems(args({}), { ...BASE, MDB_API_URL: "not a url" })).toEqual([
      'the environment variable MDB_API_URL: API URL "not a url" is not a valid URL',
    ]);
  });
});
