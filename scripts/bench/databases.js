// The `--databases` row of `npm run bench` (issue 27): an emulator with real PostgreSQL servers
// (in-process, from dist/), services created one after another; for each, the seconds from the
// create call to the first query answered on its endpoint with its initial password, and, once
// all are idle, the memory of its server: the proportional set size (PSS, /proc/PID/smaps_rollup)
// summed over the postmaster and its children, so pages shared between processes count once.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { Buffer } = require("buffer");
const { setTimeout } = require("timers");

const root = path.resolve(__dirname, "../..");

function read(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Pids of the processes whose parent is `pid`. */
function childrenOf(pid) {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => {
      const stat = read(`/proc/${child}/stat`);
      return stat && Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
    });
}

/** PSS in bytes of `pid` and its children. */
function pssOfTree(pid) {
  return [pid, ...childrenOf(pid)].reduce((sum, p) => {
    const match = /^Pss:\s+(\d+) kB/m.exec(read(`/proc/${p}/smaps_rollup`) ?? "");
    return sum + (match ? Number(match[1]) * 1024 : 0);
  }, 0);
}

/** The postmaster listening on `dataDir` (first line of its postmaster.pid). */
function postmasterOf(dataDir) {
  return Number((read(path.join(dataDir, "postmaster.pid")) ?? "").split("\n")[0]);
}

/**
 * Creates `count` services on an emulator with `--databases` and measures each; resolves with
 * `{createToAcceptS: number[], idlePssMiB: number[]}` (the first PSS is of the first server alone).
 */
async function measureDatabases(count, log) {
  const { startEmulator } = require(path.join(root, "dist/emulator"));
  const { Client } = require("pg");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-bench-databases-"));
  fs.chmodSync(dir, 0o711);
  const emulator = await startEmulator({ transitionMs: 50, databases: { dir: path.join(dir, "servers") } });
  const { publicKey, secretKey, projectId } = emulator.credentials;
  const auth = `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString("base64")}`;
  const createToAcceptS = [];
  const idlePssMiB = [];
  const ids = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = Date.now();
      const response = await globalThis.fetch(`${emulator.url}/projects/${projectId}/services`, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/json" },
        body: JSON.stringify({ name: `bench-${i}` }),
      });
      const service = await response.json();
      for (;;) {
        const client = new Client({
          host: service.endpoint.host,
          port: service.endpoint.port,
          user: "tsdbadmin",
          password: service.initial_password,
          database: "tsdb",
          ssl: { rejectUnauthorized: false },
        });
        client.on("error", () => undefined);
        try {
          await client.connect();
          await client.query("SELECT 1");
          await client.end();
          break;
        } catch {
          await client.end().catch(() => undefined);
          if (Date.now() - started > 60_000)
            throw new Error(`service ${service.service_id} never accepted connections`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      createToAcceptS.push((Date.now() - started) / 1000);
      ids.push(service.service_id);
      if (i === 0) {
        // Alone on the machine, a server shares its pages with no other: the largest PSS it gets.
        await new Promise((resolve) => setTimeout(resolve, 5000));
        idlePssMiB.push(
          pssOfTree(postmasterOf(emulator.databases.manager.dataDirOf(service.service_id))) / 2 ** 20,
        );
      }
      log(
        `databases: service ${i + 1}/${count} accepted connections ${createToAcceptS.at(-1).toFixed(2)} s after its create`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5000)); // idle: start-up work done
    for (const id of ids)
      idlePssMiB.push(pssOfTree(postmasterOf(emulator.databases.manager.dataDirOf(id))) / 2 ** 20);
    log(
      `databases: idle PSS, first server alone then each of ${count}: ${idlePssMiB.map((m) => m.toFixed(1)).join(", ")} MiB`,
    );
    return { createToAcceptS, idlePssMiB };
  } finally {
    await emulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { measureDatabases };
