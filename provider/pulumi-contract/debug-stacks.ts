/**
 * RELIANCE on how `@pulumi/pulumi` builds its promise debug stacks, which Pulumi does not
 * document: `debuggablePromise` (`runtime/debuggable.js`) stores `new Error().stack` on each of
 * the four promises it makes per registered property (value, known, secret, dependencies), only
 * for the message it prints when a promise is still pending at exit. In a TypeScript program
 * every such stack is formatted by the source-map support Pulumi installs, which made it the
 * largest per-resource cost of a preview for resources with many outputs: profiled on a
 * 200-resource preview, 1.25 s of the program's 3.6 s of CPU (docs/bench.md).
 *
 * While one of our classes registers, stacks whose first frame is Pulumi's `debuggablePromise`
 * are not formatted (their text is empty; the leak message keeps the resource, property and
 * value each promise names). Every other stack, a user's own error thrown from a transformation
 * run by the constructor included, is formatted as before, frames and source maps alike.
 * `test/unit/pulumi-contract.test.ts` checks on the installed release that the skipped stacks
 * are Pulumi's and that a user's error keeps its frames. With `PULUMI_DEBUG_PROMISE_LEAKS` set
 * (Pulumi's switch for debugging such leaks) nothing is skipped.
 */
import * as path from "path";

/** The file and function whose stacks are skipped. */
const DEBUGGABLE_FILE = path.join("runtime", "debuggable.js");
const DEBUGGABLE_FUNCTION = "debuggablePromise";

/** True when the stack was captured by Pulumi's `debuggablePromise`. */
function isPulumiDebugStack(frames: readonly NodeJS.CallSite[]): boolean {
  const top = frames[0];
  return (
    top !== undefined &&
    top.getFunctionName() === DEBUGGABLE_FUNCTION &&
    (top.getFileName() ?? "").endsWith(DEBUGGABLE_FILE)
  );
}

/** V8's own text of a stack, for when no formatter was installed. */
function plainStack(error: Error, frames: readonly NodeJS.CallSite[]): string {
  const head = Error.prototype.toString.call(error);
  return [head, ...frames.map((frame) => `    at ${frame.toString()}`)].join("\n");
}

/**
 * Skips the formatting of Pulumi's promise debug stacks until the returned function is called,
 * which restores the formatter in place before. Call it just before `super(...)` and restore in
 * `finally`. Does nothing under `PULUMI_DEBUG_PROMISE_LEAKS`.
 */
export function skipDebugStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => {};
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, frames) => {
    if (isPulumiDebugStack(frames)) return "";
    return previous ? previous(error, frames) : plainStack(error, frames);
  };
  return () => {
    Error.prepareStackTrace = previous;
  };
}
