/**
 * "Did you mean ...?" for a property name a resource does not know (a typo such as `diskGbs`
 * or `cpu` in a JavaScript program, which no type checker catches).
 */

/** The words of a camelCase name, lower case: `peerRegionCode` -> `peer`, `region`, `code`. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** Edit distance (insertions, deletions, substitutions) between `a` and `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * Letters of `a` in words that `b` shares, plus one per word: `replicas` ~ `replica` counts (a
 * prefix of 3+ letters), so a whole word of the candidate weighs more than a few typos.
 */
function sharedWeight(a: string, b: string): number {
  const theirs = wordsOf(b);
  return wordsOf(a)
    .filter((w) =>
      theirs.some(
        (t) => t === w || (Math.min(t.length, w.length) >= 3 && (t.startsWith(w) || w.startsWith(t))),
      ),
    )
    .reduce((sum, w) => sum + w.length + 1, 0);
}

/**
 * The candidate closest to `name`: fewest edits, less the weight of the camelCase words they
 * share (so `diskGbs` suggests `memoryGbs`, `cpu` suggests `cpuMillis`, `pooler` suggests
 * `connectionPooler`). The first of equals wins; undefined when there is no candidate.
 */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const score = distance(name.toLowerCase(), candidate.toLowerCase()) - sharedWeight(name, candidate);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** ` Did you mean memoryGbs?` for `name` among `candidates`, or nothing when there are none. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const match = closest(name, candidates);
  return match === undefined ? "" : `; did you mean ${match}?`;
}
