/**
 * Test-only hooks of the databases room, off unless the environment variable `MDB_EMULATOR_TEST_HOOK`
 * is set (docs/emulator.md#test-only-hooks); no user needs them. They make the moments a crash test
 * must hit, and a full disk, deterministic:
 *
 * - `pause:<point>`: the server work that reaches `<point>` writes
 *   `[databases] test hook: paused at <point> (<record id>)` on stderr and waits for ever, so a test
 *   can `kill -9` the emulator exactly there;
 * - `enospc:<point>`: the copy made at `<point>` fails half-way with ENOSPC, as on a full disk.
 *
 * A point is `<work>:<stage>`: the work is a queue's task (`create`, `fork`, `createReplicaSet`,
 * `restore`, `restart`, `stop`, `start`, `updatePassword`, `delete`), the stage one of `copying`
 * (half the files copied), `copied` (the folder made, its server not started), `started` (the
 * server up, its password and pooler not yet set), `stopped` (the server down, nothing else done),
 * `applying` (about to set the password), `renamed` (a deleted folder renamed away, not removed).
 */

/** The variable that arms a hook. */
export const TEST_HOOK_VARIABLE = "MDB_EMULATOR_TEST_HOOK";

/** The armed hook, read once when the room loads. */
const armed = parse(process.env[TEST_HOOK_VARIABLE]);

function parse(value: string | undefined): { action: "pause" | "enospc"; point: string } | undefined {
  const match = /^(pause|enospc):(\w+:\w+)$/.exec(value ?? "");
  return match ? { action: match[1] as "pause" | "enospc", point: match[2] } : undefined;
}

/**
 * Marks that the work on `recordId` reached `point`: waits for ever when a `pause` hook names it
 * (after saying so through `log`), returns at once otherwise.
 */
export async function reached(point: string, recordId: string, log: (line: string) => void): Promise<void> {
  if (armed?.action !== "pause" || armed.point !== point) return;
  log(`test hook: paused at ${point} (${recordId})`);
  await new Promise<never>(() => undefined);
}

/**
 * What a copy made at `point` does half-way: pause there (a `pause` hook), fail with ENOSPC (an
 * `enospc` hook), or nothing.
 */
export async function midCopy(point: string, recordId: string, log: (line: string) => void): Promise<void> {
  if (armed?.point !== point) return;
  if (armed.action === "pause") return reached(point, recordId, log);
  throw Object.assign(new Error(`ENOSPC: no space left on device, write (test hook ${point})`), {
    code: "ENOSPC",
  });
}
