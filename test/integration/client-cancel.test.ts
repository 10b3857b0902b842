/**
 * The client under a run's cancellation (Ctrl-C), against a loopback server that answers slowly
 * on purpose, directly and through a proxy (both adapters): a GET in flight ends at once, a
 * change in flight is let finish so its answer is read (a create's record must be recorded), a
 * pause between retries ends at once, and nothing is sent after the cancellation.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { MdbApiError } from "../../provider/client/errors";
import { HttpClient, type RequestSpec } from "../../provider/client/http";
import { apiFailure } from "./client-helpers";

/** A server that answers each request with `answer(path)` after `delayMs`, counting requests. */
async function slowServer(answer: (path: string) => { status: number; body?: unknown; headers?: object }) {
  let requests = 0;
  let delayMs = 0;
  const srv = http.createServer((req, res) => {
    requests++;
    req.resume();
    setTimeout(() => {
      const { status, body, headers } = answer(req.url ?? "");
      res.writeHead(status, { "Content-Type": "application/json", ...headers });
      res.end(body === undefined ? "" : JSON.stringify(body));
    }, delayMs);
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    requests: () => requests,
    delay: (ms: number) => (delayMs = ms),
    close: () =>
      new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}
type SlowServer = Awaited<ReturnType<typeof slowServer>>;

const ROUTES = [
  { route: "direct", baseUrl: (srv: SlowServer) => srv.url, proxy: () => undefined },
  { route: "through a proxy", baseUrl: () => "http://127.0.0.1:9", proxy: (srv: SlowServer) => srv.url },
];

const GET: RequestSpec = { operation: "getService", method: "GET", path: "/s/1", retry: "idempotent" };
const CREATE: RequestSpec = {
  operation: "createService",
  method: "POST",
  path: "/s",
  body: {},
  retry: "create",
};

describe.each(ROUTES)("$route", ({ baseUrl, proxy }) => {
  const PROXY_ENV = ["HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"];
  const saved: Record<string, string | undefined> = {};
  let srv: SlowServer;
  let status = 200;
  beforeEach(async () => {
    PROXY_ENV.forEach((name) => (saved[name] = process.env[name]));
    status = 200;
    srv = await slowServer(() => ({
      status,
      body: status === 200 ? { service_id: "s1" } : { code: "BUSY", message: "try later" },
      headers: status === 429 || status === 503 ? { "Retry-After": "10" } : {},
    }));
  });
  afterEach(async () => {
    await srv.close();
    PROXY_ENV.forEach((name) =>
      saved[name] === undefined ? delete process.env[name] : (process.env[name] = saved[name]),
    );
  });

  function client() {
    PROXY_ENV.forEach((name) => delete process.env[name]);
    const via = proxy(srv);
    if (via) process.env.HTTP_PROXY = via;
    return new HttpClient({ baseUrl: baseUrl(srv), publicKey: "pk", secretKey: "sk-cancel-secret" });
  }

  /** Aborts `controller` after `ms`; resolves with how long the call then took to end. */
  async function cancelAfter<T>(ms: number, controller: AbortController, call: Promise<T>) {
    setTimeout(() => controller.abort(), ms);
    const started = Date.now();
    const result = await call.then(
      (value): { value?: T; error?: unknown } => ({ value }),
      (error: unknown): { value?: T; error?: unknown } => ({ error }),
    );
    return { ...result, endedAfterCancelMs: Date.now() - started - ms };
  }

  it("a GET in flight ends at once: CANCELLED, not ambiguous, not retried", async () => {
    srv.delay(5_000);
    const controller = new AbortController();
    const { error, endedAfterCancelMs } = await cancelAfter(
      200,
      controller,
      client().request({ ...GET, signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(MdbApiError);
    expect(error).toMatchObject({ code: "CANCELLED", ambiguous: false });
    expect((error as Error).message).toContain("the run was cancelled (Ctrl-C) before the answer came");
    expect(endedAfterCancelMs).toBeLessThan(250);
    expect(srv.requests()).toBe(1);
  });

  it("a create in flight is let finish: its answer is read", async () => {
    srv.delay(600);
    const controller = new AbortController();
    const { value, error } = await cancelAfter(
      100,
      controller,
      client().request({ ...CREATE, signal: controller.signal }),
    );
    expect(error).toBeUndefined();
    expect(value).toEqual({ service_id: "s1" });
  });

  it("a pause between retries ends at once, and nothing more is sent", async () => {
    status = 503;
    const controller = new AbortController();
    const { error, endedAfterCancelMs } = await cancelAfter(
      300,
      controller,
      client().request({ ...GET, signal: controller.signal }),
    );
    expect(error).toMatchObject({ code: "CANCELLED" });
    expect(endedAfterCancelMs).toBeLessThan(250);
    expect(srv.requests()).toBe(1);
  });

  it("a create refused with 429 is not sent again after the cancellation, and was not made", async () => {
    status = 429;
    const controller = new AbortController();
    const { error, endedAfterCancelMs } = await cancelAfter(
      300,
      controller,
      client().request({ ...CREATE, signal: controller.signal }),
    );
    expect(error).toMatchObject({ code: "CANCELLED", ambiguous: false });
    expect((error as Error).message).toContain("not sent again after 1 attempt(s)");
    expect(endedAfterCancelMs).toBeLessThan(250);
    expect(srv.requests()).toBe(1);
  });

  it("after the cancellation, nothing is sent", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await apiFailure(client().request({ ...CREATE, signal: controller.signal }));
    expect(error).toMatchObject({ code: "CANCELLED", ambiguous: false });
    expect(error.message).toContain("not sent: the run was cancelled (Ctrl-C)");
    expect(srv.requests()).toBe(0);
  });
});
