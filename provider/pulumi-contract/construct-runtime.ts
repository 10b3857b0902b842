/**
 * RELIANCE on the Node.js SDK's runtime for building a component inside the provider's own
 * process (the engine's `Construct`), which the SDK documents only through its stock provider
 * server (`@pulumi/pulumi/provider`, whose Configure, Diff, Read and timeouts the plugin cannot
 * use). The plugin does what that server's construct does, with the same SDK pieces:
 * - `runtime/state`'s `withLocalStorage`: a fresh store of the SDK's global state per construct
 *   (from 3.202.0; before it, which the peer range still admits, the stock server ran its
 *   construct in `asyncLocalStorage.run(new LocalStore(), ...)`, which is what it wraps);
 * - `runtime/settings`' `resetOptions` (project, stack, parallelism, engine and monitor addresses,
 *   dry run, organization), `awaitFeatureSupport` and `waitForRPCs`;
 * - `runtime/config`'s `setAllConfig` (the stack's config and which keys are secret);
 * - `provider/server`'s `deserializeInputs` (inputs as Outputs carrying their dependencies and
 *   secrecy) and `runtime/rpc`'s `serializeResourceProperties` (the component's state and, per
 *   property, the resources it depends on).
 * `test/unit/pulumi-contract.test.ts` checks each is there in the installed release.
 */
import type * as pulumi from "@pulumi/pulumi";

/** What the engine's ConstructRequest says about the run. */
export interface ConstructSettings {
  /** Project of the stack. */
  project: string;
  /** Stack name. */
  stack: string;
  /** Organization of the stack. */
  organization: string;
  /** How many resource operations may run at once. */
  parallel: number;
  /** The engine's address (for its log). */
  engineAddress: string;
  /** The resource monitor's address, where the component's children are registered. */
  monitorAddress: string;
  /** True during preview. */
  dryRun: boolean;
  /** The stack's config, `mdb:apiUrl` style keys, values as text. */
  config: Record<string, string>;
  /** Keys of `config` whose values are secrets. */
  secretKeys: string[];
}

/** A protobuf Struct, as the engine's request holds the inputs. */
export interface StructLike {
  toJavaScript(): Record<string, unknown>;
}

/** The resources each input depends on, as the request holds them: key → `{ getUrnsList() }`. */
export type InputDependencies = { get(key: string): { getUrnsList(): string[] } | undefined };

interface SdkPieces {
  withLocalStorage<T>(fn: () => Promise<T>): Promise<T>;
  resetOptions(...args: [string, string, number, string, string, boolean, string]): void;
  awaitFeatureSupport(): Promise<void>;
  waitForRPCs(): Promise<void>;
  setAllConfig(config: Record<string, string>, secretKeys: string[]): void;
  deserializeInputs(inputs: StructLike, deps: InputDependencies): Promise<Record<string, unknown>>;
  serializeResourceProperties(
    label: string,
    props: Record<string, unknown>,
  ): Promise<[Record<string, unknown>, Map<string, Set<pulumi.Resource>>]>;
}

/** What `runtime/state` exported before `withLocalStorage` (3.200.0 and 3.201.0). */
interface OlderState {
  asyncLocalStorage: { run<T>(store: unknown, fn: () => Promise<T>): Promise<T> };
  LocalStore: new () => unknown;
}

let pieces: SdkPieces | undefined;

/** The SDK's pieces, loaded on first use (only a construct needs them). */
export function sdkPieces(): SdkPieces {
  if (pieces) return pieces;
  const state = require("@pulumi/pulumi/runtime/state") as Partial<Pick<SdkPieces, "withLocalStorage">> &
    OlderState;
  const settings = require("@pulumi/pulumi/runtime/settings") as Pick<
    SdkPieces,
    "resetOptions" | "awaitFeatureSupport" | "waitForRPCs"
  >;
  const config = require("@pulumi/pulumi/runtime/config") as Pick<SdkPieces, "setAllConfig">;
  const server = require("@pulumi/pulumi/provider/server") as Pick<SdkPieces, "deserializeInputs">;
  const rpc = require("@pulumi/pulumi/runtime/rpc") as Pick<SdkPieces, "serializeResourceProperties">;
  pieces = {
    withLocalStorage:
      state.withLocalStorage ?? ((fn) => state.asyncLocalStorage.run(new state.LocalStore(), fn)),
    resetOptions: settings.resetOptions,
    awaitFeatureSupport: settings.awaitFeatureSupport,
    waitForRPCs: settings.waitForRPCs,
    setAllConfig: config.setAllConfig,
    deserializeInputs: server.deserializeInputs,
    serializeResourceProperties: rpc.serializeResourceProperties,
  };
  return pieces;
}

/** What a construct gives back: the component's URN, its state and what each property depends on. */
export interface Constructed {
  /** The component's URN. */
  urn: string;
  /** Its outputs, serialized as the engine takes them (secrets and unknowns in the wire's words). */
  state: Record<string, unknown>;
  /** Per output, the URNs of the resources it depends on. */
  dependencies: Map<string, string[]>;
}

/**
 * Builds a component in this process as the engine asks: sets the SDK's runtime up for the run
 * `settings` describe, hands `build` the inputs (Outputs where they carry dependencies or
 * secrecy), and once the component is registered returns its URN and the `state` it registered,
 * after every registration it made reached the engine.
 */
export async function constructInProcess(
  settings: ConstructSettings,
  inputs: StructLike,
  dependencies: InputDependencies,
  build: (inputs: Record<string, unknown>) => { urn: pulumi.Output<string>; state: Record<string, unknown> },
): Promise<Constructed> {
  const sdk = sdkPieces();
  return sdk.withLocalStorage(async () => {
    sdk.resetOptions(
      settings.project,
      settings.stack,
      settings.parallel,
      settings.engineAddress,
      settings.monitorAddress,
      settings.dryRun,
      settings.organization,
    );
    await sdk.awaitFeatureSupport();
    sdk.setAllConfig(settings.config, settings.secretKeys);
    const built = build(await sdk.deserializeInputs(inputs, dependencies));
    const urn = await promiseOf(built.urn);
    const [state, deps] = await sdk.serializeResourceProperties(`construct(${urn})`, built.state);
    const byProperty = new Map<string, string[]>();
    for (const [key, resources] of deps)
      byProperty.set(key, await Promise.all([...resources].map((r) => promiseOf(r.urn))));
    await sdk.waitForRPCs();
    return { urn, state, dependencies: byProperty };
  });
}

/** The value of an Output that is always known once its resource is registered (a URN). */
function promiseOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise<T>((resolve) => output.apply((value) => resolve(value)));
}
