/**
 * Output shapes and mapping shared by the resources. Outputs go to the engine as protobuf Structs, which
 * cannot hold `undefined`, so undefined members are dropped at every depth (an absent output
 * and an undefined one mean the same); and a refreshed or imported resource gives back, as its
 * inputs, exactly the properties its diff rules name.
 */
import { z } from "zod";
import { named } from "./type-facts";

/** A copy of `value` without undefined members, at every depth. */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withoutUndefined(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = withoutUndefined(v);
    return out as T;
  }
  return value;
}

/** A host and port, as every endpoint output shows it. */
export const endpointShape = named(
  "Endpoint",
  z.object({
    /** Host name. */
    host: z.string(),
    /** TCP port. */
    port: z.int(),
  }),
);

/** A host and port, as every endpoint output shows it. */
export type EndpointOutput = z.output<typeof endpointShape>;

/** The endpoint output of an API endpoint (`{host, port}`, extra fields left out). */
export function endpointOf(e: { host: string; port: number } | null | undefined): EndpointOutput | undefined {
  return e ? { host: e.host, port: e.port } : undefined;
}

/**
 * Inputs that reproduce observed outputs `outs`, so an imported or refreshed resource shows no
 * diff: every property that has a diff rule, and `projectId` only as the program gave it.
 */
export function inputsOf(
  inputNames: readonly string[],
  outs: object,
  projectInput: unknown,
): Record<string, unknown> {
  const observed = outs as Record<string, unknown>;
  const inputs: Record<string, unknown> = {};
  for (const name of inputNames) inputs[name] = name === "projectId" ? projectInput : observed[name];
  return withoutUndefined(inputs);
}
