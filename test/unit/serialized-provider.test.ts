/**
 * Pulumi stores the serialized provider with every resource of a stack. The resources load
 * their code at call time, so what is serialized stays small: measure it for each resource.
 */
import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../../provider/resources/lazy";

describe("serialized provider", () => {
  it.each([["service"], ["read-replica-set"], ["vpc"], ["vpc-peering"]])(
    "the %s provider serializes to under 3 KB and loads its code by name",
    async (moduleName) => {
      const provider = lazyProvider(moduleName);
      const serialized = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: false });
      const size = Buffer.byteLength(serialized.text);
      process.stdout.write(`serialized ${moduleName} provider: ${size} bytes\n`);
      expect(size).toBeLessThan(3 * 1024);
      expect(serialized.text).toContain(`pulumi-managed-db/dist/provider/resources/${moduleName}`);
      expect(serialized.text).not.toMatch(/axios|zod/);
    },
  );
});
