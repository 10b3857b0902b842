/**
 * The dynamic face's provider functions: Pulumi's dynamic provider host calls these with the
 * properties a resource class registered, hidden inputs included (`hidden.ts`). Each call takes the
 * hidden inputs off, hands the kit the program's own properties with a {@link CallContext} made of
 * them (the resource's name, its `customTimeouts`, progress on this process's stderr, which the
 * host forwards to the engine), and puts them back into what the host stores.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { CallContext, Runtime } from "../../kit/context";
import type { DetailedDiffResult } from "../../kit/fields/diff";
import type { KitProvider } from "../../kit/lifecycle/kit-provider";
import { PartialFailure } from "../../kit/lifecycle/partial";
import { echoOnce } from "../../pulumi-contract/error-echo";
import type { Timeouts } from "../../kit/lifecycle/timeouts";
import type { Props } from "../../kit/spec";
import { withoutUndefined } from "../../kit/fields/outputs";
import {
  IMPORT_INPUT,
  PROVIDER_INPUT,
  RESOURCE_NAME_INPUT,
  TIMEOUTS_INPUT,
  resourceNameIn,
  splitHidden,
} from "./hidden";

/** The functions of a dynamic provider, as the dispatch map in `../../host.ts` holds them. */
export interface ProviderImpl extends Required<Omit<pulumi.dynamic.ResourceProvider, "configure" | "diff">> {
  /** Keeps the stack config for the API client. */
  configure?: pulumi.dynamic.ResourceProvider["configure"];
  /** Diff with the detail the engine's gRPC interface knows (see `kit/fields/diff.ts`). */
  diff(id: string, olds: Props, news: Props): Promise<DetailedDiffResult>;
}

/** The `customTimeouts` a resource class forwarded (`register.ts`), in milliseconds. */
export function timeoutsIn(props: Props): Partial<Timeouts> {
  const given = (props[TIMEOUTS_INPUT] ?? {}) as Record<string, unknown>;
  const out: Partial<Timeouts> = {};
  for (const key of ["create", "update", "delete"] as const)
    if (typeof given[key] === "number") out[key] = given[key];
  return out;
}

/**
 * The dynamic provider of one resource kind over its kit provider `kit`, whose progress goes to
 * `runtime.log`.
 */
export function dynamicProvider(kit: KitProvider, runtime: Pick<Runtime, "log">): ProviderImpl {
  /** The call about the resource whose hidden inputs (or state) are `props`. */
  const callOf = (props: Props, operation?: keyof Timeouts): CallContext => ({
    name: resourceNameIn(props),
    log: (message) => runtime.log(message),
    importing: props[IMPORT_INPUT] !== undefined,
    ...(operation ? { timeoutMs: timeoutsIn(props)[operation] } : {}),
  });
  /** What the host stores: `outs`, with the hidden inputs later calls need (delete gets only outputs). */
  const stored = (outs: Props, hidden: Props): Props =>
    withoutUndefined({
      ...outs,
      [TIMEOUTS_INPUT]: hidden[TIMEOUTS_INPUT],
      [RESOURCE_NAME_INPUT]: hidden[RESOURCE_NAME_INPUT],
    });
  /**
   * A partial failure as the host must pass it on: the state with the hidden inputs, and the
   * provider text, which the host does not add to partial results (the stack could not be
   * managed without it).
   */
  const partial = async <T>(hidden: Props, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof PartialFailure)) throw error;
      throw new PartialFailure(
        error.id,
        { ...stored(error.properties, hidden), [PROVIDER_INPUT]: hidden[PROVIDER_INPUT] },
        error,
      );
    }
  };

  /** `work`, its rejection marked so that the host does not print it a second time (`error-echo.ts`). */
  const once = <T>(work: () => Promise<T>): Promise<T> =>
    work().catch((error: unknown) => {
      throw echoOnce(error);
    });

  return {
    async configure(req) {
      kit.configure(req.config);
    },
    // The engine previews a dynamic resource's create or update with the checked inputs as its
    // outputs: an output-only row the inputs show absent goes there as `null`, or the program would
    // see it unknown (`+ poolerEndpoint: [unknown]` with the pooler off).
    check: (olds, news) =>
      once(async () => {
        const { own, hidden } = splitHidden(news);
        const checked = await kit.check(splitHidden(olds).own, own, callOf(news));
        const absent = Object.fromEntries((checked.absentOutputs ?? []).map((name) => [name, null]));
        return { inputs: { ...checked.inputs, ...absent, ...hidden }, failures: checked.failures };
      }),
    diff: (id, olds, news) => once(() => kit.diff(id, olds, splitHidden(news).own, callOf(news))),
    async create(inputs) {
      const { own, hidden } = splitHidden(inputs);
      const call = callOf(inputs, "create");
      const importId = hidden[IMPORT_INPUT];
      const made =
        typeof importId === "string" && importId !== ""
          ? await kit.adopt(importId, own, call)
          : await partial(hidden, () => kit.create(own, call));
      return { id: made.id, outs: stored(made.outs, hidden) };
    },
    read: (id, props) =>
      once(async () => {
        const olds = props ?? {};
        const { own, hidden } = splitHidden(olds);
        const found = await kit.read(id, own, callOf(olds));
        return found.props ? { ...found, props: stored(found.props, hidden) } : found;
      }),
    async update(id, olds, news) {
      const { own, hidden } = splitHidden(news);
      const updated = await partial(hidden, () =>
        kit.update(id, splitHidden(olds).own, own, callOf(news, "update")),
      );
      return { outs: stored(updated.outs, hidden) };
    },
    delete: (id, props) => once(() => kit.delete(id, splitHidden(props).own, callOf(props, "delete"))),
  };
}
