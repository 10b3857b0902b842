/**
 * Drives a resource's provider functions (`PROVIDERS[kind]` of `provider/host.ts`) the way the
 * Pulumi engine and the dynamic provider host do, against a test emulator:
 *
 * - `pointProviderAt(emu)` sets `MDB_*` in the environment and forgets cached clients;
 * - `drive(impl)` gives `create` (check, then create), `diff` (check, then diff), `update`
 *   (check, diff, then update when the diff asks for an in-place change), `read` and `delete`.
 *   Inputs and outputs go through protobuf Structs as on the wire (so an `undefined` output
 *   fails as it would under the engine), and `__provider` is added and copied like the host does;
 * - `recordCalls(emu, action)` returns the non-GET API calls `action` made, as
 *   `"POST /projects/{project}/services/{service}/replicaSets/{replicaSet}/resize"`;
 * - `errorOf(promise)` and `errorText(error)` catch a failure and render everything a user
 *   could see of it (message, stack, `util.inspect`), for assertions on ids and secrets;
 *   `stateFromError(error, inputs)` is what the engine records from a partial failure.
 *
 * Example:
 * ```ts
 * const emu = await startTestEmulator();
 * const restore = pointProviderAt(emu);
 * const vpcs = drive(PROVIDERS.vpc);
 * const vpc = await vpcs.create({ name: "a", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
 * const { calls } = await recordCalls(emu, () => vpcs.update(vpc, { ...vpc.inputs, name: "b" }));
 * expect(calls).toEqual(["POST /projects/{project}/vpcs/{vpc}/rename"]);
 * restore();
 * ```
 */
import * as util from "util";
import type * as pulumi from "@pulumi/pulumi";
import { resetFunctionsClient } from "../../provider/functions";
import { configureRuntime } from "../../provider/runtime";
import type { EmulatorOptions } from "../../emulator";
import { startTestEmulator, type TestEmulator } from "./emulator";

// The engine's wire format: the dynamic provider host converts every value with these.
const { Struct } = require("google-protobuf/google/protobuf/struct_pb") as {
  Struct: { fromJavaScript(value: Record<string, unknown>): { toJavaScript(): Record<string, unknown> } };
};

/** A property bag, as the engine passes inputs and outputs. */
export type Props = Record<string, unknown>;

/** The provider functions of a resource kind, as the dispatch map in `provider/host.ts` holds them. */
export interface ProviderImpl {
  configure?(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}

/** A diff as the provider returns it, with the detail our resources add. */
export type Diff = pulumi.dynamic.DiffResult & {
  detailedDiff?: Record<string, { kind: string; inputDiff: boolean }>;
  stables?: string[];
};

/** What the engine keeps of a resource: its id, last checked inputs and last outputs. */
export interface ResourceState {
  id: string;
  /** Inputs as check returned them (defaults filled in, `__provider` included). */
  inputs: Props;
  /** Outputs as the host returns them (`__provider` included). */
  outs: Props;
}

/**
 * The state the engine records from an error that carries `id` and `properties` (a create or
 * update that failed part-way): the resource is kept, with those outputs.
 */
export function stateFromError(error: unknown, inputs: Props): ResourceState {
  const { id, properties } = (error ?? {}) as { id?: unknown; properties?: unknown };
  if (typeof id !== "string" || !properties) throw new Error("the error carries no id/properties");
  return { id, inputs, outs: wire(properties as Props) };
}

/** Stand-in for the serialized provider the engine passes in `__provider`. */
export const PROVIDER = "<serialized provider of the test>";

/** Raised by the driver when `check` reports failures; `failures` lists them. */
export class CheckFailedError extends Error {
  constructor(readonly failures: pulumi.dynamic.CheckFailure[]) {
    super(`check failed: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    this.name = "CheckFailedError";
  }
}

/** Raised by `update` when the diff asks for a replacement, which the engine does not do in place. */
export class ReplaceNeededError extends Error {
  constructor(readonly diff: Diff) {
    super(`the diff asks for a replacement (${(diff.replaces ?? []).join(", ")}), not an update`);
    this.name = "ReplaceNeededError";
  }
}

/** A value through a protobuf Struct and back, like every call of the engine. Drops nothing: undefined throws. */
function wire(props: Props): Props {
  return Struct.fromJavaScript(props).toJavaScript();
}

/** Inputs as the SDK serializes them: undefined members are left out. */
function inputsOnWire(props: Props): Props {
  return wire(JSON.parse(JSON.stringify(props)) as Props);
}

/** The engine's side of one resource type. */
export interface Driver {
  /** `check({}|olds, news)`, throwing {@link CheckFailedError} on failures; `__provider` added. */
  check(news: Props, olds?: Props): Promise<Props>;
  /** check, then create; returns the state the engine would record. */
  create(news: Props): Promise<ResourceState>;
  /** check against the state's inputs, then diff against its outputs. */
  diff(state: ResourceState, news: Props): Promise<{ diff: Diff; inputs: Props }>;
  /**
   * check, diff, then update when the diff reports changes; throws {@link ReplaceNeededError}
   * when it asks for a replacement. With no changes, update is not called (like the engine),
   * unless `initErrors`: the engine updates a resource whose create or update failed part-way
   * (the error carried `id`) on the next `pulumi up` even when the diff shows no change.
   */
  update(
    state: ResourceState,
    news: Props,
    options?: { initErrors?: boolean },
  ): Promise<{ state: ResourceState; diff: Diff }>;
  /** read(id, props) as for `pulumi refresh` (props: the state's outputs) or `import` (props: `{}`). */
  read(id: string, props?: Props): Promise<pulumi.dynamic.ReadResult>;
  /** delete(id, outputs). */
  delete(state: Pick<ResourceState, "id" | "outs">): Promise<void>;
}

/** Drives `impl` like the engine and the dynamic provider host. */
export function drive(impl: ProviderImpl): Driver {
  const check = async (news: Props, olds: Props = {}): Promise<Props> => {
    const given = inputsOnWire({ __provider: PROVIDER, ...news });
    const result = await impl.check(wire(olds), given);
    if (result.failures && result.failures.length > 0) throw new CheckFailedError(result.failures);
    return wire({ ...(result.inputs ?? given), __provider: given.__provider });
  };
  const diff = async (state: ResourceState, news: Props) => {
    const inputs = await check(news, state.inputs);
    return { diff: (await impl.diff(state.id, wire(state.outs), inputs)) as Diff, inputs };
  };
  return {
    check,
    diff,
    async create(news) {
      const inputs = await check(news);
      const result = await impl.create(inputs);
      return { id: result.id, inputs, outs: wire({ ...result.outs, __provider: inputs.__provider }) };
    },
    async update(state, news, options = {}) {
      const { diff: result, inputs } = await diff(state, news);
      if ((result.replaces ?? []).length > 0) throw new ReplaceNeededError(result);
      if (result.changes === false && !options.initErrors)
        return { state: { ...state, inputs }, diff: result };
      const updated = await impl.update(state.id, wire(state.outs), inputs);
      return {
        state: { id: state.id, inputs, outs: wire({ ...updated.outs, __provider: inputs.__provider }) },
        diff: result,
      };
    },
    async read(id, props = {}) {
      const result = await impl.read(id, wire(props));
      const provider = { __provider: props.__provider ?? PROVIDER };
      return {
        id: result.id,
        props: result.props && wire({ ...result.props, ...provider }),
        inputs: result.inputs && wire({ ...result.inputs, ...provider }),
      };
    },
    async delete(state) {
      await impl.delete(state.id, wire(state.outs));
    },
  };
}

// ---------------------------------------------------------------------------------------
// Environment
// ---------------------------------------------------------------------------------------

const ENV_KEYS = ["MDB_API_URL", "MDB_PUBLIC_KEY", "MDB_SECRET_KEY", "MDB_PROJECT_ID"] as const;

/** Progress lines (`[mdb] ...`) the provider wrote while pointed at an emulator, oldest first. */
export const progressLines: string[] = [];

/**
 * Points the provider and the invokes at `emu` through `MDB_*` (like a user who exported them)
 * and forgets their cached clients. `projectId: null` leaves `MDB_PROJECT_ID` unset, so the
 * key's project is used. Progress lines go to {@link progressLines} instead of stderr (set
 * `MDB_TEST_VERBOSE=1` to see them). Returns a function that restores everything.
 */
export function pointProviderAt(emu: TestEmulator, options: { projectId?: string | null } = {}): () => void {
  const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
  const projectId = options.projectId === undefined ? emu.credentials.projectId : options.projectId;
  const values: Record<(typeof ENV_KEYS)[number], string | null> = {
    MDB_API_URL: emu.url,
    MDB_PUBLIC_KEY: emu.credentials.publicKey,
    MDB_SECRET_KEY: emu.credentials.secretKey,
    MDB_PROJECT_ID: projectId,
  };
  for (const key of ENV_KEYS) {
    if (values[key] === null) delete process.env[key];
    else process.env[key] = values[key] as string;
  }
  configureRuntime(undefined);
  resetFunctionsClient();

  const write = process.stderr.write;
  if (!process.env.MDB_TEST_VERBOSE) {
    process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === "string" ? chunk : String(chunk);
      if (text.startsWith("[mdb] ")) {
        progressLines.push(text.slice(6).trimEnd());
        return true;
      }
      return (write as (...args: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    }) as typeof process.stderr.write;
  }
  return () => {
    process.stderr.write = write;
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    configureRuntime(undefined);
    resetFunctionsClient();
  };
}

// ---------------------------------------------------------------------------------------
// Request log
// ---------------------------------------------------------------------------------------

/** Placeholders of the path segment that follows each collection. */
const PLACEHOLDERS: Record<string, string> = {
  services: "{service}",
  replicaSets: "{replicaSet}",
  vpcs: "{vpc}",
  peerings: "{peering}",
};

/** Options of {@link recordCalls}. */
export interface CallOptions {
  /** Names for particular ids (`{ [vpcA]: "{vpcA}" }`), used before the generic placeholders. */
  names?: Record<string, string>;
  /** Append the answered status (` -> 202`; 0 for a dropped connection). Default false. */
  withStatus?: boolean;
}

/**
 * A logged request as `METHOD /path`: without `/public/api/v1`; the key's project shown as
 * `{project}` (another project stays as is, so a wrong one shows); ids named by `names`, else
 * by their collection (`{service}`, `{replicaSet}`, `{vpc}`, `{peering}`).
 */
export function describeCall(
  emu: TestEmulator,
  entry: { method: string; path: string; status: number },
  options: CallOptions = {},
): string {
  const segments = entry.path.replace(/^\/public\/api\/v1/, "").split("/");
  const named = segments.map((segment, i) => {
    if (options.names?.[segment]) return options.names[segment];
    const collection = segments[i - 1];
    if (collection === "projects") return segment === emu.credentials.projectId ? "{project}" : segment;
    return i % 2 === 0 && collection in PLACEHOLDERS ? PLACEHOLDERS[collection] : segment;
  });
  return `${entry.method} ${named.join("/")}${options.withStatus ? ` -> ${entry.status}` : ""}`;
}

/**
 * Empties the request log, runs `action`, and returns its result with the non-GET calls it
 * made, in order (see {@link describeCall}). Requests that failed (faults) are included.
 */
export async function recordCalls<T>(
  emu: TestEmulator,
  action: () => Promise<T>,
  options: CallOptions = {},
): Promise<{ result: T; calls: string[] }> {
  await emu.clearRequests();
  const result = await action();
  // The log takes an entry when the connection is done with it, just after the answer.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const calls = (await emu.requests())
    .filter((entry) => entry.method !== "GET")
    .map((entry) => describeCall(emu, entry, options));
  return { result, calls };
}

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

/** The error `promise` rejects with; fails the test when it resolves. */
export async function errorOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected a failure, but the call succeeded");
}

/** Everything a user could see of an error: message, stack and `util.inspect` (causes included). */
export function errorText(error: unknown): string {
  const e = error as { message?: unknown; stack?: unknown };
  return [String(e?.message), String(e?.stack), util.inspect(error, { depth: 10 })].join("\n");
}

/**
 * Registers the hooks of a suite that drives the provider against one emulator: before all its
 * tests an emulator starts (with `options`), is handed to `started`, and the provider is pointed
 * at it ({@link pointProviderAt}); after them both are undone.
 */
export function useProviderEmulator(options: EmulatorOptions, started: (emu: TestEmulator) => void): void {
  let emu: TestEmulator | undefined;
  let restore: (() => void) | undefined;
  beforeAll(async () => {
    emu = await startTestEmulator(options);
    restore = pointProviderAt(emu);
    started(emu);
  });
  afterAll(async () => {
    restore?.();
    await emu?.close();
  });
}
