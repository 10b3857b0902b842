/**
 * The contract of the kit's provider functions, as both faces call them: what each takes and
 * returns ({@link KitProvider}), engine-neutral. `provider.ts` builds them for each resource kind.
 */
import type { CallContext } from "../context";
import type { Found } from "./adopt";
import type { CheckFailure } from "../fields/check";
import type { DetailedDiffResult } from "../fields/diff";
import type { Props } from "../spec";
import type { ConfigSource } from "../../config";

/** What check returns: the inputs, defaults filled in, and one failure per bad property. */
export interface CheckResult {
  /** The checked inputs (as given when they are invalid). */
  inputs: Props;
  /** What is wrong; empty when nothing is. */
  failures: CheckFailure[];
  /**
   * Output-only rows the inputs show the resource will not have: a face whose engine takes the
   * checked inputs for the outputs of a preview records them `null` there (the dynamic face).
   */
  absentOutputs?: string[];
}

/** What create returns: the new resource's id and outputs. */
export interface CreateResult {
  /** The resource's id. */
  id: string;
  /** Its outputs. */
  outs: Props;
}

/** What read returns: the resource as found (`id` absent when it is gone), and inputs that reproduce it. */
export interface ReadResult extends Found {
  /** Inputs that reproduce the outputs (so an imported or refreshed resource shows no diff). */
  inputs?: Props;
}

/**
 * The provider functions of one resource kind, engine-neutral: each face (the dynamic classes'
 * host, the plugin) calls them with the properties the engine handed over, as plain values (an
 * unknown is Pulumi's sentinel string, no secret wrapper), and a {@link CallContext}.
 */
export interface KitProvider {
  /** Keeps the stack config (`mdb:*`) for the API client, and lets check ask the API from now on. */
  configure(config: ConfigSource | undefined): void;
  /** Checks the program's inputs `news` (against the last checked inputs `olds`). */
  check(olds: Props, news: Props, call: CallContext): Promise<CheckResult>;
  /** Compares the checked inputs `news` with the last outputs `olds`; prints the preview's line. */
  diff(id: string, olds: Props, news: Props, call: CallContext): Promise<DetailedDiffResult>;
  /** Creates the resource (or takes over one an interrupted run made), waits until it settles. */
  create(inputs: Props, call: CallContext): Promise<CreateResult>;
  /** Adopts the existing resource `importId` as the create of `inputs` (the `import` option). */
  adopt(importId: string, inputs: Props, call: CallContext): Promise<CreateResult>;
  /** Reads the resource `id` (refresh, import); `props` are its last outputs, if any. */
  read(id: string, props: Props, call: CallContext): Promise<ReadResult>;
  /** Brings the resource from its last outputs `olds` to the checked inputs `news`. */
  update(id: string, olds: Props, news: Props, call: CallContext): Promise<{ outs: Props }>;
  /** Deletes the resource whose last outputs are `props`, and waits until it is gone. */
  delete(id: string, props: Props, call: CallContext): Promise<void>;
}
