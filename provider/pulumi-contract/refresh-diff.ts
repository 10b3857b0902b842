/**
 * RELIANCE on Pulumi's engine: a refresh diffs what it read against the inputs the stack
 * recorded, calling the provider's Diff with the refreshed inputs and outputs as the olds and the
 * recorded inputs as the news (what an `up` of an unchanged program would do after it), unless
 * the CLI's documented `PULUMI_ENABLE_LEGACY_REFRESH_DIFF` is set (`1` or `true`, any case), when
 * it compares outputs itself and calls no Diff. Providers run with the CLI's environment. The
 * quickstart e2e suite checks both on the CLI it runs (test/e2e/quickstart-suite.ts).
 */

/** The CLI's switch back to refreshes that call no Diff. */
export const LEGACY_REFRESH_DIFF_ENV = "PULUMI_ENABLE_LEGACY_REFRESH_DIFF";

/** True when a refresh under `env` (the CLI's, which providers inherit) calls the provider's Diff. */
export function refreshCallsDiff(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[LEGACY_REFRESH_DIFF_ENV];
  return !(value === "1" || value?.toLowerCase() === "true");
}
