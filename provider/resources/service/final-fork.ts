/**
 * The final fork of a `Service` (input `finalFork`): before the service is deleted, a fork of
 * its last snapshot is made and awaited until READY, then left outside the stack, like a final
 * snapshot. Its name is deterministic (and holds the service's id), so a delete that failed
 * half-way and runs again finds the fork it made instead of making a second one.
 *
 * Names stay unique: when a service already has the fork's name (a fixed `finalFork.name`
 * whose fork of an earlier service still exists), the fork is named `<name>-<service id>`
 * instead, and the progress line says so. Refusing would stop a delete (a `destroy` half-way,
 * its dependents already gone) for a name, and making a duplicate breaks every lookup by name.
 */
import { NAME_LENGTH } from "../../client/constants";
import { isLeavingService } from "../../client/readings";
import type { Service as ServiceRecord } from "../../client/schemas";
import { unlessGone } from "../../kit/lifecycle/delete";
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

/** `<name>-<service id>`, `name` cut so the whole fits: the final fork's name when `name` is taken. */
export function uniqueFinalForkName(name: string, serviceId: string): string {
  const suffix = `-${serviceId}`;
  return `${name.slice(0, Math.max(0, NAME_LIMIT - suffix.length))}${suffix}`;
}

/** True for a record that still holds its name (not being deleted). */
function holdsName(record: ServiceRecord): boolean {
  return !isLeavingService(record);
}

/**
 * The name of the final fork of `serviceId`: `wanted`, or its unique form when another service
 * holds `wanted`; and the fork an earlier run made under either, if any. Throws, before anything is
 * forked or deleted, when both names are held by services that are not forks of this one.
 */
function forkName(
  services: ServiceRecord[],
  wanted: string,
  serviceId: string,
): { name: string; existing?: ServiceRecord; taken?: ServiceRecord } {
  const unique = uniqueFinalForkName(wanted, serviceId);
  const live = services.filter(holdsName);
  const ours = (name: string) => live.find((s) => s.name === name && s.forked_from?.service_id === serviceId);
  const existing = ours(wanted) ?? ours(unique);
  if (existing) return { name: existing.name, existing };
  const taken = live.find((s) => s.name === wanted);
  if (!taken) return { name: wanted };
  const alsoTaken = live.find((s) => s.name === unique);
  if (alsoTaken)
    throw new Error(
      `service ${serviceId}: cannot take its final fork: services named "${wanted}" (${taken.service_id}) and ` +
        `"${unique}" (${alsoTaken.service_id}) exist; set finalFork.name to a name no service has. ` +
        "Nothing was forked or deleted",
    );
  return { name: unique, taken };
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
  if (!source || isLeavingService(source)) return;
  const wanted = options.name ?? finalForkName(source.name, serviceId);
  const { name, existing, taken } = forkName(await api.listServices(projectId), wanted, serviceId);
  let fork = existing;
  if (fork) {
    ctx.log(`service ${serviceId}: final fork ${fork.service_id} "${name}" exists (made by an earlier run)`);
  } else {
    if (taken)
      ctx.log(
        `service ${serviceId}: service ${taken.service_id} is already named "${wanted}" (an earlier final ` +
          `fork?): this final fork is named "${name}", so that names stay unique`,
      );
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
