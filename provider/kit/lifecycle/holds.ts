/**
 * What this run holds (docs/recovery.md, invariant I2): Pulumi's dynamic provider host is one
 * process per command, serving every dynamic resource of the run (the plugin `mdb` likewise), so
 * the provider can keep here the ids each resource of the run created, adopted, read, updated or
 * diffed (a resource of the program: Pulumi diffs each before it deletes the ones the program
 * dropped). A delete of an id that
 * another resource of the run holds (or that a create of this run returned: the new half of a
 * replacement that adopted the record of its old half) deletes nothing: the record is in the
 * stack the run leaves, under that other resource.
 */

/**
 * How a resource of this run came to hold an id; `managed`: the program declares it (its diff ran),
 * so the stack the run leaves keeps the record under it.
 */
export type HoldKind = "created" | "adopted" | "read" | "updated" | "managed";

/** One id held by one resource of the run. */
export interface Hold {
  /** How. */
  how: HoldKind;
  /** The program's name of the resource that holds it; undefined when its state does not say. */
  by: string | undefined;
}

/** A resource of the run that has an identity (see {@link RunHolds.claim}). */
export interface Claim {
  /** The program's name of the resource. */
  by: string;
  /** Whether it is to be created (check had no recorded inputs for it). */
  creating: boolean;
}

/** What a resource's diff found when it planned no replacement of its own (see {@link RunHolds.noteInPlace}). */
export interface InPlaceDiff {
  /** The resource's state, as the diff read it. */
  olds: Record<string, unknown>;
  /** The diff answered `deleteBeforeReplace`: a replacement Pulumi makes deletes the old one first. */
  deleteFirst: boolean;
}

/** The ids held in one run, per resource kind, and the identities its resources claim. */
export class RunHolds {
  private readonly inPlace = new Map<string, InPlaceDiff>();
  private readonly held = new Map<string, Hold[]>();
  private readonly claims = new Map<string, Claim[]>();
  private readonly records = new Map<string, { projectId: string; record: unknown }>();
  private readonly planned = new Map<string, readonly string[]>();

  /**
   * Keeps `record`, of id `id` of kind `kind` in project `projectId`, as this run's own create or
   * update left it settled: until the run deletes it, the record exists as it was then, so a
   * check's lookup of it (a replica set's service, a service's VPC) needs no call. Returns it.
   */
  keepRecord<T>(kind: string, id: string, projectId: string, record: T): T {
    this.records.set(`${kind}\u0000${id}`, { projectId, record });
    return record;
  }

  /** The record {@link keepRecord} kept of `id` of kind `kind` in project `projectId`, if any. */
  recordOf(kind: string, id: string, projectId: string): unknown {
    const kept = this.records.get(`${kind}\u0000${id}`);
    return kept?.projectId === projectId ? kept.record : undefined;
  }

  /**
   * Records the API calls (operation ids, in order) this run's diff of `id` of kind `kind` found
   * its update will make, so that a check of another resource can tell what state the update
   * leaves it in (a service this run starts or stops). A replacement plans none for the old id.
   */
  plan(kind: string, id: string, calls: readonly { op: string }[]): void {
    this.planned.set(
      `${kind}\u0000${id}`,
      calls.map((call) => call.op),
    );
  }

  /**
   * Records that this run's diff of resource `name` of kind `kind` found changes it makes in place.
   * Should the engine check it again as a new resource (its olds empty), Pulumi is replacing it
   * of its own accord (a replaceOnChanges option), and the preview says so.
   */
  noteInPlace(kind: string, name: string, diff: InPlaceDiff): void {
    this.inPlace.set(`${kind}\u0000${name}`, diff);
  }

  /** What {@link noteInPlace} recorded of resource `name` of kind `kind`, if anything. */
  inPlaceOf(kind: string, name: string): InPlaceDiff | undefined {
    return this.inPlace.get(`${kind}\u0000${name}`);
  }

  /** The calls {@link plan} recorded for `id` of kind `kind`; empty when its diff planned none. */
  plannedOf(kind: string, id: string): readonly string[] {
    return this.planned.get(`${kind}\u0000${id}`) ?? [];
  }

  /**
   * Records that resource `claim.by` of kind `kind` has identity `key` (the values a create
   * matches records by) and returns another resource of the run with the same identity, when it
   * or `claim` is to be created. Checking the same resource again claims nothing new.
   */
  claim(kind: string, key: string, claim: Claim): Claim | undefined {
    const at = `${kind}\u0000${key}`;
    const claims = (this.claims.get(at) ?? []).filter((c) => c.by !== claim.by);
    this.claims.set(at, [...claims, claim]);
    return claims.find((c) => c.creating || claim.creating);
  }

  /** Records that resource `by` of kind `kind` holds `id`. */
  hold(kind: string, id: string, how: HoldKind, by: string | undefined): void {
    const key = `${kind}\u0000${id}`;
    const holds = this.held.get(key) ?? [];
    if (!holds.some((h) => h.how === how && h.by === by)) holds.push({ how, by });
    this.held.set(key, holds);
  }

  /**
   * Resource `by` leaves the stack (its delete is done, or kept the record for another): its
   * reads and diffs of `id` hold it no more, so the last entry of a record a refresh read can
   * delete it, and a lookup of `id` asks the API again.
   */
  release(kind: string, id: string, by: string | undefined): void {
    const key = `${kind}\u0000${id}`;
    this.records.delete(key);
    const holds = (this.held.get(key) ?? []).filter((h) => !(ownLook(h) && h.by === by));
    this.held.set(key, holds);
  }

  /** What this run holds of `id` of kind `kind`. */
  holdsOf(kind: string, id: string): readonly Hold[] {
    return this.held.get(`${kind}\u0000${id}`) ?? [];
  }

  /**
   * Why resource `deleter` (its program name, when its state says) must not delete `id`, or
   * undefined when nothing of the run holds it. Within one run Pulumi never deletes what the
   * same resource created, adopted or updated (a replacement's old half has the same name as its
   * new half), so those holds always keep the record; a read (a refresh before the delete) or a
   * diff (the resource is in the program: the old half of its replacement is deleted under the
   * same name) keeps it only when it was another resource's: the same record imported twice,
   * then one of the two dropped from the program.
   */
  whyKeep(kind: string, id: string, deleter: string | undefined): string | undefined {
    for (const hold of this.holdsOf(kind, id)) {
      if (ownLook(hold) && hold.by === deleter) continue;
      const who = hold.by === undefined ? "a resource of this run" : `resource ${hold.by} of this run`;
      if (hold.how === "read") return `${who} read it (refresh), so it is still in use`;
      if (hold.how === "managed") return `${who} manages it (it is in the program)`;
      if (hold.by !== undefined && hold.by === deleter)
        return `${who} ${hold.how} it in its replacement, so the new resource is this same record`;
      return `${who} ${hold.how} it`;
    }
    return undefined;
  }
}

/** A hold that looking at a record gives (a read, a diff), which the record's own delete may pass. */
function ownLook(hold: Hold): boolean {
  return hold.how === "read" || hold.how === "managed";
}
