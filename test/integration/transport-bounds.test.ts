/**
 * The bounded transport, against loopback servers that misbehave on purpose the way proxies and
 * gateways do: a body that never ends, bytes trickled one at a time, a redirect to another host,
 * headers too large, a huge Retry-After, a body cut off. Every case runs twice: straight to the
 * server (the keep-alive adapter) and with the server as the HTTP proxy (axios's adapter, which
 * the client uses whenever a proxy variable is set). Each must end in an error that names the
 * operation and, for a limit, the option that changes it, within its deadline, and never quotes
 * a credential.
 */
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import * as zlib from "node:zlib";
import { HttpClient, type HttpClientOptions, type RequestSpec } from "../../provider/client/http";
import { resolveConfig } from "../../provider/config";
import { ApiSession } from "../../provider/runtime";
import { apiFailure } from "./client-helpers";

const SECRET = "sk-BOUNDS-very-secret-789";
const BASIC = Buffer.from(`pk-bounds:${SECRET}`).toString("base64");
const MiB = 1024 * 1024;

/** A raw TCP server on 127.0.0.1: `behave` gets the socket once a request head has arrived. */
async function rawServer(behave: (socket: net.Socket) => void) {
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;
  const srv = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      requests++;
      behave(socket);
    };
    socket.on("data", onData);
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    /** Request heads received so far. */
    requests: () => requests,
    /** Repeats `step` every `ms` until it returns false or the server closes. */
    every(ms: number, step: () => boolean) {
      const timer = setInterval(() => {
        if (!step()) {
          clearInterval(timer);
          timers.delete(timer);
        }
      }, ms);
      timers.add(timer);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        for (const socket of sockets) socket.destroy();
        srv.close(() => resolve());
      }),
  };
}
type RawServer = Awaited<ReturnType<typeof rawServer>>;

/** An HTTP/1.1 head: status line, headers, blank line. */
const head = (status: string, headers: Record<string, string | number>) =>
  `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;

const GET: RequestSpec = {
  operation: "getService",
  method: "GET",
  path: "/projects/p/services/s",
  retry: "idempotent",
};
const CREATE: RequestSpec = {
  operation: "createService",
  method: "POST",
  path: "/projects/p/services",
  body: { name: "db" },
  retry: "create",
};

/** Quick retries, a generous idle timeout (the trickles never trip it), short deadlines. */
const OPTIONS = {
  publicKey: "pk-bounds",
  secretKey: SECRET,
  maxRetries: 2,
  backoff: { initialMs: 5, maxMs: 10 },
  timeoutMs: 5_000,
  // Generous, so that a loaded machine never turns an attempt into a retry where the test counts
  // requests; the tests of the deadline itself set ATTEMPT_MS.
  attemptDeadlineMs: 10_000,
};

/** The attempt deadline of the tests about it (a trickling server): short, so they run fast. */
const ATTEMPT_MS = { attemptDeadlineMs: 400 };

/**
 * How the client reaches the misbehaving server: directly, or with it as `HTTP_PROXY` (the API URL
 * then names a port nothing listens on, so only the proxy can answer).
 */
const ROUTES = [
  { route: "direct", baseUrl: (srv: RawServer) => srv.url, proxy: () => undefined },
  { route: "through a proxy", baseUrl: () => "http://127.0.0.1:9", proxy: (srv: RawServer) => srv.url },
];

describe.each(ROUTES)("$route", ({ baseUrl, proxy }) => {
  const saved: Record<string, string | undefined> = {};
  const PROXY_ENV = ["HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"];
  beforeEach(() => PROXY_ENV.forEach((name) => (saved[name] = process.env[name])));
  afterEach(() =>
    PROXY_ENV.forEach((name) =>
      saved[name] === undefined ? delete process.env[name] : (process.env[name] = saved[name]),
    ),
  );

  /** A client of `srv` by this route; the adapter is chosen when the client is made. */
  function clientOf(srv: RawServer, overrides: Partial<HttpClientOptions> = {}) {
    PROXY_ENV.forEach((name) => delete process.env[name]);
    const via = proxy(srv);
    if (via) process.env.HTTP_PROXY = via;
    return new HttpClient({ baseUrl: baseUrl(srv), ...OPTIONS, ...overrides });
  }

  /** The call's error and how long it took, in ms. */
  async function timedFailure(promise: Promise<unknown>) {
    const start = Date.now();
    const error = await apiFailure(promise);
    return { error, ms: Date.now() - start };
  }

  const expectNoCredential = (text: string) => {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(BASIC);
  };

  it("a body that never ends stops at maxResponseBytes, at once, without retry, in bounded memory", async () => {
    // Streams 64 KiB chunks as fast as the client reads, until the client hangs up; 64 MiB at
    // most, so that the test stops by itself even if the client never does.
    const chunk = `${"x".repeat(64 * 1024)}`;
    const srv = await rawServer((socket) => {
      socket.write(head("200 OK", { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }));
      let sent = 0;
      const pump = () => {
        while (!socket.destroyed && sent < 64 * MiB) {
          sent += chunk.length;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`))
            return void socket.once("drain", pump);
        }
        if (!socket.destroyed) socket.end("0\r\n\r\n");
      };
      pump();
    });
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      const client = clientOf(srv);
      const { error, ms } = await timedFailure(client.request(GET));
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(error.code).toBe("RESPONSE_TOO_LARGE");
      expect(error.message).toMatch(/^getService failed: RESPONSE_TOO_LARGE: /);
      expect(error.message).toContain("8388608 bytes (8 MiB), the limit of option maxResponseBytes");
      expect(ms).toBeLessThan(10_000);
      expect(srv.requests()).toBe(1);
      expect(error.isTransient).toBe(false);
      expectNoCredential(error.message);
      expect(peak - before).toBeLessThan(256 * MiB);
    } finally {
      clearInterval(sampler);
      await srv.close();
    }
  });

  it("the size limit is an option: a 2 MiB answer fails under maxResponseBytes 1 MiB", async () => {
    const body = JSON.stringify({ items: "y".repeat(2 * MiB) });
    const srv = await rawServer((socket) =>
      socket.end(
        head("200 OK", { "Content-Type": "application/json", "Content-Length": body.length }) + body,
      ),
    );
    try {
      const { error } = await timedFailure(clientOf(srv, { maxResponseBytes: MiB }).request(GET));
      expect(error.message).toContain("1048576 bytes (1 MiB), the limit of option maxResponseBytes");
      expect(srv.requests()).toBe(1);
    } finally {
      await srv.close();
    }
  });

  it("a small gzip answer that inflates past the limit is counted as inflated, and stopped", async () => {
    // 32 MiB of one repeated byte: about 32 KiB on the wire.
    const bomb = zlib.gzipSync(Buffer.alloc(32 * MiB, "["));
    const srv = await rawServer((socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from(head("200 OK", { "Content-Encoding": "gzip", "Content-Length": bomb.length })),
          bomb,
        ]),
      ),
    );
    try {
      const { error } = await timedFailure(clientOf(srv).request(GET));
      expect(error.code).toBe("RESPONSE_TOO_LARGE");
      expect(error.message).toContain("8388608 bytes (8 MiB), the limit of option maxResponseBytes");
      expect(srv.requests()).toBe(1);
    } finally {
      await srv.close();
    }
  });

  it("the largest honest answer, a list of 1000 fully-fledged services (about 2 MiB), passes the default limit", async () => {
    const service = (i: number) => ({
      service_id: `svc${String(i).padStart(7, "0")}`,
      name: `${i}-`.padEnd(128, "x"),
      read_replica_sets: [0, 1, 2].map((k) => ({ id: `rrs-${i}-${k}`, name: `${k}-`.padEnd(128, "r") })),
      padding: "p".repeat(1400),
    });
    const body = JSON.stringify(Array.from({ length: 1000 }, (_, i) => service(i)));
    expect(body.length).toBeGreaterThan(1.8 * MiB);
    const srv = await rawServer((socket) =>
      socket.end(
        head("200 OK", { "Content-Type": "application/json", "Content-Length": body.length }) + body,
      ),
    );
    try {
      const list = await clientOf(srv).request<unknown[]>({
        ...GET,
        operation: "listServices",
      });
      expect(list).toHaveLength(1000);
    } finally {
      await srv.close();
    }
  });

  describe.each([
    {
      what: "one body byte at a time",
      start: (socket: net.Socket) =>
        socket.write(head("200 OK", { "Content-Type": "application/json", "Content-Length": 1000 })),
      trickle: "x",
    },
    {
      what: "one header byte at a time",
      start: (socket: net.Socket) => socket.write("HTTP/1.1 200 OK\r\nX-Slow: "),
      trickle: "a",
    },
  ])("a server that sends $what, every 50 ms", ({ start, trickle }) => {
    /** Starts the answer, then trickles a byte every 50 ms for 10 s at most. */
    async function trickler() {
      const srv: RawServer = await rawServer((socket) => {
        start(socket);
        let left = 200;
        srv.every(50, () => {
          if (socket.destroyed || --left <= 0) return false;
          socket.write(trickle);
          return true;
        });
      });
      return srv;
    }

    it("fails each attempt at attemptDeadlineMs although the idle timeout never fires; a GET is retried", async () => {
      const srv = await trickler();
      try {
        const { error, ms } = await timedFailure(clientOf(srv, ATTEMPT_MS).request(GET));
        expect(error.code).toBe("TIMEOUT");
        expect(error.message).toMatch(/^getService failed: TIMEOUT: no complete answer from /);
        expect(error.message).toContain(
          "within 400 ms, the deadline of one attempt (option attemptDeadlineMs, mdb:attemptDeadlineMs / MDB_ATTEMPT_DEADLINE_MS)",
        );
        expect(srv.requests()).toBe(3);
        // Three attempts of 400 ms and two short pauses; far below the 5 s idle timeout.
        expect(ms).toBeGreaterThanOrEqual(3 * 400 - 50);
        expect(ms).toBeLessThan(3_000);
        expectNoCredential(error.message);
      } finally {
        await srv.close();
      }
    });

    it("ends the whole call at callDeadlineMs, retries included, cutting the last attempt short", async () => {
      const srv = await trickler();
      try {
        // Attempts of 400 ms and 6 retries would take 2.8 s; the call's deadline ends it at 1 s.
        const client = clientOf(srv, { ...ATTEMPT_MS, maxRetries: 6, callDeadlineMs: 1_000 });
        const { error, ms } = await timedFailure(client.request(GET));
        expect(error.code).toBe("TIMEOUT");
        expect(error.message).toMatch(
          /^getService failed: TIMEOUT: no complete answer from \S+ within 1000 ms, the deadline of a call with its retries \(option callDeadlineMs, mdb:callDeadlineMs \/ MDB_CALL_DEADLINE_MS\), after 3 attempt\(s\)$/,
        );
        expect(srv.requests()).toBe(3);
        expect(ms).toBeGreaterThanOrEqual(1_000 - 20);
        expect(ms).toBeLessThan(1_400);
        expectNoCredential(error.message);
      } finally {
        await srv.close();
      }
    });

    it("a create past its deadline is not sent again, and is ambiguous", async () => {
      const srv = await trickler();
      try {
        const { error, ms } = await timedFailure(clientOf(srv, ATTEMPT_MS).request(CREATE));
        expect(error.message).toMatch(/^createService failed: TIMEOUT: .*option attemptDeadlineMs/);
        expect(error.ambiguous).toBe(true);
        expect(srv.requests()).toBe(1);
        expect(ms).toBeLessThan(1_500);
      } finally {
        await srv.close();
      }
    });
  });

  it("a 307 to another host is not followed: the error says where it pointed, and nothing goes there", async () => {
    const elsewhere = await rawServer((socket) => socket.end(head("200 OK", { "Content-Length": 2 }) + "{}"));
    const target = `${elsewhere.url}/steal?token=t0k3n`;
    const srv = await rawServer((socket) =>
      socket.end(head("307 Temporary Redirect", { Location: target, "Content-Length": 0 })),
    );
    try {
      const { error } = await timedFailure(clientOf(srv).request(GET));
      expect(error.status).toBe(307);
      expect(error.code).toBe("REDIRECTED");
      expect(error.message).toContain(
        `getService failed: HTTP 307 REDIRECTED: the server redirected the request to ${elsewhere.url}/steal (query omitted); the client does not follow redirects`,
      );
      expect(error.message).not.toContain("t0k3n");
      expect(error.isTransient).toBe(false);
      expectNoCredential(error.message);
      expect(elsewhere.requests()).toBe(0);
      expect(srv.requests()).toBe(1);
    } finally {
      await srv.close();
      await elsewhere.close();
    }
  });

  it("a 502 HTML page quoting the secret is retried, then reported redacted", async () => {
    const page = `<html><body>Bad gateway for ${SECRET} (Authorization: Basic ${BASIC})</body></html>`;
    const srv = await rawServer((socket) =>
      socket.end(
        // Says it closes the connection, as it does: a client must not send the retry on it.
        head("502 Bad Gateway", {
          "Content-Type": "text/html",
          "Content-Length": page.length,
          Connection: "close",
        }) + page,
      ),
    );
    try {
      const { error } = await timedFailure(clientOf(srv).request(GET));
      expect(error.message).toMatch(/^getService failed: HTTP 502 HTTP_502: <html>/);
      expectNoCredential(error.message);
      expect(srv.requests()).toBe(3);
    } finally {
      await srv.close();
    }
  });

  it("headers over maxHeaderBytes fail at once naming the option; a larger limit lets them through", async () => {
    const srv = await rawServer((socket) =>
      socket.end(
        head("200 OK", { "X-Gateway-Junk": "j".repeat(32 * 1024), "Content-Length": 11 }) + '{"ok":true}',
      ),
    );
    try {
      const { error } = await timedFailure(clientOf(srv).request(GET));
      expect(error.code).toBe("HEADERS_TOO_LARGE");
      expect(error.message).toContain("getService failed: HEADERS_TOO_LARGE: the answer's headers from");
      expect(error.message).toContain("larger than 16384 bytes (16 KiB), the limit of option maxHeaderBytes");
      expect(srv.requests()).toBe(1);
      expect(await clientOf(srv, { maxHeaderBytes: 64 * 1024 }).request(GET)).toEqual({ ok: true });
    } finally {
      await srv.close();
    }
  });

  it("a 429 asking to wait a day fails at once, saying so and naming maxRetryAfterMs", async () => {
    const body = '{"code":"RATE_LIMITED","message":"slow down"}';
    const srv = await rawServer((socket) =>
      socket.end(
        head("429 Too Many Requests", { "Retry-After": 86400, "Content-Length": body.length }) + body,
      ),
    );
    try {
      const { error, ms } = await timedFailure(clientOf(srv).request(GET));
      expect(error.message).toBe(
        "getService failed: HTTP 429 RATE_LIMITED: slow down (the API asked to wait 86400 s before trying again, " +
          "longer than the 60000 ms the client waits, option maxRetryAfterMs, mdb:maxRetryAfterMs / MDB_MAX_RETRY_AFTER_MS: not retried)",
      );
      expect(error.isTransient).toBe(false);
      expect(srv.requests()).toBe(1);
      expect(ms).toBeLessThan(1_000);
    } finally {
      await srv.close();
    }
  });

  it("a 503 with Retry-After is not retried past the call's deadline, and says so", async () => {
    const body = '{"code":"UNAVAILABLE","message":"busy"}';
    const srv = await rawServer((socket) =>
      socket.end(head("503 Service Unavailable", { "Retry-After": 1, "Content-Length": body.length }) + body),
    );
    try {
      const client = clientOf(srv, { maxRetries: 6, callDeadlineMs: 1_500 });
      const { error, ms } = await timedFailure(client.request(GET));
      expect(error.message).toBe(
        "getService failed: HTTP 503 UNAVAILABLE: busy (not retried: the call's deadline of 1500 ms, " +
          "option callDeadlineMs, mdb:callDeadlineMs / MDB_CALL_DEADLINE_MS, left no time)",
      );
      // Asked at once, again after the 1 s the API asked for; a third wait would pass 1.5 s.
      expect(srv.requests()).toBe(2);
      expect(ms).toBeGreaterThanOrEqual(1_000);
      expect(ms).toBeLessThan(1_500);
    } finally {
      await srv.close();
    }
  });

  it("a body cut off half-way is a network error, retried for a GET", async () => {
    const srv = await rawServer((socket) => {
      socket.write(
        head("200 OK", { "Content-Type": "application/json", "Content-Length": 1000 }) + '{"partial":',
      );
      setTimeout(() => socket.destroy(), 20);
    });
    try {
      const { error, ms } = await timedFailure(clientOf(srv).request(GET));
      expect(error.code).toBe("NETWORK_ERROR");
      expect(error.message).toMatch(/^getService failed: NETWORK_ERROR: /);
      expect(error.ambiguous).toBe(true);
      expect(srv.requests()).toBe(3);
      expect(ms).toBeLessThan(1_000);
    } finally {
      await srv.close();
    }
  });
});

describe("limits set by stack config", () => {
  it("mdb:callDeadlineMs and mdb:attemptDeadlineMs bound the provider's calls to a trickling gateway", async () => {
    const srv = await rawServer((socket) => {
      socket.write(head("200 OK", { "Content-Type": "application/json", "Content-Length": 1000 }));
      srv.every(50, () => !socket.destroyed && socket.write("x"));
    });
    try {
      const values: Record<string, string> = {
        "mdb:apiUrl": srv.url,
        "mdb:publicKey": "pk-bounds",
        "mdb:secretKey": SECRET,
        "mdb:attemptDeadlineMs": "300",
        "mdb:callDeadlineMs": "800",
      };
      const session = new ApiSession(resolveConfig({ get: (key) => values[key] }, {}));
      const start = Date.now();
      const error = await apiFailure(session.api.getService("p", "s"));
      const ms = Date.now() - start;
      // The last attempt is cut short by the call's deadline, or (when both fall together) ends at
      // its own and is not retried: either way the call ends at 800 ms and the message says why.
      expect(error.code).toBe("TIMEOUT");
      expect(error.message).toMatch(
        /^getService \(s\) failed: TIMEOUT: no complete answer from .*800 ms.*\(?option callDeadlineMs, mdb:callDeadlineMs \/ MDB_CALL_DEADLINE_MS/,
      );
      expect(srv.requests()).toBeGreaterThanOrEqual(2);
      expect(ms).toBeGreaterThanOrEqual(800 - 20);
      expect(ms).toBeLessThan(1_300);
    } finally {
      await srv.close();
    }
  });
});
