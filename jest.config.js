/**
 * Jest configuration. Two projects: `fast` (unit, conformance, integration, policy: an
 * emulator in-process over real HTTP) and `e2e` (the real Pulumi CLI on every example,
 * with the package installed from its packed tarball; its global setup gets the CLI, its
 * teardown removes the run's temporary folder).
 */
const tsJest = { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] };

module.exports = {
  projects: [
    {
      displayName: "fast",
      testEnvironment: "node",
      roots: ["<rootDir>/test"],
      testMatch: ["**/*.test.ts"],
      testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/e2e/"],
      transform: tsJest,
    },
    {
      displayName: "e2e",
      testEnvironment: "node",
      roots: ["<rootDir>/test/e2e"],
      testMatch: ["**/*.test.ts"],
      transform: tsJest,
      globalSetup: "<rootDir>/test/e2e/setup.ts",
      globalTeardown: "<rootDir>/test/e2e/teardown.ts",
    },
  ],
  testTimeout: 60000,
  // Without timings of an earlier run, the slowest suites first (see the file).
  testSequencer: "<rootDir>/test/sequencer.js",
};
