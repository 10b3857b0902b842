/**
 * The preview's warnings for values the API reports in words the provider does not know (I6).
 */
import { API_WORDS_OUTPUT } from "../hidden";
import type { UnknownWord } from "../fields/diff";
import type { Props } from "../spec";
import { shown } from "./lines";

/**
 * The preview's warnings for observed values in words the provider does not know (I6): the
 * diff left them alone (`unknownWords`), or the state kept the program's value beside them.
 */
export function unknownWordWarnings(
  name: string,
  unknown: readonly UnknownWord[],
  olds: Props,
  news: Props,
): string[] {
  const lines = unknown.map(
    ({ property, value }) =>
      `${name}: warning: the API reports ${property} ${value === undefined ? "(none)" : JSON.stringify(value)}, ` +
      `which this provider does not know; no replacement is planned for it (the program says ${shown(news[property])})`,
  );
  const kept = (olds[API_WORDS_OUTPUT] ?? {}) as Props;
  for (const [property, value] of Object.entries(kept))
    if (!unknown.some((u) => u.property === property))
      lines.push(
        `${name}: warning: the API reports ${property} ${JSON.stringify(value)}, which this provider does not ` +
          `know; the stack keeps ${shown(olds[property])}, and only a change of ${property} in the program replaces it`,
      );
  return lines;
}
