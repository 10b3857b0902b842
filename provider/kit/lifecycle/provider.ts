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
import type { CallContext, Runtime } from "../context";
import { adoptImported } from "./adopt";
import { checkInputs, withoutPrintedValues } from "../fields/check";
import { createOnce } from "./create";
import { deleteAndWaitGone } from "./delete";
import type { HoldKind, InPlaceDiff } from "./holds";
import { diffResource, inProgramWords as inWords } from "../fields/diff";
import { PROJECT_INPUT, acceptedCalls, isAutoNamed, stateOf } from "../hidden";
import type { FieldTable, InputsOf, OutputsOf, ResourceDefinition } from "../fields/field-table";
import { readOutputs } from "../fields/field-table";
import { type ResourceRef, formatResourceId, ownId, parseResourceId } from "../fields/ids";
import { parseInputs } from "../messages/input-errors";
import { goneReadLine, isSettledLine, settledCreateLine, unsettledReadLine } from "../messages/waits";
import { callText, describeChange } from "../preview/lines";
import { unknownWordWarnings } from "../preview/unknown-words";
import { previewCalls, pulumiReplacement, settlingOnly } from "../preview/calls";
import { absentAsNull, inputsOf, nullAsAbsent, withoutUndefined } from "../fields/outputs";
import { withDeleteAdvice, withPartialState } from "./partial";
import { apiView } from "./api-view";
import { refuseIfCancelled } from "./cancel";
import { replacementUnderProtection, refuseIfProtected } from "./protection";
import { checkAccess, configFailures } from "./preflight";
import { keptSettings } from "../fields/settings";
import { type OpContext, type Props, type ResourceOps, specOf } from "../spec";
import { callOperation } from "./steps";
import { convergence } from "./converge";
import { deadlineOf, limitOf } from "./timeouts";
import { replacedInPlaceOfItself, takenFailure } from "./taken";
import { twinFailure } from "./twins";
import type { CheckResult, KitProvider } from "./kit-provider";

/**
 * The provider functions of the resource `def` declares, with its own `ops`, working with what
 * `runtime` gives each call (client, project, progress, clock).
 */
export function resourceProvider<F extends FieldTable, R, P extends string>(
  def: ResourceDefinition<F, P>,
  ops: ResourceOps<InputsOf<F>, OutputsOf<F>, R, P>,
  runtime: Runtime,
): KitProvider {
  type I = InputsOf<F>;
  type O = OutputsOf<F>;
  const spec = specOf(def);
  /** The API as a call about one resource uses it: held to the run's cancellation, its retries said to `log`. */
  const apiFor = (log: (line: string) => void) => apiView(runtime.session().api, runtime.cancellation, log);
  /** What an operation works with: the session's client, the call's progress, the runtime's clock. */
  const opContext = (ref: ResourceRef<P>, deadline: number, call: CallContext): OpContext<P> => {
    const session = runtime.session();
    const signal = runtime.cancellation;
    return {
      api: apiFor(call.log),
      adoptExisting: session.adoptExisting,
      log: call.log,
      clock: runtime.clock,
      ref,
      deadline,
      signal,
      unexpectedStatusMs: session.unexpectedStatusMs,
      settingsOrigin: session.settingsOrigin,
      ...(call.anyLanguage ? { anyLanguage: true } : {}),
    };
  };
  /** The project of a resource (`own`, else the configured one, else the key's, asked through {@link apiFor}). */
  const resolveProjectId = (own: string | undefined, log: (line: string) => void) =>
    runtime.session().projectId(own, apiFor(log));
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
  /** Records, for this run, that the resource of the call holds `id` (`holds.ts`). */
  const hold = (id: string, how: HoldKind, call: CallContext) =>
    runtime.holds?.()?.hold(spec.kind, id, how, call.name);
  /** `record`, settled by this run's create or update of it, kept for later checks' lookups. */
  const keep = (ref: ResourceRef<P>, record: R) =>
    runtime.holds?.()?.keepRecord(spec.kind, formatResourceId(spec.id, ref), ref.projectId, record) ?? record;
  /** Ids a refresh read from their recorded state: the engine's next diff of one is the refresh's. */
  const refreshed = new Set<string>();
  /** Outputs in the provider's words (I6, `inProgramWords`). */
  const inProgramWords = (outs: O, words: Props): O => inWords(spec.diffRules, outs, words);
  /**
   * The state the engine keeps of `outs` (`stateOf`), each property the class registers present,
   * `null` when absent, so that a program knows it at every preview.
   */
  const stored = (outs: object, carrier: Props, from?: "inputs" | "outputs") =>
    absentAsNull(stateOf(outs, carrier, from), spec.registered);
  /** A state the engine hands over, its `null`s read as absent. */
  const given = (props: Props | undefined) => nullAsAbsent(props ?? {}, spec.registered);
  /** `checked` with the outputs its inputs show absent, when they are valid. */
  const withAbsent = (checked: CheckResult): CheckResult =>
    checked.failures.length > 0 || !spec.absentOutputs
      ? checked
      : { ...checked, absentOutputs: spec.absentOutputs(checked.inputs) };
  const last = spec.id.parts[spec.id.parts.length - 1];
  const withOwn = (ref: ResourceRef<P>, record: R) =>
    ({ ...ref, [last]: ops.recordId(record) }) as ResourceRef<P>;

  /** The create of `want` (of inputs `raw`) in its parent's collection, as create sends it and check judges it. */
  async function createRequest(want: I, raw: Props, call: CallContext, deadline = Number.POSITIVE_INFINITY) {
    const wanted = want as Props;
    const parents = Object.fromEntries(spec.id.parts.slice(0, -1).map((p) => [p, wanted[p]]));
    const projectId = await resolveProjectId(wanted.projectId as string | undefined, call.log);
    const parent = { ...parents, projectId } as ResourceRef<P>;
    return {
      ctx: opContext(parent, deadline, call),
      want,
      autoNamed: isAutoNamed(raw),
      recordId: ops.recordId,
      importId: (record: R) => formatResourceId(spec.id, withOwn(parent, record)),
    };
  }

  /** Where the resource `id` lives: its parts, and the project from the id, else the state. */
  async function refOf(id: string, props: Props, call: CallContext): Promise<ResourceRef<P>> {
    const parsed = parseResourceId(spec.id, id, props as Partial<Record<P, unknown>>);
    const own = parsed.projectId ?? (props.projectId as string | undefined);
    const projectId = await resolveProjectId(own, call.log);
    return { ...parsed, projectId } as ResourceRef<P>;
  }

  const { mustFind, converge } = convergence({ label: spec.label, id: spec.id, ops, outputsOf });

  /** Read-only access to the API in the project of the state `olds`, for a preview's words. */
  const lookupsOf = (olds: Props, log: (line: string) => void) => async () => ({
    api: apiFor(log),
    projectId: await resolveProjectId(olds.projectId as string | undefined, log),
  });

  /** Says what `up` does when Pulumi replaces resource `name`, whose diff found in-place changes. */
  const sayReplaced = async (name: string, diffed: InPlaceDiff, news: Props, call: CallContext) => {
    const { olds, deleteFirst } = diffed;
    const facts = { name, olds, news, parse, lookups: lookupsOf(olds, call.log), deleteFirst };
    call.log(describeChange(await pulumiReplacement(spec, ops, facts)));
  };

  const provider: KitProvider = {
    configure(config) {
      runtime.configure(config);
      runtime.enableLiveChecks();
    },

    // The program's inputs, then (in the provider host) the configuration, then access to the
    // project and the resource's own read-only lookups: nothing is asked of an invalid program.
    async check(olds, news, call) {
      const facts = { ...spec, secretInputs: call.secretInputs };
      const checked = withAbsent(checkInputs(spec.inputs, news, facts));
      if (!runtime.liveChecks()) return checked;
      const failures = [...checked.failures, ...configFailures(runtime)];
      if (failures.length > 0) return { inputs: checked.inputs, failures };
      // A run already cancelled asks the API nothing more: the inputs and settings are judged, and
      // the create or update that would follow refuses, saying nothing was sent (cancel.ts).
      if (runtime.cancellation?.aborted) return checked;
      const access = await checkAccess(runtime, news.projectId, apiFor(call.log));
      if (access && "failure" in access)
        return { inputs: checked.inputs, failures: withoutPrintedValues([access.failure], facts) };
      if (!access) return checked;
      const at = { holds: runtime.holds?.(), label: spec.label, name: call.name, ...access };
      const twin = twinFailure(at, ops.create, checked.inputs as I, olds);
      if (twin) return { inputs: checked.inputs, failures: withoutPrintedValues([twin], facts) };
      try {
        const want = checked.inputs as I;
        const api = apiFor(call.log);
        const lookup = { api, projectId: access.projectId, run: runtime.holds?.() };
        const found = (await ops.verify?.(lookup, want, olds)) ?? [];
        // Only a new resource's name can be taken (taken.ts): an update's check builds nothing for it.
        const asks = found.length === 0 && !call.importing && Object.keys(olds).length === 0;
        const request = asks ? await createRequest(want, checked.inputs, call) : undefined;
        const self = { ...spec.id, kind: spec.kind, name: call.name };
        const taken = request && (await takenFailure(at.holds, ops.create, request, olds, self));
        if (taken) found.push(taken);
        const replaced = asks && call.name ? at.holds?.inPlaceOf(spec.kind, call.name) : undefined;
        // A line that cannot be put in words never fails the check.
        if (replaced && found.length === 0)
          await sayReplaced(call.name as string, replaced, checked.inputs, call).catch(() => undefined);
        return withAbsent({ inputs: checked.inputs, failures: withoutPrintedValues(found, facts) });
      } catch (error) {
        // A lookup that could not be made finds nothing wrong: create looks again before acting.
        call.log(`could not check ${spec.label} inputs against the API: ${(error as Error).message}`);
        return checked;
      }
    },

    // Each resource with changes prints the calls `up` will make (see `preview.ts`); a plan that
    // cannot be put in words never fails the diff.
    async diff(id, state, news, call) {
      const olds = given(state);
      const afterRefresh = refreshed.delete(id);
      // I2: a resource of the program keeps its record, even when another resource of the stack,
      // dropped from the program, has the same id (imported twice).
      hold(id, "managed", call);
      const diff = replacedInPlaceOfItself(ops.create, olds, news, diffResource(spec, olds, news));
      const name = call.name ?? String(olds.name ?? id);
      const progress = call.log;
      for (const warning of unknownWordWarnings(name, diff.unknownWords ?? [], olds, news)) progress(warning);
      const guard = replacementUnderProtection(
        {
          label: spec.label,
          id,
          props: olds,
          name,
          news,
          replaces: diff.replaces,
          rules: spec.diffRules,
          secret,
        },
        afterRefresh,
      );
      if (guard.warning) progress(guard.warning);
      // A partial state with no change: the engine updates it to finish the earlier run's waits.
      const settling = diff.changes ? undefined : settlingOnly(spec, ops.calls.runs, name, olds);
      if (settling) progress(describeChange(settling));
      if (!diff.changes) return diff;
      try {
        const lookups = lookupsOf(olds, progress);
        const planned = await previewCalls(spec, ops, { name, olds, news, diff, parse, lookups });
        const holds = runtime.holds?.();
        holds?.plan(spec.kind, id, planned.replace ? [] : planned.calls);
        if (!planned.replace && call.name)
          holds?.noteInPlace(spec.kind, call.name, { olds, deleteFirst: diff.deleteBeforeReplace });
        const notes = [...(planned.notes ?? []), ...(guard.note ? [guard.note] : [])];
        progress(describeChange({ ...planned, notes, afterRefresh }));
      } catch (error) {
        progress(`${name}: the calls of this change are planned during up (${(error as Error).message})`);
      }
      return diff;
    },

    async adopt(importId, inputs, call) {
      const adopted = await adoptImported(
        (id, props) => provider.read(id, props, call),
        (olds, news) => diffResource(spec, olds, news),
        spec.label,
        importId,
        inputs,
        spec.unobservable,
      );
      hold(adopted.id, "adopted", call);
      // What the record leaves unknown, as after an adoption by identity (the program's inputs are known here).
      const unknown = ops.create.adopted?.(parse(inputs));
      if (unknown) call.log(unknown);
      return { id: adopted.id, outs: inProgramWords(adopted.outs as O, inputs) };
    },

    async create(inputs, call) {
      let last: string | undefined; // the last progress line, to end with one saying it settled
      const progress = (line: string) => call.log((last = line));
      const want = parse(inputs);
      let adoption = false;
      const deadline = deadlineOf(call, "create", runtime.clock.now());
      const request = await createRequest(want, inputs, { ...call, log: progress }, deadline);
      const { ctx: base } = request;
      const parent = base.ref;
      refuseIfCancelled(base.signal, `creating ${ops.create.what(want)}`);
      await ops.create.prepare?.(base, want);
      const created = await createOnce(ops.create, { ...request, onAdopt: () => (adoption = true) });
      const ctx = { ...base, ref: withOwn(parent, created) };
      const id = formatResourceId(spec.id, ctx.ref);
      hold(id, adoption ? "adopted" : "created", call);
      const memory = remember({ want, created });
      const made = adoption ? "adopted" : ops.settle ? "accepted as" : "created as";
      const what = `${ops.create.what(want)} ${made} ${ops.recordId(created)}`;
      // The wait's first line gives the status, so this one does not repeat it.
      progress(ops.settle ? `${what}; waiting until it settles` : what);
      const unknown = adoption ? ops.create.adopted?.(want) : undefined;
      if (unknown) progress(unknown);
      const state = (record: R) => stored(inProgramWords(outputsOf(record, ctx.ref, memory), inputs), inputs);
      // From here the resource exists: a failure keeps it in the stack with the program's inputs
      // (I1), as observed now, else as the create's answer showed it.
      const resource = `${spec.label} ${ownId(spec.id, ctx.ref)}`;
      // The create is accepted until its wait ends: a partial state says so (`preview/calls.ts`).
      const accepted = ops.settle ? [callText(ops.calls.create(want))] : [];
      const settled = async () => {
        const record = keep(ctx.ref, await converge(ctx, created, want, memory, accepted));
        if (ops.settle && !isSettledLine(last))
          progress(settledCreateLine(resource, (record as { status?: unknown }).status));
        return { id, outs: state(record) };
      };
      return withPartialState(id, settled, {
        resource,
        observe: async () => {
          const record = await ops.find(ctx.api, ctx.ref);
          return record === undefined ? undefined : state(record);
        },
        known: () => state(created),
        accepted,
      });
    },

    async read(id, props, call) {
      const olds = given(props);
      const ref = await refOf(id, olds, call);
      const record = await ops.find(apiFor(call.log), ref);
      // A refresh's read gets the state; an import (the plugin's) none; the classes' import option
      // (`adopt`, which says its own lines) the program's project only.
      const keys = Object.keys(olds).filter((k) => k !== PROJECT_INPUT);
      const refresh = keys.some((k) => k !== "projectId");
      if (record === undefined) {
        if (refresh) call.log(goneReadLine(`${spec.label} ${ownId(spec.id, ref)}`));
        return {};
      }
      const full = withOwn(ref, record);
      const outs = inProgramWords(outputsOf(record, full, remember({ olds })), olds);
      const found = formatResourceId(spec.id, full);
      const phase = ops.phase?.(record);
      if (phase !== undefined && phase !== "settled") {
        const status = String((record as { status?: unknown }).status);
        call.log(unsettledReadLine(`${spec.label} ${ownId(spec.id, full)}`, status, phase === "leaving"));
      }
      const unknown = keys.length === 0 ? ops.imported?.(record) : undefined;
      if (unknown) call.log(unknown);
      hold(found, "read", call);
      if (refresh && runtime.refreshCallsDiff?.() !== false) refreshed.add(id);
      return {
        id: found,
        props: stored(outs, olds, "outputs"),
        inputs: inputsOf(spec.inputNames, outs, olds[PROJECT_INPUT]),
      };
    },

    async update(id, state, news, call) {
      const olds = given(state);
      const want = parse(news);
      const ctx = opContext(
        await refOf(id, olds, call),
        deadlineOf(call, "update", runtime.clock.now()),
        call,
      );
      const memory = remember({ olds, want });
      hold(id, "updated", call);
      const observed = (record: R) => stored(inProgramWords(outputsOf(record, ctx.ref, memory), news), news);
      // What an earlier run left accepted stays named until a wait of this run sees it end.
      const accepted = acceptedCalls(olds);
      // A failure records what was done (I1): the record as observed now; without the API, the
      // old state with what needs no call (settings) and what the calls that succeeded remember.
      return withPartialState(
        id,
        async () => ({
          outs: observed(
            keep(ctx.ref, await converge(ctx, await mustFind(ctx), want, memory, accepted, true)),
          ),
        }),
        {
          resource: `${spec.label} ${ownId(spec.id, ctx.ref)}`,
          observe: async () => {
            const record = await ops.find(ctx.api, ctx.ref);
            return record === undefined ? undefined : observed(record);
          },
          known: () => {
            const outs = { ...olds, ...withoutUndefined(memory) } as O;
            return stored(ops.derive ? { ...outs, ...ops.derive(outs, memory) } : outs, news);
          },
          accepted,
        },
      );
    },

    async delete(id, state, call) {
      const props = given(state);
      // I2: a record another resource of this run holds stays (the old half of a replacement
      // whose new half adopted it included); the old state leaves the stack.
      const holds = runtime.holds?.();
      const keep = holds?.whyKeep(spec.kind, id, call.name);
      if (keep) {
        holds?.release(spec.kind, id, call.name);
        call.log(
          `${spec.label}${typeof props.name === "string" ? ` "${props.name}"` : ""} (${id}) was not deleted ` +
            `(no API call was made): ${keep}; it stays in the stack under that resource`,
        );
        return;
      }
      refuseIfProtected({ label: spec.label, id, props }, call.name);
      const ref = await refOf(id, props, call);
      const ctx = opContext(ref, deadlineOf(call, "delete", runtime.clock.now()), call);
      const api = ctx.api;
      const what = `${spec.label} ${ownId(spec.id, ref)}`;
      refuseIfCancelled(ctx.signal, `deleting ${what}`);
      await withDeleteAdvice(what, async (accepted) => {
        await ops.beforeRemove?.(ctx, props);
        await deleteAndWaitGone({
          ...ctx,
          what,
          send: () => callOperation(api, ops.remove, ref),
          look: ops.removedAtOnce ? undefined : () => ops.find(api, ref),
          timeoutMs: limitOf(call, "delete"),
          whileInUse: ops.whileInUse,
          blockers: ops.blockers && (async () => (await ops.blockers?.(api, ref)) ?? []),
          onAccepted: accepted,
        });
      });
      holds?.release(spec.kind, id, call.name);
    },
  };
  return provider;
}
