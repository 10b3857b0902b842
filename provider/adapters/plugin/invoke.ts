/**
 * Invoke: the functions of `provider/functions` (`getService`, `listVpcs`, ...) as the plugin's
 * functions `mdb:index:<name>`, each the same code a Node.js program calls, reading the API
 * through the plugin's runtime (the settings the engine configured). A list comes back as an
 * object, under the name `functions/results.ts` gives it, and a size's `"shared"` reads 0, as the
 * package schema says (`schema/number-forms.ts`). Arguments the engine handed over as
 * secrets make the whole result secret.
 */
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import { FUNCTIONS as DECLARATIONS } from "../../functions/declarations";
import * as functions from "../../functions/invokes";
import { LIST_RESULTS } from "../../functions/results";
import { useFunctionsSession } from "../../functions/session";
import { didYouMean } from "../../kit/messages/suggest";
import type { Props } from "../../kit/spec";
import { protocol } from "../../pulumi-contract/grpc-protocol";
import type { PluginContext } from "./context";
import { PACKAGE, tokenOf } from "./kinds";
import { inNumberForm } from "./schema/number-forms";
import { received, toStruct } from "./values";

/** A function of the package, as the plugin calls it. */
type PluginFunction = (args: Props) => Promise<unknown>;

/** The functions, by token. */
const FUNCTIONS: ReadonlyMap<string, { name: string; call: PluginFunction }> = new Map(
  Object.entries(functions)
    .filter(([, fn]) => typeof fn === "function")
    .map(([name, fn]) => [tokenOf(name), { name, call: fn as PluginFunction }]),
);

/** The tokens of every function the plugin serves. */
export function functionTokens(): string[] {
  return [...FUNCTIONS.keys()];
}

/** The result of function `name` as an object: a list under its name (`{ services: [...] }`). */
function resultObject(name: string, result: unknown): Props {
  if (!Array.isArray(result)) return result as Props;
  const property = LIST_RESULTS[name];
  if (!property) throw new Error(`${tokenOf(name)} returned a list that has no name in functions/results.ts`);
  return { [property]: result };
}

/** The Invoke RPC of the plugin; the functions read the API through the plugin's runtime. */
export function invokeRpcs(ctx: PluginContext) {
  const pb = protocol().provider;
  return {
    async invoke(request: pb.InvokeRequest): Promise<pb.InvokeResponse> {
      const token = request.getTok();
      const fn = FUNCTIONS.get(token);
      if (!fn)
        throw new Error(
          `the ${PACKAGE} plugin has no function "${token}"${didYouMean(token, functionTokens())} ` +
            `(its functions: ${functionTokens().join(", ")})`,
        );
      const args = received(request.getArgs());
      // One plugin per process: its runtime is the functions' (set with each call, for tests running several).
      useFunctionsSession(() => ctx.runtime.session(), {
        log: (line) => ctx.runtime.log(line),
        signal: ctx.runtime.cancellation,
      });
      const declared = DECLARATIONS[fn.name as keyof typeof DECLARATIONS].result;
      const result = resultObject(fn.name, inNumberForm(declared, await fn.call(args.props)));
      const secret = args.secrets.size > 0 ? Object.keys(result) : [];
      return new pb.InvokeResponse().setReturn(toStruct(result, secret));
    },
  };
}
