/**
 * What generic code reads of a resource type: its spec, derived from its definition and field
 * table (`field-table.ts`), read by the class (`register.ts`), check, diff and the provider
 * (`lifecycle.ts`); and the {@link ResourceOps} that are its own (which API calls, which
 * records), declared in `resources/<kind>/provider.ts`.
 */
import type { MdbApi } from "../client/api";
import type { MdbApiError } from "../client/errors";
import type { Blocker } from "./lifecycle/blockers";
import type { WhileInUse } from "./lifecycle/delete";
import type { RunHolds } from "./lifecycle/holds";
import type { OperationId } from "../../api/operations";
import type { DiffFacts } from "./fields/diff";
import type { Clock } from "./context";
import {
  type DerivedFacts,
  type FieldTable,
  type Follow,
  type ResourceDefinition,
  factsOf,
} from "./fields/field-table";
import type { IdShape, ResourceRef } from "./fields/ids";
import type { PlannedCall } from "./preview/lines";
import type { Step } from "./lifecycle/steps";
import type { RecordPhase } from "./lifecycle/statuses";
import type { CheckFailure } from "./fields/check";

/** Inputs or outputs as the engine passes them. */
export type Props = Record<string, unknown>;

/**
 * The facts of a resource type that generic code reads: its definition (names, id, field table)
 * and what is derived from the table ({@link specOf}).
 */
export interface ResourceSpec<P extends string = string> extends DiffFacts, DerivedFacts {
  /** The definition it is derived from. */
  def: ResourceDefinition<FieldTable, P>;
  /** Dispatch key of the provider (see `resources/registry.ts`). */
  kind: string;
  /** Class name, the last part of the type token `pulumi-nodejs:dynamic/mdb:<typeName>`. */
  typeName: string;
  /** What it is, for messages: `read replica set`. */
  label: string;
  /** Shape of its Pulumi id (`serviceId/replicaSetId`, ...). */
  id: IdShape<P>;
  /** `generated`: a missing `name` is derived from project, stack and resource name. */
  naming: "generated" | "none";
  /** The output-only rows checked inputs show the resource will not have (see `ResourceDefinition`). */
  absentOutputs?: (inputs: Record<string, unknown>) => string[];
  /** Inputs that follow another resource of the program when left out (see `ResourceDefinition`). */
  follows: Readonly<Record<string, Follow>>;
}

const specs = new WeakMap<object, ResourceSpec>();

/** The spec of `def`, derived once. */
export function specOf<F extends FieldTable, P extends string>(
  def: ResourceDefinition<F, P>,
): ResourceSpec<P> {
  let spec = specs.get(def);
  if (!spec) {
    spec = {
      ...factsOf(def),
      def: def as unknown as ResourceDefinition<FieldTable, P>,
      kind: def.kind,
      typeName: def.typeName,
      label: def.label,
      id: def.id,
      naming: def.naming,
      failedStatus: def.failedStatus,
      absentOutputs: def.absentOutputs,
      follows: def.follows ?? {},
      deleteBeforeReplace: def.deleteBeforeReplace,
    };
    specs.set(def, spec as ResourceSpec);
  }
  return spec as ResourceSpec<P>;
}

/** What a check's read-only lookups work with (see {@link ResourceOps.verify}). */
export interface CheckContext {
  /** The client of this call. */
  api: MdbApi;
  /** The project of the resource, resolved. */
  projectId: string;
  /**
   * The run, in the provider host (absent in the Pulumi mocks' checks): `recordOf` gives a record
   * as this run's own create or update left it settled (`RunHolds.keepRecord`), which a lookup
   * reads instead of asking the API; `plannedOf` the calls this run's update of a record makes.
   */
  run?: Pick<RunHolds, "recordOf" | "plannedOf">;
}

/** What a create, an update or a delete works with. */
export interface OpContext<P extends string> {
  /** The client of this call. */
  api: MdbApi;
  /** Reports progress to the person running Pulumi. */
  log(message: string): void;
  /** Time and sleep. */
  clock: Clock;
  /** Whether creates adopt existing records of the same identity (`mdb:adoptExisting`). */
  adoptExisting: boolean;
  /** Where the resource lives (before a create has made it: its project and parents only). */
  ref: ResourceRef<P>;
  /** When the operation must be done, `Date.now()` milliseconds. */
  deadline: number;
  /**
   * The run's cancellation (Ctrl-C): waits end and nothing new is sent once it aborts; `api`
   * carries it already (`lifecycle/cancel.ts`). Absent: the operation cannot be cancelled.
   */
  signal?: AbortSignal;
  /** How long a wait bears a status it does not expect, in ms (`mdb:unexpectedStatusMs`); absent: the default. */
  unexpectedStatusMs?: number;
  /** Where the settings were given when not in stack config (`Session.settingsOrigin`). */
  settingsOrigin?: string;
  /** The program may be in any Pulumi language (`CallContext.anyLanguage`). */
  anyLanguage?: boolean;
}

/** How a resource is created without ever making a duplicate (see `create.ts`). */
export interface CreatePolicy<I, R, P extends string> {
  /** What is created, for messages: `VPC core`. */
  what(want: I): string;
  /** The records a create with `want` could have made (the parent's collection). */
  list(ctx: OpContext<P>, want: I): Promise<R[]>;
  /**
   * Identity: true when `record` is what a create with `want` makes. A matching record is
   * adopted instead of created when the class generated the name or `mdb:adoptExisting` is
   * true (see `adopt-existing.ts`); docs/recovery.md lists each resource's identity.
   */
  same(record: R, want: I): boolean;
  /** The identity in words, for the adoption line: `name, CIDR block and region`. */
  identity: string;
  /**
   * The values `same` compares, read from the inputs alone, and the property a failure about
   * them names: check refuses two resources of one program with the same values, one of them to
   * be created, since one record cannot belong to both (`twins.ts`).
   */
  key?: { property: string; of(want: I): readonly unknown[] };
  /** Of the `same` records, those that count (default: all); the others are reported, not adopted. */
  live?(record: R): boolean;
  /** Sends the create. */
  send(ctx: OpContext<P>, want: I): Promise<R>;
  /** First sentence refusing a live record the class did not name: `a VPC named ... exists`. */
  refusal(found: R, want: I, ctx: OpContext<P>): string;
  /** What else the user can do than adopting it: `choose another name`. */
  otherwise: string;
  /** What an adopted record leaves unknown, said after the adoption (a service's initial password). */
  adopted?(want: I): string | undefined;
  /** Reports `same` records that are not live (e.g. failed peerings that still block a delete). */
  ignored?(records: R[], want: I, ctx: OpContext<P>): string;
  /** Checks before anything is sent (e.g. a fork's source, a parent that must be READY). */
  prepare?(ctx: OpContext<P>, want: I): Promise<void>;
  /** After a definite refusal: true to send again (e.g. once a busy parent has settled). */
  retryRefused?(error: MdbApiError, ctx: OpContext<P>, want: I): Promise<boolean>;
}

/**
 * How a resource's API calls read in the line a preview prints for it (see `preview.ts`);
 * each names the operation the provider will call, so the line says what `up` will do.
 */
export interface CallWords<I, O> {
  /** It runs a database: its line always says what the calls do to it (`no restart` too). */
  runs: boolean;
  /** The call that creates the resource from `want`. */
  create(want: I): PlannedCall;
  /**
   * The outputs a record just created from `want` shows (what the create call carries, the
   * API's own values for the rest), so the plan names the calls that follow the create.
   * `lookups` gives read-only access to the API, e.g. to read a parent. Absent: the inputs,
   * with the rows' `created` facts (`field-table.ts`).
   */
  created?(want: I, lookups: () => Promise<CheckContext>): O | Promise<O>;
  /** The calls that delete the resource whose last outputs are `olds`, in order. */
  remove(olds: Props): PlannedCall[];
}

/** What a resource's own API calls and records are; everything else is generic. */
export interface ResourceOps<I, O, R, P extends string> {
  /** The record `ref` names, or undefined when it is gone. */
  find(api: MdbApi, ref: ResourceRef<P>): Promise<R | undefined>;
  /** The record's own id (the last part of the resource id). */
  recordId(record: R): string;
  /**
   * Outputs computed from the others (connection URIs), added to those the field table reads
   * from the record; `memory` holds what the API never returns (see {@link remember}).
   */
  derive?(outs: O, memory: Partial<O>): Partial<O>;
  /**
   * What outputs keep that no record shows, besides the settings the kit keeps itself (a
   * password set, the initial password), from the old outputs (`olds`), the desired inputs
   * (`want`) and the created record (`created`).
   */
  remember?(from: { olds?: Props; want?: I; created?: R }): Partial<O>;
  /** Waits until the record settles after a create or before an update. Absent: it is synchronous. */
  settle?(ctx: OpContext<P>, record: R): Promise<R>;
  /**
   * Where the record's status stands (`statuses.ts`), so a read (refresh, import) says when what
   * it records has not settled. Absent: records are always settled.
   */
  phase?(record: R): RecordPhase;
  /**
   * What a record read with no state (an import) leaves unknown, said after that read (a
   * service's password, which the API gives only to the create). Absent: nothing.
   */
  imported?(record: R): string | undefined;
  /**
   * Waits after an asynchronous step (see `steps.ts`) until the record is in `target` (its
   * settled state when absent) and `until` holds.
   */
  waitFor?(ctx: OpContext<P>, target: string | undefined, until?: (record: R) => boolean): Promise<R>;
  /** The calls that bring observed outputs `have` to `want`, in order; none when they match. */
  plan?(have: O, want: I): Step<R>[];
  /**
   * Read-only lookups at check time (preview included), once the inputs are valid: what the API
   * would refuse only after something exists (e.g. a VPC that does not exist). `want` holds the
   * checked inputs, where a value unknown during preview is the UNKNOWN marker (skip it);
   * `olds` the last checked inputs (empty before the first create). One failure per property.
   */
  verify?(ctx: CheckContext, want: I, olds: Props): Promise<CheckFailure[]>;
  /** Creating it. */
  create: CreatePolicy<I, R, P>;
  /** Its calls in words, for the preview line. */
  calls: CallWords<I, O>;
  /**
   * Runs before the delete is sent (e.g. a final fork), with the state's outputs `props`; the
   * delete's time limit applies. Must be safe to run again after a failure half-way.
   */
  beforeRemove?(ctx: OpContext<P>, props: Props): Promise<void>;
  /** The operation that deletes it (its path parameters come from the ref). */
  remove: OperationId;
  /** The delete is synchronous: nothing to wait for once it is answered. */
  removedAtOnce?: boolean;
  /** Retry a delete refused because the resource is still in use. */
  whileInUse?: WhileInUse;
  /** What uses the resource (dependents a delete is refused for), so a refused delete fails fast. */
  blockers?(api: MdbApi, ref: ResourceRef<P>): Promise<Blocker[]>;
}
