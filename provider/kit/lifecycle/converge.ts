/**
 * How a create's or an update's record is brought to the program's inputs once the API has it:
 * wait until it settles, then make the calls its plan names from the record as it is now (never
 * from state), waiting after each asynchronous one. A call an earlier run left accepted is said to
 * have settled when the plan does not send it again, so the person knows it was not sent twice.
 */
import type { IdShape, ResourceRef } from "../fields/ids";
import { formatResourceId, ownId } from "../fields/ids";
import { callText, settledEarlierLine } from "../preview/lines";
import type { OpContext, ResourceOps } from "../spec";
import { runSteps, stepCall } from "./steps";

/** What {@link convergence} works with: the resource's label and id shape, its ops, its outputs. */
export interface ConvergeFacts<I, O, R, P extends string> {
  /** What it is, for messages: `service`. */
  label: string;
  /** Shape of its Pulumi id. */
  id: IdShape<P>;
  /** Its operations (find, settle, plan, waitFor). */
  ops: ResourceOps<I, O, R, P>;
  /** The outputs of a record, with what the resource remembers (`memory`). */
  outputsOf(record: R, ref: ResourceRef<P>, memory: Partial<O>): O;
}

/** The two steps of bringing a record to the inputs, for the resource `facts` describes. */
export function convergence<I, O, R, P extends string>(facts: ConvergeFacts<I, O, R, P>) {
  const { label, id, ops, outputsOf } = facts;

  /** The record, or an error saying the state is stale. */
  async function mustFind(ctx: OpContext<P>): Promise<R> {
    const record = await ops.find(ctx.api, ctx.ref);
    if (record === undefined)
      throw new Error(`${label} ${formatResourceId(id, ctx.ref)} no longer exists; run \`pulumi refresh\``);
    return record;
  }

  /**
   * Settles `record`, applies the planned steps, and returns the record as it ends up; `accepted`
   * names an accepted call while its wait runs (`StepRun.accepted`). With `earlierRun`, the calls
   * `accepted` names on entry are an earlier run's: each the plan does not send again is said to
   * have settled.
   */
  async function converge(
    ctx: OpContext<P>,
    record: R,
    want: I,
    memory: Partial<O>,
    accepted: string[],
    earlierRun = false,
  ): Promise<R> {
    const what = `${label} ${ownId(id, ctx.ref)}`;
    const earlier = earlierRun ? [...accepted] : [];
    const settled = ops.settle ? await ops.settle(ctx, record) : record;
    // Settled: every call accepted before (the create's own, an earlier run's) has ended.
    if (ops.settle) accepted.length = 0;
    const steps = ops.plan?.(outputsOf(settled, ctx.ref, memory), want) ?? [];
    const again = steps.map((step) => callText(stepCall(step)));
    const settledBefore = earlier.filter((words) => !again.includes(words));
    if (settledBefore.length > 0) ctx.log(settledEarlierLine(what, settledBefore));
    if (steps.length === 0) return settled;
    const run = {
      api: ctx.api,
      ref: ctx.ref,
      what,
      progress: ctx.log,
      signal: ctx.signal,
      accepted,
      settle: (target: string | undefined, until?: (record: R) => boolean) => {
        if (!ops.waitFor) throw new Error(`${label}: a step waits, but the resource cannot wait`);
        return ops.waitFor(ctx, target, until);
      },
    };
    return (await runSteps(run, steps, memory)) ?? mustFind(ctx);
  }

  return { mustFind, converge };
}
