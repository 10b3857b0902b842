/**
 * The final fork of a `Service` (input `finalFork`): before the service is deleted, a fork of
 * its last snapshot is made and awaited until READY, then left outside the stack, like a final
 * snapshot. Its name is deterministic (and holds the service's id), so a delete that failed
 * half-way and runs again finds the fork it made instead of making a second one.
 */
import { NAME_LENGTH, type Service as ServiceRecord } from "../../client/schemas";
import { unlessGone } from "../../kit/delete";
import type { OpContext, Props } from "../../kit/spec";
import type { FinalForkOptions } from "./fields";
import { waitForService } from "./plan";

/** The longest name the API takes. */
const NAME_LIMIT = NAME_LENGTH.max as number;

/** `<service name>-final-<service id>`, the service name cut so the whole fits the API's limit. */
export function finalForkName(serviceName: string, serviceId: string): string {
  const suffix = `-final-${serviceId}`;
  return `${serviceName.slice(0, Math.max(0, NAME_LIMIT - suffix.length))}${suffix}`;
}

/** The options `setting` asks for, or undefined when no final fork is wanted. */
export function finalForkOptions(setting: unknown): FinalForkOptions | undefined {
  if (setting === true) return {};
  if (setting && typeof setting === "object") return setting as FinalForkOptions;
  return undefined;
}

/** Waits until `source` can be forked (READY), starting it when it is paused. */
async function runnable(ctx: OpContext<"serviceId">, source: ServiceRecord): Promise<void> {
  if (source.status === "READY") return;
  if (source.paused || source.status === "PAUSED" || source.status === "PAUSING") {
    ctx.log(`service ${source.service_id} is ${source.status}: starting it to take its final fork`);
    if (source.status === "PAUSING") await waitForService(ctx, "PAUSED");
    await ctx.api.startService(ctx.ref.projectId, source.service_id);
  }
  await waitForService(ctx, "READY");
}

/**
 * Makes the final fork `props.finalFork` asks for (if any), unless one already exists, and
 * waits until it is READY; prints its id. Nothing to do when the service is gone or already
 * being deleted (its fork was made before the delete was sent).
 */
export async function takeFinalFork(ctx: OpContext<"serviceId">, props: Props): Promise<void> {
  const options = finalForkOptions(props.finalFork);
  if (!options) return;
  const { api } = ctx;
  const { projectId, serviceId } = ctx.ref;
  const source = await unlessGone(api.getService(projectId, serviceId));
  if (!source || source.status === "DELETING" || source.status === "DELETED") return;
  const name = options.name ?? finalForkName(source.name, serviceId);
  const services = await api.listServices(projectId);
  let fork = services.find(
    (s) =>
      s.name === name &&
      s.forked_from?.service_id === serviceId &&
      s.status !== "DELETING" &&
      s.status !== "DELETED",
  );
  if (fork) {
    ctx.log(`service ${serviceId}: final fork ${fork.service_id} "${name}" exists (made by an earlier run)`);
  } else {
    await runnable(ctx, source);
    ctx.log(`service ${serviceId}: taking its final fork "${name}" (LAST_SNAPSHOT) before deleting it`);
    fork = await api.forkService(projectId, serviceId, {
      forkStrategy: "LAST_SNAPSHOT",
      name,
      cpuMillis: options.cpuMillis,
      memoryGbs: options.memoryGbs,
    });
  }
  await waitForService({ ...ctx, ref: { projectId, serviceId: fork.service_id } }, "READY");
  ctx.log(
    `service ${serviceId}: final fork ${fork.service_id} "${name}" is READY; it is not part of the ` +
      "stack (delete it yourself when it is no longer needed)",
  );
}
