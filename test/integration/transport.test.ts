/**
 * The client's wire, against small local servers over real HTTP: what a request carries, compressed
 * answers, reused connections, a body cut off half-way, and users behind a proxy, whose requests
 * still go through it.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as zlib from "node:zlib";
import { HttpClient, USER_AGENT } from "../../provider/client/http";
import { namesProxy } from "../../provider/client/transport";
import { apiFailure } from "./client-helpers";

/** One request as a test server saw it. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: number;
}

/** A server on 127.0.0.1 answering every request with `answer`, recording what it saw. */
async function server(answer: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void) {
  const seen: Seen[] = [];
  let sockets = 0;
  const ids = new WeakMap<object, number>();
  const srv = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const entry = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body,
        socket: ids.get(req.socket) ?? -1,
      };
      seen.push(entry);
      answer(req, res, entry);
    });
  });
  srv.on("connection", (socket) => ids.set(socket, ++sockets));
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

const client = (baseUrl: string) =>
  new HttpClient({
    baseUrl,
    publicKey: "pk-transport",
    secretKey: "sk-transport",
    maxRetries: 2,
    backoff: { initialMs: 5, maxMs: 10 },
  });

describe("what a request carries", () => {
  it("a POST sends its JSON with length, type, auth and User-Agent, and the answer is parsed", async () => {
    const srv = await server((_req, res) => json(res, 201, { service_id: "svc-1" }));
    try {
      const body = await client(srv.url).request({
        operation: "createService",
        method: "POST",
        path: "/projects/p/services",
        body: { name: "ünïcode-db" },
        retry: "create",
      });
      expect(body).toEqual({ service_id: "svc-1" });
      const [seen] = srv.seen;
      expect(seen.method).toBe("POST");
      expect(seen.url).toBe("/public/api/v1/projects/p/services");
      expect(JSON.parse(seen.body)).toEqual({ name: "ünïcode-db" });
      expect(seen.headers["content-length"]).toBe(String(Buffer.byteLength(seen.body)));
      expect(seen.headers["content-type"]).toBe("application/json");
      expect(seen.headers.authorization).toBe(
        `Basic ${Buffer.from("pk-transport:sk-transport").toString("base64")}`,
      );
      expect(seen.headers["user-agent"]).toBe(USER_AGENT);
      expect(seen.headers.accept).toBe("application/json");
    } finally {
      await srv.close();
    }
  });

  it("a DELETE answered 204 with no body resolves to undefined", async () => {
    const srv = await server((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    try {
      const body = await client(srv.url).request({
        operation: "deleteVpc",
        method: "DELETE",
        path: "/x",
        retry: "idempotent",
      });
      expect(body).toBeUndefined();
      expect(srv.seen[0].headers["content-length"]).toBeUndefined();
    } finally {
      await srv.close();
    }
  });

  it("gzip, deflate and brotli answers are decompressed", async () => {
    const encoders: Record<string, (b: Buffer) => Buffer> = {
      gzip: (b) => zlib.gzipSync(b),
      deflate: (b) => zlib.deflateSync(b),
      br: (b) => zlib.brotliCompressSync(b),
    };
    const srv = await server((req, res) => {
      const encoding = req.url!.split("/").pop()!;
      res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": encoding });
      res.end(encoders[encoding](Buffer.from(JSON.stringify({ encoding, items: Array(50).fill("x") }))));
    });
    try {
      const http1 = client(srv.url);
      for (const encoding of Object.keys(encoders)) {
        const body = await http1.request({
          operation: "get",
          method: "GET",
          path: `/${encoding}`,
          retry: "idempotent",
        });
        expect(body).toEqual({ encoding, items: Array(50).fill("x") });
      }
      expect(srv.seen[0].headers["accept-encoding"]).toBe("gzip, deflate, br");
    } finally {
      await srv.close();
    }
  });
});

describe("connections", () => {
  it("successive requests of a client reuse one connection", async () => {
    const srv = await server((_req, res) => json(res, 200, { ok: true }));
    try {
      const c = client(srv.url);
      for (let i = 0; i < 5; i++)
        await c.request({ operation: "get", method: "GET", path: "/x", retry: "idempotent" });
      expect(new Set(srv.seen.map((s) => s.socket)).size).toBe(1);
    } finally {
      await srv.close();
    }
  });

  it("an answer cut off half-way is a network error, retried for a GET and ambiguous in the end", async () => {
    const srv = await server((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "1000" });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    try {
      const error = await apiFailure(
        client(srv.url).request({ operation: "getService", method: "GET", path: "/x", retry: "idempotent" }),
      );
      expect(error.code).toBe("NETWORK_ERROR");
      expect(error.message).toMatch(/ECONNRESET/);
      expect(error.ambiguous).toBe(true);
      expect(srv.seen).toHaveLength(3);
    } finally {
      await srv.close();
    }
  });
});

describe("proxies", () => {
  it("any proxy variable axios honours, in either case, is noticed", () => {
    expect(namesProxy({})).toBe(false);
    expect(namesProxy({ NO_PROXY: "*" })).toBe(false);
    for (const name of [
      "http_proxy",
      "HTTPS_PROXY",
      "ALL_PROXY",
      "npm_config_proxy",
      "NPM_CONFIG_HTTPS_PROXY",
    ]) {
      expect(namesProxy({ [name]: "http://proxy:3128" })).toBe(true);
    }
  });

  it("with HTTP_PROXY set, requests go through the proxy as before", async () => {
    const proxy = await server((_req, res) => json(res, 200, { via: "proxy" }));
    const saved = {
      HTTP_PROXY: process.env.HTTP_PROXY,
      NO_PROXY: process.env.NO_PROXY,
      no_proxy: process.env.no_proxy,
    };
    process.env.HTTP_PROXY = proxy.url;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    try {
      // An address nothing listens on: only the proxy can answer.
      const body = await client("http://127.0.0.1:9").request({
        operation: "get",
        method: "GET",
        path: "/x",
        retry: "idempotent",
      });
      expect(body).toEqual({ via: "proxy" });
      expect(proxy.seen[0].url).toBe("http://127.0.0.1:9/public/api/v1/x");
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await proxy.close();
    }
  });
});
