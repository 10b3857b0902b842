/**
 * How the server routes what no operation takes (issue 31): a known path asked with another method
 * is a 405 with `Allow` naming the methods it takes (and `{code, message}`), a path of no operation
 * a 404 `no route`; a path id with a control character (a pasted newline) is a 400 that says so,
 * in both dialects.
 */
import type { Dialect } from "../../api/dialects";
import { request, type TestEmulator } from "../helpers/emulator";
import { DIALECT_CASES, startConformanceEmulator } from "./helpers";

describe.each(DIALECT_CASES)("%s dialect", (dialect: Dialect) => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startConformanceEmulator({ dialect });
  });
  afterAll(() => emu.close());

  const p = () => emu.projectPath;
  /** A path of the table: `/P/` stands for the key's project. */
  const at = (path: string) => path.replace("/projects/P/", `${p()}/`);

  it.each([
    ["PUT", "/projects/P/services", "GET, HEAD, POST"],
    ["PATCH", "/projects/P/services/", "GET, HEAD, POST"],
    ["POST", "/projects/P/services/svc1", "DELETE, GET, HEAD"],
    ["GET", "/projects/P/services/svc1/start", "POST"],
    ["HEAD", "/projects/P/services/svc1/setHA", "POST"],
    ["OPTIONS", "/projects/P/vpcs", "GET, HEAD, POST"],
    ["DELETE", "/auth/info", "GET, HEAD"],
    ["POST", "/openapi.json", "GET, HEAD"],
    ["GET", "/projects/P/services/svc1/replicaSets/rs1/resize?x=1", "POST"],
    // Methods with a body that fastify knows: 405 before any body or content type is asked for.
    ["QUERY", "/auth/info", "GET, HEAD"],
    ["PROPFIND", "/projects/P/services/svc1/stop", "POST"],
  ])("%s %s: 405 with Allow %s", async (method, path, allow) => {
    // A HEAD answer has no body, which the contract checker of `emu.api` would refuse.
    const response =
      method === "HEAD"
        ? await request(`${emu.url}${at(path)}`, method, emu.credentials.authorization)
        : await emu.api(method, at(path));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    if (method !== "HEAD")
      expect(response.body).toEqual({
        code: "METHOD_NOT_ALLOWED",
        message: `${method} is not allowed on /public/api/v1${at(path).split("?")[0]}; it takes ${allow}`,
      });
  });

  it("HEAD where GET is taken is answered like GET; credentials come before the method", async () => {
    expect((await request(`${emu.url}${p()}/services`, "HEAD", emu.credentials.authorization)).status).toBe(
      200,
    );
    expect((await emu.api("PUT", `${p()}/services`, undefined, { auth: null })).status).toBe(401);
  });

  it("a path of no operation is a 404 naming no route, whatever the method", async () => {
    for (const [method, path] of [
      ["GET", `${p()}/databases`],
      ["PUT", `${p()}/services/svc1/start/now`],
      ["GET", `${p()}/services//start`],
    ]) {
      const response = await emu.api(method, path);
      expect([method, path, response.status, (response.body as { message: string }).message]).toEqual([
        method,
        path,
        404,
        expect.stringMatching(/^no route /),
      ]);
    }
    // The vendor's additions are no path of the seed's.
    expect((await emu.api("PUT", "/projects")).status).toBe(dialect === "seed" ? 404 : 405);
  });

  it.each([
    ["replica_set_id", "abcd\n", 5],
    ["replica_set_id", "ab\nc", 3],
    ["replica_set_id", "\r", 1],
    ["service_id", "svc1\n", 5],
    ["vpc_id", "12\t3", 3],
  ])("%s %j: 400 naming the control character, not its length or form", async (name, id, at) => {
    const path = {
      replica_set_id: `${p()}/services/svc1/replicaSets/${encodeURIComponent(id)}`,
      service_id: `${p()}/services/${encodeURIComponent(id)}`,
      vpc_id: `${p()}/vpcs/${encodeURIComponent(id)}`,
    }[name]!;
    const response = await emu.api(name === "replica_set_id" ? "DELETE" : "GET", path);
    expect(response.status).toBe(400);
    const code = id
      .codePointAt(at - 1)!
      .toString(16)
      .toUpperCase()
      .padStart(4, "0");
    expect(response.body).toEqual({
      code: "INVALID_REQUEST",
      message: `${name}: must not contain control characters (U+${code} at character ${at}), not ${JSON.stringify(id)}`,
    });
  });
});
