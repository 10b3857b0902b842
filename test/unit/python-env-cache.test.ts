/**
 * The Python e2e's virtualenv cache (test/e2e/python-env.ts) does not grow without end: making a
 * new virtualenv removes the ones no run has used for a week, and keeps the rest.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { STALE_AFTER_MS, pruneStale } from "../e2e/python-env";

const DAY = 24 * 60 * 60 * 1000;

let cache: string;

beforeEach(() => {
  cache = fs.mkdtempSync(path.join(os.tmpdir(), "python-cache-"));
});

afterEach(() => fs.rmSync(cache, { recursive: true, force: true }));

/** Makes a virtualenv folder `name`, its stamp (or, without, its folder) dated `usedAt`. */
function venv(name: string, usedAt: number, stamped = true): string {
  const dir = path.join(cache, name);
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  const stamp = path.join(dir, ".last-used");
  if (stamped) fs.writeFileSync(stamp, "");
  const seconds = usedAt / 1000;
  fs.utimesSync(stamped ? stamp : dir, seconds, seconds);
  return dir;
}

it("removes the virtualenvs unused for a week and keeps the new one and the recently used", () => {
  const now = Date.now();
  const fresh = venv("py3.11-pulumi3.259.0-sdkaaaaaaaaaaaa", now);
  venv("py3.11-pulumi3.259.0-sdkbbbbbbbbbbbb", now - 8 * DAY);
  venv("py3.11-pulumi3.259.0-sdkcccccccccccc", now - 2 * DAY);
  venv("py3.11-pulumi3.200.0-sdkdddddddddddd", now - 30 * DAY, false);

  const removed = pruneStale(cache, fresh, now);

  expect(removed.sort()).toEqual([
    "py3.11-pulumi3.200.0-sdkdddddddddddd",
    "py3.11-pulumi3.259.0-sdkbbbbbbbbbbbb",
  ]);
  expect(fs.readdirSync(cache).sort()).toEqual([
    "py3.11-pulumi3.259.0-sdkaaaaaaaaaaaa",
    "py3.11-pulumi3.259.0-sdkcccccccccccc",
  ]);
});

it("keeps the one it was asked to keep however old, and one just under the limit", () => {
  const now = Date.now();
  const kept = venv("py3.12-pulumi3.259.0-sdkeeeeeeeeeeee", now - 90 * DAY);
  venv("py3.12-pulumi3.259.0-sdkffffffffffff", now - STALE_AFTER_MS + 60_000);

  expect(pruneStale(cache, kept, now)).toEqual([]);
  expect(fs.readdirSync(cache)).toHaveLength(2);
});
