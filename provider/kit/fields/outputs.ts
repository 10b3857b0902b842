/**
 * Output shapes and mapping shared by the resources. Outputs go to the engine as protobuf Structs, which
 * cannot hold `undefined`, so undefined members are dropped at every depth (an absent output
 * and an undefined one mean the same), and a row the class registers that the resource has no
 * value for is `null` in the state; a refreshed or imported resource gives back, as its inputs, exactly the
 * properties its diff rules name.
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

/**
 * `outs` with `null` for each of `names` (the properties the class registers) it has no value for.
 * Pulumi's SDK shows a registered property absent from the state as unknown at every preview
 * (`+ poolerEndpoint: [unknown]`) and warns at every `up` when a program exports it (`Undefined
 * value (poolerEndpoint) will not show as a stack output`); a `null` is known to be nothing. So
 * the state holds every such property, `null` when the resource has none (a pooler that is off, a
 * password the program never set), as providers with a schema do.
 */
export function absentAsNull(
  outs: Record<string, unknown>,
  names: readonly string[],
): Record<string, unknown> {
  const all = { ...outs };
  for (const name of names) if (all[name] === undefined) all[name] = null;
  return all;
}

/** `props` (a state) without the `null`s {@link absentAsNull} put for `names`: the kit reads them as absent. */
export function nullAsAbsent(
  props: Record<string, unknown>,
  names: readonly string[],
): Record<string, unknown> {
  const read = { ...props };
  for (const name of names) if (read[name] === null) delete read[name];
  return read;
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
