/**
 * The e2e programs run on the Node.js running the tests: `pulumi up` of a program that exports
 * `process.version` and `process.execPath` from the program itself and from its dynamic
 * provider's process, compared with this process's own.
 */
import * as path from "path";
import { Workspace } from "./workspace";

jest.setTimeout(120_000);

let ws: Workspace;

beforeAll(async () => {
  // This program makes no API calls: the emulator URL is never used.
  ws = Workspace.create(path.join(__dirname, "node-version"), "http://127.0.0.1:9/unused");
  await ws.stack("dev");
});

afterAll(() => ws?.remove());

it("runs the program and its dynamic provider on the test's own node", async () => {
  await ws.up();
  const self = { version: process.version, execPath: process.execPath };
  expect(await ws.outputs()).toEqual({ program: self, dynamicProvider: self });
});
