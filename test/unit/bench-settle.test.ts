/**
 * The benchmark's settle lag (scripts/bench/settle.js): from the emulator's request log, when
 * each awaited record settled and which GET of the provider first saw it.
 */
interface Wait {
  lagMs: number;
  waitMs: number;
  gets: number;
}
interface Entry {
  method: string;
  path: string;
  status: number;
  at: number;
}
const { settleWaits, countCalls } = require("../../scripts/bench/settle") as {
  settleWaits(log: Entry[], services: Array<{ service_id: string; created: string }>, ms: number): Wait[];
  countCalls(log: Entry[]): Record<string, number>;
};

const base = "/public/api/v1/projects/proj-bench";
const call = (method: string, path: string, at: number, status = 200): Entry => ({
  method,
  path: `${base}${path}`,
  status,
  at,
});
/** GETs of `path` at each of `times`. */
const polls = (path: string, times: number[]) => times.map((at) => call("GET", path, at));

describe("bench settle lag", () => {
  it("times a new service from its created time plus two steps to the first GET after it", () => {
    const log = [
      call("GET", "/services", 990),
      call("POST", "/services", 1000, 202),
      ...polls("/services/svc1", [1100, 1250, 1475, 3000, 5000, 6812, 7312]),
    ];
    const created = new Date(1001).toISOString();
    const waits = settleWaits(log, [{ service_id: "svc1", created }], 3000);
    expect(waits).toEqual([{ lagMs: 7312 - 7001, waitMs: 7312 - 1000, gets: 7 }]);
  });

  it("follows replica sets through the service's list and peerings through the VPC's peering path", () => {
    const log = [
      call("POST", "/services/svc1/replicaSets", 0, 202),
      ...polls("/services/svc1/replicaSets", [100, 900, 1200]),
      call("GET", "/vpcs/vpc1/peerings", 50),
      call("POST", "/vpcs/vpc1/peerings", 60, 201),
      ...polls("/vpcs/vpc1/peerings/p1", [160, 1100]),
    ];
    const waits = settleWaits(log, [], 1000);
    expect(waits).toEqual([
      { lagMs: 200, waitMs: 1200, gets: 3 },
      { lagMs: 40, waitMs: 1040, gets: 2 },
    ]);
  });

  it("sees a delete settle when the GET after its step answers 404", () => {
    const log = [
      call("DELETE", "/services/svc1", 0, 202),
      call("GET", "/services/svc1", 500),
      call("GET", "/services/svc1", 1300, 404),
    ];
    expect(settleWaits(log, [], 1000)).toEqual([{ lagMs: 300, waitMs: 1300, gets: 2 }]);
  });

  it("counts no wait for immediate or refused actions", () => {
    const log = [
      call("POST", "/vpcs", 0, 201),
      call("POST", "/services/svc1/enablePooler", 10),
      call("DELETE", "/vpcs/vpc1/peerings/p1", 20, 204),
      call("POST", "/services/svc1/resize", 30, 409),
      ...polls("/services/svc1", [2000]),
    ];
    expect(settleWaits(log, [], 1000)).toEqual([]);
  });

  it("counts the API calls of an operation by method", () => {
    const log = [call("GET", "/vpcs", 0), call("GET", "/vpcs/v", 1), call("POST", "/vpcs", 2, 201)];
    expect(countCalls(log)).toEqual({ GET: 2, POST: 1 });
  });
});
