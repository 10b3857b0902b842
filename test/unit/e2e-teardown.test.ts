/**
 * The e2e project's global teardown removes the folder its setup made (tarball, dependencies,
 * every workspace), so runs do not pile up in the temporary directory, and keeps it when
 * `MDB_E2E_KEEP` asks to look into a failed run.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import teardown from "../e2e/teardown";

let work: string;
const saved = { work: process.env.MDB_E2E_WORK, keep: process.env.MDB_E2E_KEEP };

beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-e2e-teardown-"));
  fs.mkdirSync(path.join(work, "deps/node_modules/pkg"), { recursive: true });
  fs.writeFileSync(path.join(work, "deps/node_modules/pkg/index.js"), "");
  process.env.MDB_E2E_WORK = work;
  delete process.env.MDB_E2E_KEEP;
});

afterEach(() => {
  fs.rmSync(work, { recursive: true, force: true });
  for (const [key, value] of [
    ["MDB_E2E_WORK", saved.work],
    ["MDB_E2E_KEEP", saved.keep],
  ] as const)
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
});

test("removes the run's folder and everything in it", async () => {
  await teardown();
  expect(fs.existsSync(work)).toBe(false);
});

test("keeps it under MDB_E2E_KEEP and says where it is", async () => {
  process.env.MDB_E2E_KEEP = "1";
  const written: string[] = [];
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((text) => {
    written.push(String(text));
    return true;
  });
  try {
    await teardown();
  } finally {
    spy.mockRestore();
  }
  expect(fs.existsSync(path.join(work, "deps/node_modules/pkg/index.js"))).toBe(true);
  expect(written.join("")).toContain(work);
});
