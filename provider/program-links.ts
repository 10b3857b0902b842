/**
 * How a dynamic class finds another resource of the same program: each resource is remembered by
 * its `id` Output, the very object a program passes on (`serviceId: db.serviceId` is `db.id`). An
 * input the field table says follows another resource (`ResourceDefinition.follows`: a read
 * replica set's `password`) is then, when the program leaves it out, an Output of that resource's
 * outputs, so it changes with them and nothing is restated. A value that is not such an Output (an
 * id written out, a service of another stack) finds nothing: the input stays as the program gave it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Follow } from "./kit/fields/field-table";
import { FOLLOWED_INPUT } from "./kit/hidden";

/** A resource of this program, as its `id` Output finds it. */
interface Known {
  /** Its kind (`resources/registry.ts`). */
  kind: string;
  /** Its outputs, by name. */
  resource: Record<string, unknown>;
}

/** The program's resources of our classes, by their `id` Output. */
const BY_ID = new WeakMap<object, Known>();

/** Remembers `resource`, of `kind`, under its `id` Output. */
export function rememberResource(kind: string, resource: pulumi.CustomResource): void {
  BY_ID.set(resource.id, { kind, resource: resource as unknown as Record<string, unknown> });
}

/**
 * The value of the input `follow` describes for `props` (the program's args): the first of the
 * other resource's `outputs` that has a value, secret when it has one (it may be a password), and
 * absent when none has (not a secret null, which a check would refuse); undefined when
 * `props[follow.via]` is not the id of a resource of that kind in this program. A later output is
 * looked at only when the earlier ones have no value, so a preview that knows the first (a
 * password the program sets) knows the input, whatever it does not know of the others.
 */
export function followed(props: Record<string, unknown>, follow: Follow): pulumi.Output<unknown> | undefined {
  const via = props[follow.via];
  const known = via !== null && typeof via === "object" ? BY_ID.get(via) : undefined;
  if (!known || known.kind !== follow.kind) return undefined;
  const from = (i: number): pulumi.Output<unknown> =>
    pulumi.unsecret(pulumi.output(known.resource[follow.outputs[i]])).apply((value) => {
      if (value !== undefined && value !== null) return pulumi.secret(value);
      return i + 1 < follow.outputs.length ? from(i + 1) : undefined;
    });
  return from(0);
}

/**
 * Fills in `props` (a class's inputs, the program's args) each input of `follows` the program
 * left out and another resource of the program gives (see {@link followed}), and names those
 * filled in under the hidden input `__followed`, so that diff knows them from the program's own.
 */
export function applyFollows(
  props: Record<string, unknown>,
  follows: Readonly<Record<string, Follow>>,
): void {
  const filled: string[] = [];
  for (const [input, follow] of Object.entries(follows)) {
    if (props[input] !== undefined) continue;
    const value = followed(props, follow);
    if (value === undefined) continue;
    props[input] = value;
    filled.push(input);
  }
  if (filled.length > 0) props[FOLLOWED_INPUT] = filled;
}
