/**
 * Global teardown of the end-to-end tests: removes the folder the global setup made (the packed
 * tarball, the installed dependencies, the generated SDK, every example workspace and its
 * emulator state), about a quarter of a gigabyte per run, unless `MDB_E2E_KEEP` is set, for
 * looking into a failed run's workspaces (the setup prints the folder).
 */
import * as fs from "fs";

export default async function teardown(): Promise<void> {
  const work = process.env.MDB_E2E_WORK;
  if (!work) return;
  if (process.env.MDB_E2E_KEEP) {
    process.stderr.write(`e2e teardown: kept ${work} (MDB_E2E_KEEP)\n`);
    return;
  }
  // Retries: a program's child process may still be closing a file in it when jest ends.
  fs.rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
