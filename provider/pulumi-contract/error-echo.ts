/**
 * RELIANCE on Pulumi's dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`), which
 * Pulumi does not document: when a provider's `check`, `diff`, `read` or `delete` rejects, the
 * host writes ``console.error(`${e}: ${e.stack}`)`` and then answers the engine with the error, so
 * the person running Pulumi reads every such message twice (once under the stack, with the
 * message repeated by the stack trace, once under the resource): a refused `pulumi destroy` did.
 * So, in the host, the dynamic face marks the errors it rejects with as {@link echoOnce} and the
 * host's echo of a marked error is left out: the engine's line under the resource says it once.
 * A programming error (`TypeError` and the like) keeps its echo, whose stack finds the bug.
 * `test/unit/pulumi-contract.test.ts` checks the host's line on the installed release.
 */

/** The lines the host is about to echo for errors marked {@link echoOnce}. */
const marked = new Set<string>();

/** Errors whose stack trace is what a person needs: the host's echo of them is kept. */
const BUGS = [TypeError, ReferenceError, RangeError, SyntaxError];

/** The line the host writes for `error`, as it formats it. */
export function hostEcho(error: Error): string {
  return `${error}: ${error.stack}`;
}

/** Consoles whose host echo is left out. */
const quieted = new WeakSet<object>();

/**
 * Marks `error`, about to be answered to the engine, so that the host's echo of it is left out
 * (once {@link quietErrorEcho} is installed; before, nothing is kept). Returns `error`.
 */
export function echoOnce<E>(error: E): E {
  if (installed && error instanceof Error && !BUGS.some((bug) => error instanceof bug))
    marked.add(hostEcho(error));
  return error;
}

let installed = false;

/**
 * Leaves out of `console.error` (the host's) the one line the host writes for each marked error;
 * every other line goes through. Installed once per console, in the host only (`host.ts`).
 */
export function quietErrorEcho(target: Pick<Console, "error"> = console): void {
  if (quieted.has(target)) return;
  quieted.add(target);
  installed = true;
  const write = target.error.bind(target);
  target.error = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && marked.delete(args[0])) return;
    write(...args);
  };
}
