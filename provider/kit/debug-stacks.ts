/**
 * Pulumi's promise debug stacks, skipped while a resource registers.
 *
 * `pulumi.CustomResource` wraps four promises for every property a resource registers (value,
 * known, secret, dependencies) and stores `new Error().stack` on each, only for the message it
 * prints if a promise is still pending when the program exits. In a TypeScript program every
 * such stack goes through the source-map support Pulumi installs, which makes it the largest
 * per-resource cost of a preview for resources with many outputs: profiled on a 200-resource
 * preview, 1.25 s of the program's 3.6 s of CPU. Capturing no frames while the constructor runs
 * removes that cost; the messages keep the resource, property and value each promise names.
 *
 * With `PULUMI_DEBUG_PROMISE_LEAKS` set (Pulumi's switch for debugging such leaks) the stacks
 * are kept.
 */

/**
 * Makes V8 capture no stack frames until the returned function is called, which restores the
 * previous limit. Call it just before `super(...)` and restore in `finally`, so only Pulumi's
 * constructor runs with the limit lowered: that includes the legacy `transformations` it calls,
 * whose errors then carry their message without frames. The source position Pulumi records for
 * the resource is unaffected (it raises the limit itself). Does nothing under
 * `PULUMI_DEBUG_PROMISE_LEAKS`.
 */
export function skipDebugStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}
