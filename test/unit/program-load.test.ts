/**
 * What a Pulumi program pays to load the package: declaring resources needs neither the HTTP
 * client (axios) nor the API client, nor the zod schemas of the API's records and requests (the
 * field tables need only its enumerations and limits); they load when first used (a function
 * call, `MdbApi`, or an operation in the provider host). Run in a child `node`, as a program
 * loads the built package (`npm test` builds it first), through the main entry and `/native`.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const entry = path.resolve(__dirname, "../../dist/provider/index.js");
const nativeEntry = path.resolve(__dirname, "../../dist/provider/native.js");

/**
 * The modules, among `watched`, that `node` has loaded after running `script` with `mdb` bound to
 * `from` (default the main entry).
 */
function loadedAfter(script: string, watched: string[], from = entry): string[] {
  const probe =
    `const mdb = require(${JSON.stringify(from)});` +
    `${script};` +
    `const loaded = Object.keys(require.cache);` +
    `process.stdout.write(JSON.stringify(${JSON.stringify(watched)}.filter((m) => loaded.some((f) => f.includes(m)))))`;
  return JSON.parse(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" })) as string[];
}

const WATCHED = ["/node_modules/axios/", "/dist/provider/client/api.js", "/dist/provider/client/http.js"];

/** The API's wire schemas: zod objects for every record and request, built when loaded. */
const WIRE_SCHEMAS = ["/dist/api/records.js", "/dist/api/requests.js"];

const DECLARE = "void [mdb.Service, mdb.Vpc, mdb.ReadReplicaSet, mdb.VpcPeering, mdb.ProductionDatabase]";

describe("loading the package in a program", () => {
  beforeAll(() => {
    for (const file of [entry, nativeEntry])
      if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  });

  it("declaring resources loads no HTTP client and none of the API's wire schemas", () => {
    expect(loadedAfter(DECLARE, [...WATCHED, ...WIRE_SCHEMAS])).toEqual([]);
  });

  it("neither does the native entry", () => {
    expect(loadedAfter(DECLARE, [...WATCHED, ...WIRE_SCHEMAS], nativeEntry)).toEqual([]);
  });

  it("MdbApi loads it on first use and is the client class", () => {
    expect(
      loadedAfter(
        "if (typeof new mdb.MdbApi({ baseUrl: 'http://127.0.0.1:1', publicKey: 'p', secretKey: 's' }).getAuthInfo !== 'function') throw new Error('not the client')",
        WATCHED,
      ),
    ).toEqual(WATCHED);
  });
});
