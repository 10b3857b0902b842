/**
 * The fault matrix's report: its cells as a Markdown table (a row per call, a column per failure)
 * and the causes of each cell that failed or needed a person.
 */
import { type CellResult, FAILURES } from "./fault-matrix-life";

/** The matrix as a Markdown table: a row per call, a column per failure, passed/total in each cell. */
export function table(results: CellResult[]): string {
  const rows = [...new Set(results.map((r) => `${r.step.kind} ${r.step.call}`))];
  const lines = [`| call | ${FAILURES.join(" | ")} |`, `| --- | ${FAILURES.map(() => "---").join(" | ")} |`];
  for (const row of rows) {
    const cells = FAILURES.map((f) => {
      const mine = results.filter((r) => `${r.step.kind} ${r.step.call}` === row && r.failure === f);
      if (!mine.length) return "";
      const passed = mine.filter((r) => r.passed).length;
      const persons = mine.filter((r) => r.passed && r.person).length;
      return `${passed}/${mine.length}${persons ? ` (${persons} person)` : ""}`;
    });
    lines.push(`| ${row} | ${cells.join(" | ")} |`);
  }
  const passed = results.filter((r) => r.passed).length;
  lines.push("", `${passed}/${results.length} cells passed`);
  return lines.join("\n");
}

/** Each failed cell with its causes; each cell that needed a person with what it needed. */
export function details(results: CellResult[]): string {
  return results
    .filter((r) => !r.passed || r.person)
    .map(
      (r) =>
        `- ${r.step.kind} ${r.step.call} × ${r.failure} × ${r.followUp}: ${r.passed ? `needs a person (${r.person})` : "FAILED"}` +
        (r.problems.length ? `\n    ${r.problems.join("\n    ")}` : ""),
    )
    .join("\n");
}
