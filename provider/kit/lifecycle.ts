/**
 * The provider functions of a resource, built from its spec and ops: the same configure,
 * check, diff, create, read, update and delete for every resource, in the order the design
 * fixes. Create: adopt an `import`ed record, else create once, wait until settled, apply what
 * the create call cannot carry. Update: plan from the record as it is now, never from state.
 * The data-safety invariants of docs/recovery.md hold here: a failure after the API accepted a
 * create or update keeps the resource in the stack with its inputs (I1); a delete of a record
 * another resource of the run holds deletes nothing (I2, `holds.ts`); a replacement of a
 * protected resource fails at preview (I3); a value in words the provider does not know never
 * replaces (I6).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Runtime } from "./context";
import { adoptIfImported } from "./adopt";
import { checkInputs, withoutPrintedValues } from "./check";
import { createOnce } from "./create";
import { deleteAndWaitGone } from "./delete";
import { DetailedDiffResult, type UnknownWord, diffResource } from "./diff";
import {
  API_WORDS_OUTPUT,
  PROJECT_INPUT,
  RESOURCE_NAME_INPUT,
  isAutoNamed,
  resourceNameOf,
  stateOf,
} from "./hidden";
import type { FieldTable, InputsOf, OutputsOf, ResourceDefinition } from "./field-table";
import { readOutputs } from "./field-table";
import { type ResourceRef, formatResourceId, ownId, parseResourceId } from "./ids";
import { parseInputs } from "./messages";
import { change, describeChange, shown } from "./preview";
import { previewCalls } from "./preview-calls";
import { inputsOf, withoutUndefined } from "./outputs";
import { withPartialState } from "./partial";
import { isProtected, protectedReplacement, refuseIfProtected } from "./protection";
import { checkAccess, configFailures } from "./preflight";
import { keptSettings } from "./settings";
import { type OpContext, type Props, type ResourceOps, specOf } from "./spec";
import { callOperation, runSteps } from "./steps";
import { deadlineOf, timeoutsOf } from "./timeouts";

/** The functions of a dynamic provider, as the dispatch map in `../host.ts` holds them. */
export interface ProviderImpl extends Required<Omit<pulumi.dynamic.ResourceProvider, "configure" | "diff">> {
  /** Keeps the stack config for the API client. */
  configure?: pulumi.dynamic.ResourceProvider["configure"];
  /** Diff with the detail the engine's gRPC interface knows (see `diff.ts`). */
  diff(id: string, olds: Props, news: Props): Promise<DetailedDiffResult>;
}

/**
 * The provider functions of the resource `def` declares, with its own `ops`, working with what
 * `runtime` gives each call (client, project, progress, clock).
 */
export function resourceProvider<F extends FieldTable, R, P extends string>(
  def: ResourceDefinition<F, P>,
  ops: ResourceOps<InputsOf<F>, OutputsOf<F>, R, P>,
  runtime: Runtime,
): ProviderImpl {
  type I = InputsOf<F>;
  type O = OutputsOf<F>;
  const spec = specOf(def);
  const progress = (message: string) => runtime.log(message);
  /** What an operation works with: the session's client, the runtime's progress and clock. */
  const opContext = (ref: ResourceRef<P>, deadline: number): OpContext<P> => {
    const session = runtime.session();
    return {
      api: session.api,
      adoptExisting: session.adoptExisting,
      log: progress,
      clock: runtime.clock,
      ref,
      deadline,
    };
  };
  const resolveProjectId = (own?: string) => runtime.session().projectId(own);
  const parse = (raw: Props) => parseInputs(spec.inputs, raw) as I;
  /** The outputs of `record`: what the field table reads of it and remembers, and what derives from those. */
  const outputsOf = (record: R, ref: ResourceRef<P>, memory: Partial<O>): O => {
    const outs = readOutputs(def, record, ref, memory);
    return ops.derive ? { ...outs, ...ops.derive(outs, memory) } : outs;
  };
  /** What the stack keeps that no record shows: the settings, and what the resource remembers itself. */
  const remember = (from: { olds?: Props; want?: I; created?: R }): Partial<O> =>
    ({
      ...keptSettings(spec.settings, from as { olds?: Props; want?: Props }),
      ...ops.remember?.(from),
    }) as Partial<O>;
  const secret = new Set(spec.secretOutputs);
  /** The program's name of the resource, as its inputs or state carry it. */
  const nameIn = (props: Props) =>
    typeof props[RESOURCE_NAME_INPUT] === "string" ? (props[RESOURCE_NAME_INPUT] as string) : undefined;
  /** Records, for this run, that the resource named in `props` holds `id` (`holds.ts`). */
  const hold = (id: string, how: "created" | "adopted" | "read" | "updated", props: Props) =>
    runtime.holds?.()?.hold(spec.kind, id, how, nameIn(props));
  /**
   * Outputs in the provider's words (I6): an input that replaces, whose observed value the
   * provider does not know (or that the record does not show), keeps the value of `words` (the
   * program's inputs, or the old state on a refresh) when that one is known; what the API said
   * is kept apart, for the preview's warning.
   */
  const inProgramWords = (outs: O, words: Props): O => {
    const out = outs as Props;
    const api: Props = {};
    for (const [prop, rule] of Object.entries(spec.diffRules)) {
      if (rule.change !== "replace" || !rule.known || rule.known(out[prop])) continue;
      const theirs = words[prop];
      if (theirs === undefined || !rule.known(theirs)) continue;
      if (out[prop] !== undefined) api[prop] = out[prop];
      out[prop] = theirs;
    }
    return (Object.keys(api).length > 0 ? { ...out, [API_WORDS_OUTPUT]: api } : out) as O;
  };
  const last = spec.id.parts[spec.id.parts.length - 1];
  const withOwn = (ref: ResourceRef<P>, record: R) =>
    ({ ...ref, [last]: ops.recordId(record) }) as ResourceRef<P>;

  /** Where the resource `id` lives: its parts, and the project from the id, else the state. */
  async function refOf(id: string, props: Props): Promise<ResourceRef<P>> {
    const parsed = parseResourceId(spec.id, id, props as Partial<Record<P, unknown>>);
    const projectId = await resolveProjectId(parsed.projectId ?? (props.projectId as string | undefined));
    return { ...parsed, projectId } as ResourceRef<P>;
  }

  /** The record, or an error saying the state is stale. */
  async function mustFind(ctx: OpContext<P>): Promise<R> {
    const record = await ops.find(ctx.api, ctx.ref);
    if (record === undefined)
      throw new Error(
        `${spec.label} ${formatResourceId(spec.id, ctx.ref)} no longer exists; run \`pulumi refresh\``,
      );
    return record;
  }

  /** Settles `record`, applies the planned steps, and returns the record as it ends up. */
  async function converge(ctx: OpContext<P>, record: R, want: I, memory: Partial<O>): Promise<R> {
    const settled = ops.settle ? await ops.settle(ctx, record) : record;
    const steps = ops.plan?.(outputsOf(settled, ctx.ref, memory), want) ?? [];
    if (steps.length === 0) return settled;
    const run = {
      api: ctx.api,
      ref: ctx.ref,
      what: `${spec.label} ${ownId(spec.id, ctx.ref)}`,
      progress,
      settle: (target: string | undefined, until?: (record: R) => boolean) => {
        if (!ops.waitFor) throw new Error(`${spec.label}: a step waits, but the resource cannot wait`);
        return ops.waitFor(ctx, target, until);
      },
    };
    return (await runSteps(run, steps, memory)) ?? mustFind(ctx);
  }

  const provider: ProviderImpl = {
    async configure(req) {
      runtime.configure(req.config);
      runtime.enableLiveChecks();
    },

    // The program's inputs, then (in the provider host) the configuration, then access to the
    // project and the resource's own read-only lookups: nothing is asked of an invalid program.
    async check(olds, news) {
      const checked = checkInputs(spec.inputs, news, spec);
      if (!runtime.liveChecks()) return checked;
      const failures = [...checked.failures, ...configFailures(runtime)];
      if (failures.length > 0) return { inputs: checked.inputs, failures };
      const access = await checkAccess(runtime, news.projectId);
      if (access && "failure" in access) return { inputs: checked.inputs, failures: [access.failure] };
      if (!access || !ops.verify) return checked;
      try {
        const found = await ops.verify(
          { api: runtime.session().api, projectId: access.projectId },
          checked.inputs as I,
          olds,
        );
        return { inputs: checked.inputs, failures: withoutPrintedValues(found, spec) };
      } catch (error) {
        // A lookup that could not be made finds nothing wrong: create looks again before acting.
        progress(`could not check ${spec.label} inputs against the API: ${(error as Error).message}`);
        return checked;
      }
    },

    // Each resource with changes prints the calls `up` will make (see `preview.ts`); a plan that
    // cannot be put in words never fails the diff.
    async diff(id, olds, news) {
      const diff = diffResource(spec, olds, news);
      const name = resourceNameOf(news, olds, id);
      for (const warning of unknownWordWarnings(name, diff.unknownWords ?? [], olds, news)) progress(warning);
      // I3: the old one's delete would be refused after the new one was made.
      if (diff.replaces.length > 0 && isProtected(olds)) {
        const inputs = diff.replaces.filter((p) => p in spec.diffRules);
        throw protectedReplacement({
          label: spec.label,
          id,
          props: olds,
          inputs: inputs.length > 0 ? inputs : ["status"],
          reasons: diff.replaces.map((p) =>
            p in spec.diffRules
              ? `${p} ${change(olds[p], news[p], secret.has(p))}: ${spec.diffRules[p].why ?? "cannot change in place"}`
              : `the API reports it ${String(olds[p])}`,
          ),
        });
      }
      if (!diff.changes) return diff;
      try {
        const lookups = async () => ({
          api: runtime.session().api,
          projectId: await resolveProjectId(olds.projectId as string | undefined),
        });
        progress(describeChange(await previewCalls(spec, ops, { id, olds, news, diff, parse, lookups })));
      } catch (error) {
        progress(`${name}: the calls of this change are planned during up (${(error as Error).message})`);
      }
      return diff;
    },

    async create(inputs) {
      const adopted = await adoptIfImported(
        provider,
        (olds, news) => diffResource(spec, olds, news),
        spec.label,
        inputs,
        spec.unobservable,
      );
      if (adopted) {
        hold(adopted.id, "adopted", inputs);
        return { id: adopted.id, outs: inProgramWords(adopted.outs as O, inputs) };
      }
      const want = parse(inputs);
      const wanted = want as Props;
      const parents = Object.fromEntries(spec.id.parts.slice(0, -1).map((p) => [p, wanted[p]]));
      const projectId = await resolveProjectId(wanted.projectId as string | undefined);
      const parent = { ...parents, projectId } as ResourceRef<P>;
      let adoption = false;
      const base = opContext(parent, deadlineOf(inputs, "create", runtime.clock.now()));
      await ops.create.prepare?.(base, want);
      const created = await createOnce(ops.create, {
        ctx: base,
        want,
        autoNamed: isAutoNamed(inputs),
        recordId: ops.recordId,
        importId: (record) => formatResourceId(spec.id, withOwn(parent, record)),
        onAdopt: () => (adoption = true),
      });
      const ctx = { ...base, ref: withOwn(parent, created) };
      const id = formatResourceId(spec.id, ctx.ref);
      hold(id, adoption ? "adopted" : "created", inputs);
      const memory = remember({ want, created });
      const what = `${ops.create.what(want)} ${ops.settle ? "accepted" : "created"} as ${ops.recordId(created)}`;
      const status = (created as { status?: unknown }).status;
      progress(ops.settle ? `${what} (${String(status)}); waiting until it settles` : what);
      const state = (record: R) =>
        stateOf(inProgramWords(outputsOf(record, ctx.ref, memory), inputs), inputs);
      // From here the resource exists: a failure keeps it in the stack with the program's inputs
      // (I1), as observed now, else as the create's answer showed it.
      return withPartialState(
        id,
        inputs,
        async () => ({ id, outs: state(await converge(ctx, created, want, memory)) }),
        {
          observe: async () => {
            const record = await ops.find(ctx.api, ctx.ref);
            return record === undefined ? undefined : state(record);
          },
          known: () => state(created),
        },
      );
    },

    async read(id, props) {
      const olds = props ?? {};
      const ref = await refOf(id, olds);
      const record = await ops.find(runtime.session().api, ref);
      if (record === undefined) return {};
      const full = withOwn(ref, record);
      const outs = inProgramWords(outputsOf(record, full, remember({ olds })), olds);
      const found = formatResourceId(spec.id, full);
      hold(found, "read", olds);
      return {
        id: found,
        props: stateOf(outs, olds, "outputs"),
        inputs: inputsOf(spec.inputNames, outs, olds[PROJECT_INPUT]),
      };
    },

    async update(id, olds, news) {
      const want = parse(news);
      const ctx = opContext(await refOf(id, olds), deadlineOf(news, "update", runtime.clock.now()));
      const memory = remember({ olds, want });
      hold(id, "updated", news);
      const state = (record: R) => stateOf(inProgramWords(outputsOf(record, ctx.ref, memory), news), news);
      // A failure records what was done (I1): the record as observed now; without the API, the
      // old state with what needs no call (settings) and what the calls that succeeded remember.
      return withPartialState(
        id,
        news,
        async () => ({ outs: state(await converge(ctx, await mustFind(ctx), want, memory)) }),
        {
          observe: async () => {
            const record = await ops.find(ctx.api, ctx.ref);
            return record === undefined ? undefined : state(record);
          },
          known: () => {
            const outs = { ...olds, ...withoutUndefined(memory) } as O;
            return stateOf(ops.derive ? { ...outs, ...ops.derive(outs, memory) } : outs, news);
          },
        },
      );
    },

    async delete(id, props) {
      // I2: a record another resource of this run holds stays (the old half of a replacement
      // whose new half adopted it included); the old state leaves the stack.
      const holds = runtime.holds?.();
      const keep = holds?.whyKeep(spec.kind, id, nameIn(props));
      if (keep) {
        holds?.release(spec.kind, id, nameIn(props));
        progress(
          `${spec.label}${typeof props.name === "string" ? ` "${props.name}"` : ""} (${id}) was not deleted ` +
            `(no API call was made): ${keep}; it stays in the stack under that resource`,
        );
        return;
      }
      refuseIfProtected({ label: spec.label, id, props });
      const ref = await refOf(id, props);
      const ctx = opContext(ref, deadlineOf(props, "delete", runtime.clock.now()));
      const api = ctx.api;
      await ops.beforeRemove?.(ctx, props);
      await deleteAndWaitGone({
        log: progress,
        clock: runtime.clock,
        what: `${spec.label} ${ownId(spec.id, ref)}`,
        send: () => callOperation(api, ops.remove, ref),
        look: ops.removedAtOnce ? undefined : () => ops.find(api, ref),
        timeoutMs: timeoutsOf(props).delete,
        whileInUse: ops.whileInUse,
        blockers: ops.blockers && (async () => (await ops.blockers?.(api, ref)) ?? []),
      });
      holds?.release(spec.kind, id, nameIn(props));
    },
  };
  return provider;
}

/**
 * The preview's warnings for observed values in words the provider does not know (I6): the
 * diff left them alone (`unknownWords`), or the state kept the program's value beside them.
 */
function unknownWordWarnings(
  name: string,
  unknown: readonly UnknownWord[],
  olds: Props,
  news: Props,
): string[] {
  const lines = unknown.map(
    ({ property, value }) =>
      `${name}: warning: the API reports ${property} ${value === undefined ? "(none)" : JSON.stringify(value)}, ` +
      `which this provider does not know; no replacement is planned for it (the program says ${shown(news[property])})`,
  );
  const kept = (olds[API_WORDS_OUTPUT] ?? {}) as Props;
  for (const [property, value] of Object.entries(kept))
    if (!unknown.some((u) => u.property === property))
      lines.push(
        `${name}: warning: the API reports ${property} ${JSON.stringify(value)}, which this provider does not ` +
          `know; the stack keeps ${shown(olds[property])}, and only a change of ${property} in the program replaces it`,
      );
  return lines;
}
