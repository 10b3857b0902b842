/**
 * RELIANCE on how `pulumi.Resource`'s constructor runs, which Pulumi does not document:
 * - `debuggablePromise` (`runtime/debuggable.js`) stores `new Error().stack` on each of the four
 *   promises it makes per registered property (value, known, secret, dependencies), only for the
 *   message it prints when a promise is still pending at exit. In a TypeScript program every
 *   such stack is formatted by the source-map support Pulumi installs: profiled on a 200-resource
 *   preview, 1.25 s of the program's 3.6 s of CPU (docs/bench.md).
 * - The constructor runs the legacy `transformations` (the resource's, its parents', the
 *   stack's) first, then assigns `this.__name`, then makes those promises.
 * - The registration goes on after the constructor returns, in promise continuations started in
 *   it (they carry its async context): they make more such promises (serializing each property,
 *   the resource operation, the keep-alive of each debug log line), each with its stack.
 *
 * So while one of our classes registers, V8 captures no stack frames from the moment the
 * constructor assigns `__name` (a setter on the class's prototype, {@link watchRegistration})
 * until it returns. User code it runs before that point, the transformations, keeps full stacks,
 * and so does everything after it returns (applies, transforms, which run later). Measured on
 * 200 resources under mocks: registering costs 150 ms of CPU this way, 280 ms when the stacks are
 * captured but not formatted, 1330 ms with Pulumi's stacks formatted. Pulumi's own source
 * position for the resource raises the limit itself and is kept.
 *
 * The continuations run from that point carry a mark (an `AsyncLocalStorage` store entered with
 * `__name`), and where a program has installed a stack formatter (`Error.prepareStackTrace`: the
 * source-map support Pulumi installs for a TypeScript program) it is wrapped so that a stack
 * whose top frame is `debuggablePromise`, made under that mark, is formatted with no frames, as
 * the limit of 0 formats it in the constructor; every other stack (a user's error in a transform
 * Pulumi runs there too) is formatted in full. Measured on a 200-resource preview through the
 * native classes, whole `pulumi preview` against the constructor-only skipping: wall time 0.94,
 * CPU 0.95 (medians of 8 pairs).
 *
 * `test/unit/pulumi-contract.test.ts` checks these facts on the installed release, and
 * `test/unit/debug-stacks.test.ts` that a user's error keeps its frames. With
 * `PULUMI_DEBUG_PROMISE_LEAKS` set (Pulumi's switch for debugging such leaks) nothing is skipped.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Constructions of our classes under way (a transformation may construct another). */
let registering = 0;

/** The mark of a registration's continuations: `true` from `__name` on (see above). */
const quiet = new AsyncLocalStorage<boolean>();

/** The formatters this module has wrapped, to wrap each once. */
const wrappers = new WeakSet<object>();

/** Whether `frames` (of a stack being formatted) are those of a promise Pulumi made for debugging. */
function isDebugPromise(frames: NodeJS.CallSite[]): boolean {
  return frames[0]?.getFunctionName() === "debuggablePromise";
}

/**
 * Wraps the stack formatter in place, if a program installed one and it is not ours: under the
 * mark, a debug promise's stack is formatted with no frames; any other stack as before.
 */
function wrapFormatter(): void {
  const formatter = Error.prepareStackTrace;
  if (typeof formatter !== "function" || wrappers.has(formatter)) return;
  const wrapper = function (this: unknown, error: Error, frames: NodeJS.CallSite[]): unknown {
    return formatter.call(this, error, quiet.getStore() === true && isDebugPromise(frames) ? [] : frames);
  };
  wrappers.add(wrapper);
  Error.prepareStackTrace = wrapper;
}

/**
 * Makes `prototype` (of the base class of our resources) lower `Error.stackTraceLimit` to 0 and
 * enter the mark when Pulumi's constructor assigns `__name`, while a registration
 * {@link skipDebugStacks} began is under way; the instance then gets `__name` as its own property.
 */
export function watchRegistration(prototype: object): void {
  Object.defineProperty(prototype, "__name", {
    configurable: true,
    set(this: object, value: unknown) {
      Object.defineProperty(this, "__name", { value, writable: true, enumerable: true, configurable: true });
      if (registering > 0) {
        Error.stackTraceLimit = 0;
        quiet.enterWith(true);
      }
    },
  });
}

/**
 * Begins a registration: frames stop being captured once Pulumi has run the transformations,
 * and what the registration runs later is marked (see above). Call it just before `super(...)`
 * and call the returned function in `finally`: it restores the limit and the mark in place
 * before. Does nothing under `PULUMI_DEBUG_PROMISE_LEAKS`.
 */
export function skipDebugStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => {};
  wrapFormatter();
  const limit = Error.stackTraceLimit;
  const mark = quiet.getStore();
  registering++;
  return () => {
    registering--;
    Error.stackTraceLimit = limit;
    quiet.enterWith(mark as boolean);
  };
}
