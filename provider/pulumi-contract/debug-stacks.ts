/**
 * RELIANCE on how `pulumi.Resource`'s constructor runs, which Pulumi does not document:
 * - `debuggablePromise` (`runtime/debuggable.js`) stores `new Error().stack` on each of the four
 *   promises it makes per registered property (value, known, secret, dependencies), only for the
 *   message it prints when a promise is still pending at exit. In a TypeScript program every
 *   such stack is formatted by the source-map support Pulumi installs: profiled on a 200-resource
 *   preview, 1.25 s of the program's 3.6 s of CPU (docs/bench.md).
 * - The constructor runs the legacy `transformations` (the resource's, its parents', the
 *   stack's) first, then assigns `this.__name`, then makes those promises.
 *
 * So while one of our classes registers, V8 captures no stack frames from the moment the
 * constructor assigns `__name` (a setter on the class's prototype, {@link watchRegistration})
 * until it returns. User code it runs before that point, the transformations, keeps full stacks,
 * and so does everything after it returns (applies, transforms, which run later). Measured on
 * 200 resources under mocks: registering costs 150 ms of CPU this way, 280 ms when the stacks are
 * captured but not formatted, 1330 ms with Pulumi's stacks formatted. Pulumi's own source
 * position for the resource raises the limit itself and is kept.
 * `test/unit/pulumi-contract.test.ts` checks both facts on the installed release, and
 * `test/unit/debug-stacks.test.ts` that a user's error keeps its frames. With
 * `PULUMI_DEBUG_PROMISE_LEAKS` set (Pulumi's switch for debugging such leaks) nothing is skipped.
 */

/** Constructions of our classes under way (a transformation may construct another). */
let registering = 0;

/**
 * Makes `prototype` (of the base class of our resources) lower `Error.stackTraceLimit` to 0 when
 * Pulumi's constructor assigns `__name`, while a registration {@link skipDebugStacks} began is
 * under way; the instance then gets `__name` as its own property.
 */
export function watchRegistration(prototype: object): void {
  Object.defineProperty(prototype, "__name", {
    configurable: true,
    set(this: object, value: unknown) {
      Object.defineProperty(this, "__name", { value, writable: true, enumerable: true, configurable: true });
      if (registering > 0) Error.stackTraceLimit = 0;
    },
  });
}

/**
 * Begins a registration: frames stop being captured once Pulumi has run the transformations
 * (see above). Call it just before `super(...)` and call the returned function in `finally`: it
 * restores the limit in place before. Does nothing under `PULUMI_DEBUG_PROMISE_LEAKS`.
 */
export function skipDebugStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => {};
  const limit = Error.stackTraceLimit;
  registering++;
  return () => {
    registering--;
    Error.stackTraceLimit = limit;
  };
}
