/**
 * The benchmark's same-shape control reads each class's registered property names from the
 * built package (`packageShapes` in scripts/bench/setup.js). These tests load it from `dist`
 * the way the benchmark does, through a `node_modules` that holds this package, so a change to
 * the kit that the benchmark depends on fails here rather than only in CI's bench run.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { specOf } from "../../provider/kit/spec";
import { SERVICE } from "../../provider/resources/service/fields";
import { VPC_PEERING } from "../../provider/resources/vpc-peering/fields";

const SERVICE_SPEC = specOf(SERVICE);
const VPC_PEERING_SPEC = specOf(VPC_PEERING);

const { packageShapes } = require("../../scripts/bench/setup") as {
  packageShapes: (nodeModules: string) => Record<string, { names: string[]; secrets: string[] }>;
};

const root = path.resolve(__dirname, "..", "..");
let nodeModules: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(root, "dist", "provider", "adapters", "dynamic", "register.js"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
  }
  nodeModules = fs.mkdtempSync(path.join(os.tmpdir(), "mdb-shapes-"));
  fs.symlinkSync(root, path.join(nodeModules, "pulumi-managed-db"), "dir");
});

afterAll(() => fs.rmSync(nodeModules, { recursive: true, force: true }));

test("gives a shape for each of the four kinds", () => {
  expect(Object.keys(packageShapes(nodeModules)).sort()).toEqual(
    ["read-replica-set", "service", "vpc", "vpc-peering"].sort(),
  );
});

test("a service's shape has its inputs, hidden inputs and every output, and its secrets", () => {
  const service = packageShapes(nodeModules)["service"];
  for (const out of SERVICE_SPEC.registered) expect(service.names).toContain(out);
  expect(service.names).toContain("__provider");
  expect(service.secrets).toEqual(SERVICE_SPEC.secretOutputs);
  expect(service.secrets.length).toBeGreaterThan(0);
});

test("a peering's shape has every output it registers", () => {
  const peering = packageShapes(nodeModules)["vpc-peering"];
  for (const out of VPC_PEERING_SPEC.registered) expect(peering.names).toContain(out);
});
