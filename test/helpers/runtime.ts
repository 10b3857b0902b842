/**
 * Providers built for one test file with a runtime of its own (`kit/context.ts`): its progress
 * lines go to a mock the test reads, and its settings come from the environment, so a test
 * never resets or mocks the process's module state.
 */
import { type ProviderImpl, dynamicProvider } from "../../provider/adapters/dynamic/provider";
import { resourceProvider } from "../../provider/kit/lifecycle/provider";
import { REGISTRY, type ResourceKind } from "../../provider/resources/registry";
import { ConfigRuntime } from "../../provider/runtime";

/** A runtime whose progress lines go to `log` (a jest mock). */
export function testRuntime(log: (message: string) => void = jest.fn()): ConfigRuntime {
  return new ConfigRuntime(log);
}

/** The provider of `kind`, as the host makes it, with `runtime`. */
export function providerWith(kind: ResourceKind, runtime: ConfigRuntime): ProviderImpl {
  const entry = REGISTRY[kind];
  return dynamicProvider(resourceProvider(entry.definition, entry.ops as never, runtime), runtime);
}
