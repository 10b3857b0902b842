/**
 * The window of a point-in-time fork as check and create judge it before the fork call: between
 * the source's creation and now, with a minute's allowance for the API's clock running ahead.
 */
import { FORK_CLOCK_SKEW_MS, forkTimeProblem } from "../../provider/resources/service/fork-check";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const CREATED = "2026-11-01T00:00:00Z";

describe("forkTimeProblem", () => {
  it("accepts a time between the source's creation and now, both ends included", () => {
    expect(forkTimeProblem("2026-11-20T08:30:00+02:00", CREATED, NOW)).toBeUndefined();
    expect(forkTimeProblem(CREATED, CREATED, NOW)).toBeUndefined();
    expect(forkTimeProblem("2026-11-28T12:00:00Z", CREATED, NOW)).toBeUndefined();
  });

  it("allows the API's clock to run a minute ahead, and no more", () => {
    expect(forkTimeProblem(new Date(NOW + FORK_CLOCK_SKEW_MS).toISOString(), CREATED, NOW)).toBeUndefined();
    expect(forkTimeProblem(new Date(NOW + FORK_CLOCK_SKEW_MS + 1000).toISOString(), CREATED, NOW)).toMatch(
      /is in the future; a point-in-time fork needs a time between the source's creation \(2026-11-01T00:00:00Z\) and now$/,
    );
  });

  it("refuses a time before the source was created, comparing instants across zones", () => {
    expect(forkTimeProblem("2026-11-01T00:30:00+01:00", CREATED, NOW)).toBe(
      "2026-11-01T00:30:00+01:00 is before the source was created; a point-in-time fork needs a time " +
        "between the source's creation (2026-11-01T00:00:00Z) and now",
    );
  });

  it("without the source's creation time, refuses only the future", () => {
    expect(forkTimeProblem("2001-01-01T00:00:00Z", undefined, NOW)).toBeUndefined();
    expect(forkTimeProblem("2027-01-01T00:00:00Z", undefined, NOW)).toBe(
      "2027-01-01T00:00:00Z is in the future; a point-in-time fork needs a time between the source's creation and now",
    );
  });
});
