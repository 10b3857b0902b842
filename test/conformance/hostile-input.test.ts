/**
 * The emulator under hostile input, over raw sockets on 127.0.0.1: whatever arrives that is not a
 * good request gets a 4xx `{code, message}` (never a 500, never a crash), and a client that floods
 * it with connections or trickles bytes does not stop another client from being served.
 */
import { connect, type Socket } from "node:net";
import { STRICT_RECORDS } from "../../api/schemas";
import type { EmulatorOptions } from "../../emulator";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

/** What came back on a raw connection: the status and body of the answer, if any, and when it closed. */
interface RawAnswer {
  status?: number;
  body?: unknown;
  closedAfterMs: number;
}

/** Reads one answer from `socket` until the server closes it; gives up (and closes it) after `timeoutMs`. */
function answerOf(socket: Socket, timeoutMs: number): Promise<RawAnswer> {
  const started = Date.now();
  return new Promise((resolve) => {
    let text = "";
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on("data", (chunk) => (text += chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const [head, ...rest] = text.split("\r\n\r\n");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      const body = rest.join("\r\n\r\n");
      resolve({
        status: status ? Number(status) : undefined,
        body: body ? JSON.parse(body) : undefined,
        closedAfterMs: Date.now() - started,
      });
    });
  });
}

/** Opens a connection to the emulator and resolves once it is established. */
function open(emu: TestEmulator): Promise<Socket> {
  const { port } = emu.emulator;
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Sends `text` on a new connection and reads the answer (the connection is asked to close). */
async function exchange(emu: TestEmulator, text: string | Buffer): Promise<RawAnswer> {
  const socket = await open(emu);
  const answer = answerOf(socket, 5000);
  socket.write(text);
  return answer;
}

const API = "/public/api/v1";

/** A request as bytes: method, path, headers (Host, Authorization and Connection: close added), body. */
function rawRequest(
  emu: TestEmulator,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): string {
  const all: Record<string, string> = {
    host: "127.0.0.1",
    authorization: emu.credentials.authorization,
    connection: "close",
    ...headers,
  };
  if (body !== undefined && all["transfer-encoding"] === undefined) {
    all["content-length"] = String(Buffer.byteLength(body));
  }
  const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${body ?? ""}`;
}

/** A chunked body of `chunks` chunks of `size` bytes each. */
function chunked(chunks: number, size: number): string {
  const chunk = `${size.toString(16)}\r\n${"a".repeat(size)}\r\n`;
  return chunk.repeat(chunks) + "0\r\n\r\n";
}

async function startWith(limits: EmulatorOptions["limits"] = {}): Promise<TestEmulator> {
  return startTestEmulator({ limits });
}

describe("malformed requests: a 4xx with {code, message}, and the emulator serves on", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startWith();
  });
  afterAll(() => emu.close());

  const json = { "content-type": "application/json" };
  const services = () => `${API}${emu.projectPath}/services`;
  const cases: [string, () => string | Buffer, number, string][] = [
    ["malformed JSON", () => rawRequest(emu, "POST", services(), json, '{"name": '), 400, "INVALID_REQUEST"],
    [
      "JSON that is not an object",
      () => rawRequest(emu, "POST", services(), json, "[1, 2]"),
      400,
      "INVALID_REQUEST",
    ],
    [
      "a __proto__ key",
      () => rawRequest(emu, "POST", services(), json, '{"name": "x", "__proto__": {"admin": true}}'),
      400,
      "INVALID_REQUEST",
    ],
    [
      "text/plain",
      () => rawRequest(emu, "POST", services(), { "content-type": "text/plain" }, '{"name": "x"}'),
      400,
      "INVALID_REQUEST",
    ],
    [
      "a form",
      () =>
        rawRequest(
          emu,
          "POST",
          services(),
          { "content-type": "application/x-www-form-urlencoded" },
          "name=x",
        ),
      400,
      "INVALID_REQUEST",
    ],
    [
      "a body without a content type",
      () => rawRequest(emu, "POST", services(), {}, '{"name": "x"}'),
      400,
      "INVALID_REQUEST",
    ],
    [
      "JSON in UTF-16",
      () =>
        rawRequest(
          emu,
          "POST",
          services(),
          { "content-type": "application/json; charset=utf-16" },
          '{"name": "x"}',
        ),
      400,
      "INVALID_REQUEST",
    ],
    [
      "a body over 1 MiB",
      () => rawRequest(emu, "POST", services(), json, `{"name": "${"a".repeat(1024 * 1024)}"}`),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    [
      "a chunked body over 1 MiB",
      () =>
        rawRequest(emu, "POST", services(), { ...json, "transfer-encoding": "chunked" }, chunked(3, 500_000)),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    [
      "an id of 101 characters",
      () => rawRequest(emu, "GET", `${services()}/${"a".repeat(101)}`),
      414,
      "URI_TOO_LONG",
    ],
    ["bad percent-encoding", () => rawRequest(emu, "GET", `${services()}/%zz`), 400, "INVALID_REQUEST"],
    [
      "headers over 16 KiB",
      () => rawRequest(emu, "GET", services(), { "x-padding": "a".repeat(17 * 1024) }),
      431,
      "HEADERS_TOO_LARGE",
    ],
    [
      "a URL over 16 KiB",
      () => rawRequest(emu, "GET", `${services()}?q=${"a".repeat(17 * 1024)}`),
      431,
      "HEADERS_TOO_LARGE",
    ],
    [
      "a bad Content-Length",
      () => rawRequest(emu, "POST", services(), { ...json, "content-length": "ten" }),
      400,
      "INVALID_REQUEST",
    ],
    ["not HTTP at all", () => "HELLO\r\n\r\n", 400, "INVALID_REQUEST"],
    ["binary noise", () => Buffer.from([0, 255, 1, 254, 13, 10, 13, 10]), 400, "INVALID_REQUEST"],
  ];

  // What the message says, where it tells the client what to fix.
  const says: Record<string, RegExp> = {
    "malformed JSON": /^\(body\): malformed JSON/,
    "a __proto__ key": /^\(body\): /,
    "text/plain": /^\(body\): content type text\/plain is not supported; send application\/json$/,
    "a form": /^\(body\): content type application\/x-www-form-urlencoded is not supported/,
    "a body without a content type": /^\(body\): content type none is not supported/,
    "JSON in UTF-16": /^\(body\): charset utf-16 is not supported/,
    "an id of 101 characters": /^\(path\): service_id is longer than 100 characters$/,
    "bad percent-encoding": /^\(path\): not a valid URL/,
    "headers over 16 KiB": /exceed 16384 bytes$/,
  };

  it.each(cases.map(([what, request, status, code]) => [what, status, code, request] as const))(
    "%s: %i %s",
    async (what, status, code, request) => {
      const answer = await exchange(emu, request());
      expect(answer.status).toBe(status);
      expect(STRICT_RECORDS.ErrorBody.parse(answer.body)).toEqual({
        code,
        message: expect.stringMatching(says[what] ?? /./),
      });
      expect((await emu.api("GET", "/auth/info")).status).toBe(200);
    },
  );

  it("deeply nested JSON (100 000 levels) is answered, not a crash", async () => {
    const deep = `{"properties": {"a": ${"[".repeat(100_000)}${"]".repeat(100_000)}}}`;
    const answer = await exchange(emu, rawRequest(emu, "POST", `${API}/analytics/identify`, json, deep));
    expect(answer.status).toBe(200);
    expect((await emu.api("GET", "/auth/info")).status).toBe(200);
  });
});

describe("a slow client does not hold the emulator", () => {
  // Short timeouts, so the test sees them end; the defaults are 10 s and 30 s.
  const limits = { headersTimeoutMs: 1500, requestTimeoutMs: 3000 };

  it("4 connections trickling their headers a byte at a time: another client is served meanwhile, and each slow one ends with 408", async () => {
    const emu = await startWith(limits);
    try {
      const slow = await Promise.all([1, 2, 3, 4].map(() => open(emu)));
      const answers = slow.map((socket) => answerOf(socket, 10_000));
      let closed = 0;
      for (const socket of slow) {
        socket.on("close", () => closed++);
        socket.write(`GET ${API}/auth/info HTTP/1.1\r\nhost: 127.0.0.1\r\n`);
      }
      // One byte every 50 ms per connection: at most 200 bytes each, stopped once the server closes it.
      const trickle = setInterval(() => {
        for (const socket of slow) if (!socket.destroyed) socket.write("x");
      }, 50);
      try {
        const created = await emu.api<{ service_id: string }>("POST", `${emu.projectPath}/services`, {
          name: "served",
        });
        expect(created.status).toBe(202);
        const read = await emu.api("GET", `${emu.projectPath}/services/${created.body.service_id}`);
        expect(read.status).toBe(200);
        expect((await emu.api("GET", "/auth/info")).status).toBe(200);
        // The other client was served while every slow connection was still open.
        expect(closed).toBe(0);

        for (const answer of await Promise.all(answers)) {
          expect(answer.status).toBe(408);
          expect(STRICT_RECORDS.ErrorBody.parse(answer.body).code).toBe("REQUEST_TIMEOUT");
          expect(answer.closedAfterMs).toBeLessThan(limits.headersTimeoutMs + 2500);
        }
      } finally {
        clearInterval(trickle);
      }
    } finally {
      await emu.close();
    }
  });

  it("a body that never ends: 408 once the request time is up", async () => {
    const emu = await startWith(limits);
    try {
      const socket = await open(emu);
      const answer = answerOf(socket, 10_000);
      socket.write(
        rawRequest(emu, "POST", `${API}/analytics/track`, {
          "content-type": "application/json",
          "content-length": "1000",
        }) + '{"event": ',
      );
      const { status, body, closedAfterMs } = await answer;
      expect(status).toBe(408);
      expect(STRICT_RECORDS.ErrorBody.parse(body).code).toBe("REQUEST_TIMEOUT");
      expect(closedAfterMs).toBeLessThan(limits.requestTimeoutMs + 2500);
    } finally {
      await emu.close();
    }
  });

  it("connections past the limit are closed at once; once the held ones time out, clients are served again", async () => {
    const emu = await startWith({ ...limits, maxConnections: 6 });
    try {
      const held = await Promise.all([1, 2, 3, 4, 5, 6].map(() => open(emu)));
      const heldAnswers = held.map((socket) => answerOf(socket, 10_000));
      // Let the server accept all six before the seventh arrives.
      await new Promise((resolve) => setTimeout(resolve, 200));

      const refused = await exchange(emu, rawRequest(emu, "GET", `${API}/auth/info`));
      expect(refused.status).toBeUndefined();
      expect(refused.closedAfterMs).toBeLessThan(1000);

      for (const answer of await Promise.all(heldAnswers)) expect(answer.status).toBe(408);
      expect((await emu.api("GET", "/auth/info")).status).toBe(200);
    } finally {
      await emu.close();
    }
  });
});
