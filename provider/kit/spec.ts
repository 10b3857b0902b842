/**
 * The declarative facts of one resource type, read by generic code: the resource class
 * (`register.ts`), check and diff (`lifecycle.ts`), the serialized provider (`entry.ts`) and
 * the dispatch map (`../host.ts`). A resource file declares one {@link ResourceSpec} and the
 * {@link ResourceOps} that are its own (which API calls, which records), nothing else.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { MdbApi } from "../client/api";
import type { MdbApiError } from "../client/errors";
import type { Blocker } from "./blockers";
import type { WhileInUse } from "./delete";
import type { DiffFacts } from "./diff";
import type { IdShape, ResourceRef } from "./ids";
import type { PlannedCall } from "./preview";

/**
 * The resource kinds, the keys of the dispatch map in `../host.ts`. Stored in users' state by
 * the serialized provider: a kind is never renamed or reused.
 */
export type ResourceKind = "service" | "read-replica-set" | "vpc" | "vpc-peering";

/** Inputs or outputs as the engine passes them. */
export type Props = Record<string, unknown>;

/** Facts of a resource type. `P` names the parts of its id. */
export interface ResourceSpec<P extends string = string> extends DiffFacts {
  /** Dispatch key of the provider (see {@link ResourceKind}). */
  kind: ResourceKind;
  /** Class name, the last part of the type token `pulumi-nodejs:dynamic/mdb:<typeName>`. */
  typeName: string;
  /** What it is, for messages: `read replica set`. */
  label: string;
  /**
   * Validation of the inputs, defaults filled in, hidden inputs passed through (`.loose()`); an
   * object schema, whose keys are the inputs: check refuses any other property.
   */
  inputs: z.ZodType;
  /** Shape of its Pulumi id (`serviceId/replicaSetId`, ...). */
  id: IdShape<P>;
  /** `generated`: a missing `name` is derived from project, stack and resource name. */
  naming: "generated" | "none";
  /** Output names that are not inputs, registered so the class's fields resolve. */
  outputNames: readonly string[];
  /** Outputs Pulumi must keep secret. */
  secretOutputs?: readonly string[];
}

/** What a check's read-only lookups work with (see {@link ResourceOps.verify}). */
export interface CheckContext {
  /** The client of this provider process. */
  api: MdbApi;
  /** The project of the resource, resolved. */
  projectId: string;
}

/** What a create or an update works with. */
export interface OpContext<P extends string> {
  /** The client of this provider process. */
  api: MdbApi;
  /** Where the resource lives (before a create has made it: its project and parents only). */
  ref: ResourceRef<P>;
  /** When the operation must be done, `Date.now()` milliseconds. */
  deadline: number;
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
  /** Of the `same` records, those that count (default: all); the others are reported, not adopted. */
  live?(record: R): boolean;
  /** Sends the create. */
  send(ctx: OpContext<P>, want: I): Promise<R>;
  /** First sentence refusing a live record the class did not name: `a VPC named ... exists`. */
  refusal(found: R, want: I, ctx: OpContext<P>): string;
  /** What else the user can do than adopting it: `choose another name`. */
  otherwise: string;
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
export interface CallWords<I, O, S> {
  /** It runs a database: its line always says what the calls do to it (`no restart` too). */
  runs: boolean;
  /** The call a planned step makes, starting from the outputs `have`. */
  step(step: S, have: O): PlannedCall;
  /** The call that creates the resource from `want`. */
  create(want: I): PlannedCall;
  /**
   * The outputs a record just created from `want` shows (what the create call carries, the
   * API's own values for the rest), so the plan names the calls that follow the create.
   * `lookups` gives read-only access to the API, e.g. to read a parent.
   */
  created(want: I, lookups: () => Promise<CheckContext>): O | Promise<O>;
  /** The calls that delete the resource whose last outputs are `olds`, in order. */
  remove(olds: Props): PlannedCall[];
}

/** What a resource's own API calls and records are; everything else is generic. */
export interface ResourceOps<I, O, R, P extends string, S = never> {
  /** The record `ref` names, or undefined when it is gone. */
  find(api: MdbApi, ref: ResourceRef<P>): Promise<R | undefined>;
  /** The record's own id (the last part of the resource id). */
  recordId(record: R): string;
  /** Outputs of a record; `memory` holds what the API never returns (see {@link remember}). */
  outputs(record: R, ref: ResourceRef<P>, memory: Partial<O>): O;
  /**
   * What outputs keep that no record shows (write-only inputs such as a password), from the old
   * outputs (`olds`), the desired inputs (`want`) and the created record (`created`).
   */
  remember?(from: { olds?: Props; want?: I; created?: R }): Partial<O>;
  /** Waits until the record settles after a create or before an update. Absent: it is synchronous. */
  settle?(ctx: OpContext<P>, record: R): Promise<R>;
  /** The steps that bring observed outputs `have` to `want`, in order; none when they match. */
  plan?(have: O, want: I): S[];
  /**
   * Carries out `steps`; records in `memory` what it changed that no record shows. Returns the
   * record when the last call answered it whole, else nothing (the record is read again).
   */
  run?(ctx: OpContext<P>, steps: S[], want: I, memory: Partial<O>): Promise<R | void>;
  /**
   * Read-only lookups at check time (preview included), once the inputs are valid: what the API
   * would refuse only after something exists (e.g. a VPC that does not exist). `want` holds the
   * checked inputs, where a value unknown during preview is the UNKNOWN marker (skip it);
   * `olds` the last checked inputs (empty before the first create). One failure per property.
   */
  verify?(ctx: CheckContext, want: I, olds: Props): Promise<pulumi.dynamic.CheckFailure[]>;
  /** Creating it. */
  create: CreatePolicy<I, R, P>;
  /** Its calls in words, for the preview line. */
  calls: CallWords<I, O, S>;
  /**
   * Runs before the delete is sent (e.g. a final fork), with the state's outputs `props`; the
   * delete's time limit applies. Must be safe to run again after a failure half-way.
   */
  beforeRemove?(ctx: OpContext<P>, props: Props): Promise<void>;
  /** Sends the delete. */
  remove(api: MdbApi, ref: ResourceRef<P>): Promise<unknown>;
  /** The delete is synchronous: nothing to wait for once it is answered. */
  removedAtOnce?: boolean;
  /** Retry a delete refused because the resource is still in use. */
  whileInUse?: WhileInUse;
  /** What uses the resource (dependents a delete is refused for), so a refused delete fails fast. */
  blockers?(api: MdbApi, ref: ResourceRef<P>): Promise<Blocker[]>;
}
