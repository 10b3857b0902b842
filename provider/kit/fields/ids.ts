/**
 * Resource ids. A resource addressed through a parent has a composite Pulumi id, `parent/own`
 * (a replica set through its service, a peering through its VPC); a top-level one has its own
 * id only. Every form may be prefixed with a project, `projectId/...`, which `import` accepts.
 * The id formats are part of users' state: they never change.
 */

/** The parts of a resource's id, outermost first, e.g. `["serviceId", "replicaSetId"]`. */
export interface IdShape<P extends string = string> {
  /** What the id names, for messages: `read replica set`. */
  label: string;
  /** Part names, outermost first; the last is the resource's own id. */
  parts: readonly P[];
  /** The kind of the record the first part names, for a resource addressed through it (`service`). */
  parent?: string;
}

/** An id read from text: its parts, and the project when the text named one. */
export type ParsedId<P extends string> = { projectId?: string } & Record<P, string>;

/** An id with its project resolved: where a resource lives. */
export type ResourceRef<P extends string> = { projectId: string } & Record<P, string>;

/** The forms an id of `shape` may take, for messages: `"<vpcId>/<peeringId>" or "<projectId>/..."`. */
function forms(shape: IdShape): string {
  const bare = shape.parts.map((p) => `<${p}>`).join("/");
  return `"${bare}" or "<projectId>/${bare}"`;
}

/**
 * Reads an id of `shape`: its parts, optionally after a project. A bare own id is accepted
 * when `known` supplies the parents (the state knows them). Throws naming the forms.
 */
export function parseResourceId<P extends string>(
  shape: IdShape<P>,
  id: string,
  known: Partial<Record<P, unknown>> = {},
): ParsedId<P> {
  const parts = id.split("/");
  const n = shape.parts.length;
  const parents = shape.parts.slice(0, -1);
  const parentsKnown = parents.every((p) => typeof known[p] === "string" && known[p] !== "");
  const usable = parts.length === n || parts.length === n + 1 || (parts.length === 1 && parentsKnown);
  if (parts.some((p) => p === "") || !usable) {
    throw new Error(`"${id}" is not a ${shape.label} id: use ${forms(shape)}`);
  }
  const out: Record<string, string> = {};
  if (parts.length === 1) {
    for (const p of parents) out[p] = known[p] as string;
    out[shape.parts[n - 1]] = parts[0];
  } else {
    const offset = parts.length - n;
    if (offset === 1) out.projectId = parts[0];
    shape.parts.forEach((p, i) => (out[p] = parts[i + offset]));
  }
  return out as ParsedId<P>;
}

/** The Pulumi id of a resource: its parts joined by `/`, without the project. */
export function formatResourceId<P extends string>(shape: IdShape<P>, ref: Record<P, string>): string {
  return shape.parts.map((p) => ref[p]).join("/");
}

/** The resource's own id, the last part of `ref`. */
export function ownId<P extends string>(shape: IdShape<P>, ref: Record<P, string>): string {
  return ref[shape.parts[shape.parts.length - 1]];
}
