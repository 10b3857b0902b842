/**
 * What a Pulumi program pays to load the package: declaring resources needs neither the HTTP
 * client (axios) nor the API client; they load when first used (a function call, `MdbApi`, or
 * an operation in the provider host). Run in a child `node`, as a program loads the built
 * package (`npm test` builds it first).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const entry = path.resolve(__dirname, "../../dist/provider/index.js");

/** The modules, among `watched`, that `node` has loaded after running `script` with `mdb` bound. */
function loadedAfter(script: string, watched: string[]): string[] {
  const probe =
    `const mdb = require(${JSON.stringify(entry)});` +
    `${script};` +
    `const loaded = Object.keys(require.cache);` +
    `process.stdout.write(JSON.stringify(${JSON.stringify(watched)}.filter((m) => loaded.some((f) => f.includes(m)))))`;
  return JSON.parse(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" })) as string[];
}

const WATCHED = ["/node_modules/axios/", "/dist/provider/client/api.js", "/dist/provider/client/http.js"];

describe("loading the package in a program", () => {
  beforeAll(() => {
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
  });

  it("declaring resources loads no HTTP client", () => {
    expect(loadedAfter("void [mdb.Service, mdb.Vpc, mdb.ReadReplicaSet, mdb.VpcPeering]", WATCHED)).toEqual(
      [],
    );
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
