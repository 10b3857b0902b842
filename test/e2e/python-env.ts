/**
 * The Python side of the e2e tests of Python programs: the plugin's Python SDK (`pulumi_mdb`),
 * generated from the packed package's schema with the `sdkgen` scripts/ensure-pulumi built, and
 * a virtualenv holding it with `pulumi` from PyPI at the release of the pinned CLI. The virtualenv
 * is cached outside the checkout, in `~/.cache/pulumi-managed-db/python/<key>` (the key: the
 * Python and Pulumi versions and a hash of the generated SDK), so only the first run of a schema
 * pays for the install; one no run has used for a week goes when a new one is made.
 */
import { execFileSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const root = path.resolve(__dirname, "../..");

/** A virtualenv with `pulumi` and the generated `pulumi_mdb` installed. */
export interface PythonEnv {
  /** The virtualenv's folder. */
  venv: string;
  /** Its `python`. */
  python: string;
  /** Whether this call made it (false: it came from the cache). */
  built: boolean;
}

/** The `python3` the virtualenv is made with: `MDB_E2E_PYTHON`, else the first on PATH. */
function basePython(): string {
  return process.env.MDB_E2E_PYTHON ?? "python3";
}

/**
 * Whether a `python3` (or `MDB_E2E_PYTHON`) with the venv module is there: the tests that need it
 * fail without, saying what to install.
 */
export function havePython(): boolean {
  try {
    execFileSync(basePython(), ["-c", "import venv, ensurepip"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function run(command: string, args: string[], cwd = root): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Every file under `dir`, by path relative to it, sorted. */
function files(dir: string, prefix = ""): string[] {
  return fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = path.join(prefix, entry.name);
      return entry.isDirectory() ? files(dir, relative) : [relative];
    })
    .sort();
}

/** A hash of the files under `dir`: their paths and contents. */
function treeHash(dir: string): string {
  const hash = createHash("sha256");
  for (const file of files(dir))
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(dir, file)));
  return hash.digest("hex").slice(0, 12);
}

/**
 * Generates the Python SDK from the schema the packed package ships, and returns the cached
 * virtualenv for it, making it first when missing: `python3 -m venv`, then `pip install` of
 * `pulumi==<the pinned release>` and the SDK. A new one is made beside its final place and renamed
 * into it, so a run that stops half-way leaves nothing another run would take for complete.
 */
export function pythonEnv(): PythonEnv {
  const work = process.env.MDB_E2E_WORK;
  const bin = process.env.MDB_E2E_PULUMI_BIN;
  if (!work || !bin) throw new Error("the e2e global setup did not run (test/e2e/setup.ts)");
  const schema = path.join(work, "package", "plugin", "schema.json");
  const sdk = path.join(work, "python-sdk");
  if (!fs.existsSync(sdk)) {
    run(path.join(bin, "sdkgen"), ["-language", "python", "-local", "-schema", schema, "-out", `${sdk}.tmp`]);
    fs.renameSync(`${sdk}.tmp`, sdk);
  }
  const pulumiVersion = (
    run(path.join(bin, "pulumi"), ["version"]).trim().split("\n").pop() as string
  ).replace(/^v/, "");
  const pythonVersion = run(basePython(), ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).trim();
  const cache = path.join(
    process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"),
    "pulumi-managed-db",
    "python",
  );
  const venv = path.join(cache, `py${pythonVersion}-pulumi${pulumiVersion}-sdk${treeHash(sdk)}`);
  const python = path.join(venv, "bin", "python");
  if (fs.existsSync(python)) {
    markUsed(venv);
    return { venv, python, built: false };
  }

  fs.mkdirSync(cache, { recursive: true });
  const staging = fs.mkdtempSync(`${venv}.tmp-`);
  try {
    run(basePython(), ["-m", "venv", staging]);
    run(path.join(staging, "bin", "python"), [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--disable-pip-version-check",
      "--no-input",
      `pulumi==${pulumiVersion}`,
      sdk,
    ]);
    // The console scripts name the staging folder; nothing here runs them (python -m does).
    try {
      fs.renameSync(staging, venv);
    } catch (error) {
      // Another run made it first: use that one.
      if (!fs.existsSync(python)) throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  markUsed(venv);
  pruneStale(cache, venv);
  return { venv, python, built: true };
}

/** A cached virtualenv no run has used for this long goes when another is made: 7 days, in ms. */
export const STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** The file whose modification time says when a cached virtualenv was last used. */
const USED_STAMP = ".last-used";

/** Records that `venv` is used now. */
function markUsed(venv: string): void {
  fs.writeFileSync(path.join(venv, USED_STAMP), "");
}

/**
 * Removes the virtualenvs in `cache` other than `keep` that no run has used for
 * {@link STALE_AFTER_MS} before `now` (ms since the epoch), each about 100 MB (a schema change
 * makes a new one). One without a stamp counts from its folder's time; a staging folder of a run
 * under way is left alone until it too is that old. Returns the names removed.
 */
export function pruneStale(cache: string, keep: string, now = Date.now()): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(cache)) {
    const dir = path.join(cache, name);
    if (dir === keep) continue;
    let used: number;
    try {
      const stamp = path.join(dir, USED_STAMP);
      used = (fs.existsSync(stamp) ? fs.statSync(stamp) : fs.statSync(dir)).mtimeMs;
    } catch {
      continue;
    }
    if (now - used < STALE_AFTER_MS) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
