/**
 * Helpers of the `--databases` tests: the API over HTTP, waits, and node-postgres sessions on the
 * endpoints the API names, as a user's application would open them.
 */
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import { Client } from "pg";
import type { Emulator } from "../../emulator";

/** A record of the API as a test reads it: the fields it looks at. */
export interface Answered {
  status: string;
  service_id: string;
  initial_password: string;
  endpoint: { host: string; port: number };
  connection_pooler: { endpoint: { host: string; port: number } };
  error_message?: string;
}

/** The body of an answer: one record, or a list of them. */
export type AnswerBody = Answered & Answered[];

/** A JSON call of the emulator's API. */
export async function call(
  emulator: Pick<Emulator, "url" | "credentials">,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: AnswerBody }> {
  const { publicKey, secretKey } = emulator.credentials;
  const response = await fetch(`${emulator.url}/projects/${emulator.credentials.projectId}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Polls `read` until `done` holds of its answer (or throws after `ms`). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there after ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A session on `endpoint` as the service's user, with TLS required (`sslmode=require`). */
export async function connect(
  endpoint: { host: string; port: number },
  password: string,
  database = "tsdb",
): Promise<Client> {
  const client = new Client({
    host: endpoint.host,
    port: endpoint.port,
    user: "tsdbadmin",
    password,
    database,
    ssl: { rejectUnauthorized: false },
    connectionTimeoutMillis: 5000,
  });
  await client.connect();
  return client;
}

/** The error a connection attempt ends with, or undefined when it connects. */
export async function connectError(
  endpoint: { host: string; port: number },
  password: string,
): Promise<string | undefined> {
  try {
    const client = await connect(endpoint, password);
    await client.end();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The values of column `x` of table `t`, in order. */
export async function rows(client: Client): Promise<number[]> {
  return (await client.query("SELECT x FROM t ORDER BY x")).rows.map((r) => Number(r.x));
}

/** True when something accepts TCP connections on the port. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Pids of the PostgreSQL processes whose command line names a directory under `root`. */
export function postgresUnder(root: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(root);
      } catch {
        return false;
      }
    })
    .map(Number);
}
