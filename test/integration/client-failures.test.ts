/**
 * The API client against the emulator's injected failures, over real HTTP: retries under 429, 5xx
 * and dropped connections (counted in the emulator's request log), creates that are never sent
 * twice after an ambiguous failure, the details errors carry, and no credential or password in any
 * error text.
 */
import * as net from "node:net";
import * as util from "node:util";
import type { LoggedRequest } from "../../emulator";
import { MdbApi } from "../../provider/client/api";
import { MdbRequestError } from "../../provider/client/errors";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSWORD, SECRET_KEY, apiFailure, clientHelpers, failure } from "./client-helpers";

let emu: TestEmulator;
let projectId: string;
/** The client under test. */
let api: MdbApi;

beforeAll(async () => {
  emu = await startTestEmulator({ secretKey: SECRET_KEY });
  projectId = emu.credentials.projectId;
  api = newClient();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const { newClient, exactPath, loggedPath, logOf, until, serviceInStatus, readyService } = clientHelpers(
  () => ({
    emu,
    projectId,
    api,
  }),
);

describe("retries", () => {
  it("a GET that meets two 503s succeeds on the third request", async () => {
    const { service_id: id } = await readyService();
    const retries: string[] = [];
    const client = newClient({ onRetry: (info) => retries.push(`${info.operation} ${info.reason}`) });
    await emu.setFaults({
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 2, status: 503 }],
    });
    await emu.clearRequests();

    const service = await client.getService(projectId, id);
    expect(service.service_id).toBe(id);
    expect(await emu.requests()).toEqual([
      expect.objectContaining({ method: "GET", path: loggedPath(`/services/${id}`), status: 503 }),
      expect.objectContaining({ method: "GET", path: loggedPath(`/services/${id}`), status: 503 }),
      expect.objectContaining({ method: "GET", path: loggedPath(`/services/${id}`), status: 200 }),
    ]);
    expect(retries).toEqual(["getService HTTP 503", "getService HTTP 503"]);
  });

  it("a view's report hears its call's retries, with the pause each takes, and the answer; the client's listener does not", async () => {
    const { service_id: id } = await readyService();
    const heard: string[] = [];
    const client = newClient({ onRetry: (info) => heard.push(`client: ${info.operation} ${info.reason}`) });
    const view = client.withSignal(undefined, {
      retrying: (info) => {
        heard.push(
          `${info.operation} ${info.reason} retry ${info.attempt} of ${info.retries} after ${info.delayMs} ms`,
        );
        return true;
      },
      answered: ({ operation, attempts }) => heard.push(`${operation} answered at attempt ${attempts}`),
    });
    await emu.setFaults({
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 2, status: 503 }],
    });
    await emu.clearRequests();

    expect((await view.getService(projectId, id)).service_id).toBe(id);
    expect(heard).toEqual([
      expect.stringMatching(/^getService HTTP 503 retry 1 of 6 after \d+ ms$/),
      expect.stringMatching(/^getService HTTP 503 retry 2 of 6 after \d+ ms$/),
      "getService answered at attempt 3",
    ]);
    // The pause said is the one taken: the log's gaps are at least as long.
    const at = (await emu.requests()).map((r: LoggedRequest) => Date.parse(r.at));
    const said = heard.slice(0, 2).map((line) => Number(/after (\d+) ms/.exec(line)?.[1]));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(said[0] - 5);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(said[1] - 5);
    // The client itself still hears the retries of calls made without a report.
    await emu.setFaults({
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 1, status: 503 }],
    });
    await client.getService(projectId, id);
    expect(heard.at(-1)).toBe("client: getService HTTP 503");
  });

  it("a GET rate limited twice waits the Retry-After of each 429, then succeeds", async () => {
    const { service_id: id } = await readyService();
    const delays: number[] = [];
    const client = newClient({ onRetry: (info) => delays.push(info.delayMs) });
    await emu.setFaults({
      retryAfterSeconds: 1,
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 2, status: 429 }],
    });
    await emu.clearRequests();

    expect((await client.getService(projectId, id)).service_id).toBe(id);
    const log: LoggedRequest[] = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["GET 429", "GET 429", "GET 200"]);
    const at = log.map((r) => Date.parse(r.at));
    // 1 s asked, not the 10-50 ms backoff; a few ms of timer slack allowed.
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(990);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(990);
    expect(delays).toEqual([1000, 1000]);
  });

  it("a GET whose connection is dropped twice succeeds on the third request", async () => {
    const { service_id: id } = await readyService();
    await emu.setFaults({
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 2, drop: true }],
    });
    await emu.clearRequests();

    expect((await api.getService(projectId, id)).service_id).toBe(id);
    // The log reports a dropped connection as status 0.
    expect(await logOf("GET", `/services/${id}`)).toEqual(["GET 0", "GET 0", "GET 200"]);
    expect(await emu.requests()).toHaveLength(3);
  });

  it("an idempotent POST (resize) that meets a 500 is sent again and takes effect", async () => {
    const { service_id: id } = await readyService();
    await emu.setFaults({
      rules: [{ method: "POST", path: exactPath(`/services/${id}/resize`), status: 500 }],
    });
    await emu.clearRequests();

    await expect(api.resizeService(projectId, id, { cpuMillis: 1000, memoryGbs: 4 })).resolves.toMatchObject({
      service_id: id,
    });
    expect(await logOf("POST", `/services/${id}/resize`)).toEqual(["POST 500", "POST 202"]);
    const resized = await serviceInStatus(id, "READY");
    expect(resized.resources?.[0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
  });

  it("gives up after maxRetries and reports the last status", async () => {
    const { service_id: id } = await readyService();
    const client = newClient({ maxRetries: 2 });
    await emu.setFaults({
      rules: [{ method: "GET", path: exactPath(`/services/${id}`), count: 10, status: 502 }],
    });
    await emu.clearRequests();

    const error = await apiFailure(client.getService(projectId, id));
    expect(error).toMatchObject({
      status: 502,
      code: "BAD_GATEWAY",
      operation: "getService",
      resourceId: id,
    });
    expect(await logOf("GET", `/services/${id}`)).toEqual(["GET 502", "GET 502", "GET 502"]);
  });
});

describe("a create is never sent twice after an ambiguous failure", () => {
  const servicesPath = () => exactPath("/services");
  const input = { name: "once", regionCode: "us-east-1", cpuMillis: 500, memoryGbs: 2 };

  it("a 500 after the service was created: ambiguous, one POST, one service", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: servicesPath(), status: 500, after: true }] });

    const error = await apiFailure(api.createService(projectId, input));
    expect(error).toMatchObject({ status: 500, operation: "createService", ambiguous: true });
    expect(await logOf("POST", "/services")).toEqual(["POST 500"]);
    expect((await api.listServices(projectId)).map((s) => s.name)).toEqual(["once"]);
  });

  it("a connection dropped after the service was created: ambiguous, one POST, one service", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: servicesPath(), drop: true, after: true }] });

    const error = await apiFailure(api.createService(projectId, input));
    expect(error).toMatchObject({ status: undefined, code: "NETWORK_ERROR", ambiguous: true });
    expect(await logOf("POST", "/services")).toEqual(["POST 0"]);
    expect((await api.listServices(projectId)).map((s) => s.name)).toEqual(["once"]);
  });

  it("a 5xx before processing is not retried either: the client cannot tell it from one after", async () => {
    await emu.setFaults({ rules: [{ method: "POST", path: servicesPath(), status: 503 }] });

    const error = await apiFailure(api.createService(projectId, input));
    expect(error).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", ambiguous: true });
    expect(await logOf("POST", "/services")).toEqual(["POST 503"]);
    expect(await api.listServices(projectId)).toEqual([]);
  });

  it("a 429 is retried (never processed): two POSTs, one service", async () => {
    await emu.setFaults({
      retryAfterSeconds: 0,
      rules: [{ method: "POST", path: servicesPath(), status: 429 }],
    });

    const created = await api.createService(projectId, input);
    expect(created.name).toBe("once");
    expect(await logOf("POST", "/services")).toEqual(["POST 429", "POST 202"]);
    expect((await api.listServices(projectId)).map((s) => s.service_id)).toEqual([created.service_id]);
  });

  it("the other creates (fork, replica set, VPC, peering, track) are not repeated after a 500 either", async () => {
    const { service_id: id } = await readyService();
    const vpc = await api.createVpc(projectId, { name: "n", cidr: "10.1.0.0/16", regionCode: "us-east-1" });
    await emu.setFaults({
      rules: [
        { method: "POST", path: exactPath(`/services/${id}/forkService`), status: 500, after: true },
        { method: "POST", path: exactPath(`/services/${id}/replicaSets`), status: 500, after: true },
        { method: "POST", path: exactPath("/vpcs"), status: 500, after: true },
        { method: "POST", path: exactPath(`/vpcs/${vpc.id}/peerings`), status: 500, after: true },
        { method: "POST", path: "^/public/api/v1/analytics/track$", status: 500, after: true },
      ],
    });
    await emu.clearRequests();

    const attempts: Array<[string, () => Promise<unknown>]> = [
      ["forkService", () => api.forkService(projectId, id, { forkStrategy: "NOW" })],
      [
        "createReplicaSet",
        () => api.createReplicaSet(projectId, id, { name: "r", nodes: 1, cpuMillis: 500, memoryGbs: 2 }),
      ],
      [
        "createVpc",
        () => api.createVpc(projectId, { name: "n2", cidr: "10.2.0.0/16", regionCode: "us-east-1" }),
      ],
      [
        "createPeering",
        () =>
          api.createPeering(projectId, vpc.id, { peerAccountId: "a", peerRegionCode: "r", peerVpcId: "v" }),
      ],
      ["track", () => api.track({ event: "deployed" })],
    ];
    for (const [operation, attempt] of attempts) {
      expect(await apiFailure(attempt())).toMatchObject({ operation, status: 500, ambiguous: true });
    }
    const posts = (await emu.requests()).filter((r) => r.method === "POST");
    expect(posts.map((r) => r.status)).toEqual([500, 500, 500, 500, 500]);
    expect(await api.listServices(projectId)).toHaveLength(2);
    expect(await api.listReplicaSets(projectId, id)).toHaveLength(1);
    expect(await api.listVpcs(projectId)).toHaveLength(2);
    expect(await api.listPeerings(projectId, vpc.id)).toHaveLength(1);
  });
});

describe("errors carry status, code and message", () => {
  it("404 for an unknown id names the operation and the resource", async () => {
    const error = await apiFailure(api.getService(projectId, "svc-does-not-exist"));
    expect(error).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
      operation: "getService",
      resourceId: "svc-does-not-exist",
      ambiguous: false,
      isNotFound: true,
    });
    expect(error.apiMessage).toContain("svc-does-not-exist");
    expect(error.message).toBe(
      `getService (svc-does-not-exist) failed: HTTP 404 NOT_FOUND: ${error.apiMessage}`,
    );
    // A definite answer is not retried.
    expect(await emu.requests()).toHaveLength(1);
  });

  it("409 for a resize while CONFIGURING, with the API's message, not retried", async () => {
    const { service_id: id } = await readyService();
    const error = await emu.withTransitionMs(async () => {
      await api.resizeService(projectId, id, { cpuMillis: 1000, memoryGbs: 4 });
      await emu.clearRequests();
      return apiFailure(api.resizeService(projectId, id, { cpuMillis: 2000, memoryGbs: 8 }));
    });
    expect(error).toMatchObject({
      status: 409,
      code: "CONFLICT",
      operation: "resizeService",
      resourceId: id,
      isConflict: true,
      ambiguous: false,
    });
    expect(error.apiMessage).toContain("CONFIGURING");
    expect(error.message).toContain("HTTP 409 CONFLICT");
    expect(await logOf("POST", `/services/${id}/resize`)).toEqual(["POST 409"]);
  });

  it("401 for a wrong secret key, not retried", async () => {
    const error = await apiFailure(newClient({ secretKey: "sk-WRONG-KEY-000" }).getAuthInfo());
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED", operation: "getAuthInfo" });
    expect(await emu.requests()).toHaveLength(1);
  });

  it("an invalid input is refused before sending, naming the API field", async () => {
    const { service_id: id } = await readyService();
    await emu.clearRequests();

    const resize = await failure(api.resizeService(projectId, id, { cpuMillis: -5, memoryGbs: 4 }));
    expect(resize).toBeInstanceOf(MdbRequestError);
    expect((resize as Error).message).toMatch(/^resizeService: invalid request: .*cpu_millis/);

    const create = await failure(
      api.createService(projectId, { name: "x", regionCode: "us-east-1", cpuMillis: -5, memoryGbs: 2 }),
    );
    expect(create).toBeInstanceOf(MdbRequestError);
    expect((create as Error).message).toContain("cpu_millis");

    const fork = await failure(api.forkService(projectId, id, { forkStrategy: "PITR" }));
    expect(fork).toBeInstanceOf(MdbRequestError);
    expect((fork as Error).message).toContain("target_time");

    const vpc = await failure(api.createVpc(projectId, { name: "n", cidr: "10.0.0.0/99", regionCode: "r" }));
    expect(vpc).toBeInstanceOf(MdbRequestError);
    expect((vpc as Error).message).toContain("cidr");

    expect(await emu.requests()).toEqual([]);
  });

  it("a timeout is retried for a GET, then reported as TIMEOUT", async () => {
    const { service_id: id } = await readyService();
    const client = newClient({ timeoutMs: 50, maxRetries: 1 });
    await emu.setFaults({ latencyMs: 200 });
    await emu.clearRequests();

    const error = await apiFailure(client.getService(projectId, id));
    expect(error).toMatchObject({
      code: "TIMEOUT",
      status: undefined,
      ambiguous: true,
      operation: "getService",
    });
    // Both attempts reached the emulator; wait for their connections to end before the next test.
    await emu.setFaults({});
    await until(emu.requests, (log) => log.length === 2, "both attempts logged");
  });
});

describe("https:// to a server speaking plain HTTP", () => {
  it("says so in plain words, once, with no TLS library noise", async () => {
    const plain = `https://${new URL(emu.url).host}`;
    await emu.clearRequests();
    const client = new MdbApi({ baseUrl: plain, publicKey: "pk", secretKey: SECRET_KEY, maxRetries: 6 });
    const error = await apiFailure(client.listServices(projectId));
    expect(error.message).toBe(
      `listServices failed: NOT_TLS: the server at ${plain} answered plain HTTP, not TLS; use http:// ` +
        "(loopback hosts only) or check the API URL (mdb:apiUrl / MDB_API_URL)",
    );
    expect(error.message).not.toMatch(/version number|SSL|ssl3|openssl/i);
    // Asking again cannot help, and nothing reached the API.
    expect(error.isTransient).toBe(false);
    expect(error.ambiguous).toBe(false);
    expect(await emu.requests()).toEqual([]);
  });
});

describe("no secret in any error", () => {
  const basic = (publicKey: string, secretKey: string) =>
    Buffer.from(`${publicKey}:${secretKey}`).toString("base64");

  /** Asserts that no text form of `error` holds any of `secrets`. */
  function expectClean(error: unknown, secrets: string[]): void {
    expect(error).toBeInstanceOf(Error);
    const e = error as Error;
    const texts = {
      string: String(e),
      message: e.message,
      json: JSON.stringify(e),
      stack: e.stack ?? "",
      inspect: util.inspect(e, { depth: 10 }),
    };
    for (const [form, text] of Object.entries(texts)) {
      for (const secret of secrets) {
        if (text.includes(secret)) throw new Error(`${form} of ${e.name} holds "${secret}":\n${text}`);
      }
    }
  }

  /** A loopback port on which nothing listens. */
  async function closedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it("holds for 401, 404, 409, network, timeout and invalid-input errors, and for a failed password change", async () => {
    const publicKey = emu.credentials.publicKey;
    const secrets = [SECRET_KEY, PASSWORD, basic(publicKey, SECRET_KEY)];
    const errors: unknown[] = [];

    const wrongSecret = "sk-WRONG-BUT-SECRET-777";
    const unauthorized = await apiFailure(
      newClient({ secretKey: wrongSecret }).getService(projectId, "svc-x"),
    );
    expect(unauthorized.status).toBe(401);
    expectClean(unauthorized, [wrongSecret, basic(publicKey, wrongSecret), PASSWORD]);

    const notFound = await apiFailure(api.updatePassword(projectId, "svc-unknown", { password: PASSWORD }));
    expect(notFound.status).toBe(404);
    errors.push(notFound, await apiFailure(api.getService(projectId, "svc-unknown")));

    const { service_id: id } = await readyService();
    const conflict = await emu.withTransitionMs(async () => {
      await api.resizeService(projectId, id, { cpuMillis: 1000, memoryGbs: 4 });
      return apiFailure(api.updatePassword(projectId, id, { password: PASSWORD }));
    });
    expect(conflict.status).toBe(409);
    errors.push(conflict);

    const injected = await emu.setFaults({
      rules: [{ method: "POST", path: exactPath(`/services/${id}/updatePassword`), count: 10, status: 500 }],
    });
    expect(injected.rules).toHaveLength(1);
    const serverError = await apiFailure(
      newClient({ maxRetries: 1 }).updatePassword(projectId, id, { password: PASSWORD }),
    );
    expect(serverError.status).toBe(500);
    errors.push(serverError);
    await emu.setFaults({});

    const port = await closedPort();
    const offline = newClient({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
    const refused = await apiFailure(offline.updatePassword(projectId, id, { password: PASSWORD }));
    expect(refused).toMatchObject({ code: "NETWORK_ERROR", status: undefined, ambiguous: false });
    expect(refused.apiMessage).toContain("ECONNREFUSED");
    errors.push(refused, await apiFailure(offline.getAuthInfo()));

    await emu.setFaults({ latencyMs: 200 });
    const timedOut = await apiFailure(
      newClient({ timeoutMs: 50, maxRetries: 0 }).updatePassword(projectId, id, { password: PASSWORD }),
    );
    expect(timedOut.code).toBe("TIMEOUT");
    errors.push(timedOut);
    await emu.setFaults({});

    const tooShort = "Zq9#xY7";
    const invalid = await failure(api.updatePassword(projectId, id, { password: tooShort }));
    expect(invalid).toBeInstanceOf(MdbRequestError);
    expectClean(invalid, [...secrets, tooShort]);

    for (const error of errors) expectClean(error, secrets);
    // Let the timed-out request finish on the emulator before the next test resets it.
    await new Promise((resolve) => setTimeout(resolve, 250));
  });

  it("holds when the URL is refused at construction", () => {
    let error: unknown;
    try {
      newClient({ baseUrl: "http://api.example.com/public/api/v1" });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toMatch(/plain http:\/\/ to a non-loopback host/);
    expectClean(error, [SECRET_KEY, basic(emu.credentials.publicKey, SECRET_KEY)]);
  });
});
