// "Did you mean": ranks a schema's option strings against an unknown one. Engine flags are often the same
// words in another order (`--num-speculative-tokens` vs `--speculative-num-draft-tokens`), so the main score
// is token-set Dice; OSA edit distance on the whole name catches typos and breaks ties.
// Hand-written (research STACK.md §g): string-distance packages rank permutations wrongly, and this is short.

/** Below this score a candidate is not offered at all. */
export const SUGGEST_THRESHOLD = 0.75;

// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring).
export const osaDistance = (a: string, b: string): number => {
  if (a === b) return 0;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = Array.from({ length: rows * cols }, () => 0);
  const cell = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(cell(i - 1, j) + 1, cell(i, j - 1) + 1, cell(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, cell(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return cell(rows - 1, cols - 1);
};

// The comparable form of an option name: no leading dashes, lower case, `_` read as `-`.
export const normalizeName = (name: string): string =>
  name.replace(/^-+/, '').toLowerCase().replace(/_/g, '-');

const tokensOf = (name: string): string[] =>
  normalizeName(name)
    .split(/[-.]+/)
    .filter((t) => t !== '');

// Two words match when equal, when one abbreviates the other (≥ 4 letters), or when one edit apart.
const wordsMatch = (a: string, b: string): boolean => {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter >= 4 && (a.startsWith(b) || b.startsWith(a))) return true;
  return shorter >= 4 && osaDistance(a, b) <= 1;
};

// Dice coefficient over words, each word matched at most once.
export const tokenDice = (a: string, b: string): number => {
  const left = tokensOf(a);
  const right = tokensOf(b);
  if (left.length === 0 || right.length === 0) return 0;
  const used = new Set<number>();
  let matches = 0;
  for (const word of left) {
    const exact = right.findIndex((other, i) => !used.has(i) && other === word);
    const found =
      exact !== -1 ? exact : right.findIndex((other, i) => !used.has(i) && wordsMatch(word, other));
    if (found !== -1) {
      used.add(found);
      matches++;
    }
  }
  return (2 * matches) / (left.length + right.length);
};

// 1 for equal names, falling with the edit distance relative to the longer name.
export const editSimilarity = (a: string, b: string): number => {
  const x = normalizeName(a);
  const y = normalizeName(b);
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - osaDistance(x, y) / longest;
};

export interface Suggestion {
  name: string;
  score: number;
}

export interface SuggestOptions {
  /** Candidates ranked lower (deprecated options): they lose ties. */
  demote?: ReadonlySet<string>;
  /** At most this many suggestions (default 3). */
  limit?: number;
}

// The candidates worth offering for an unknown name, best first: scores ≥ the threshold and close to the best.
export const suggestNames = (
  unknown: string,
  candidates: Iterable<string>,
  options: SuggestOptions = {},
): Suggestion[] => {
  const scored: (Suggestion & { edit: number })[] = [];
  for (const name of candidates) {
    const edit = editSimilarity(unknown, name);
    const score = Math.max(tokenDice(unknown, name), edit) - (options.demote?.has(name) === true ? 0.01 : 0);
    if (score >= SUGGEST_THRESHOLD) scored.push({ name, score, edit });
  }
  scored.sort((a, b) => b.score - a.score || b.edit - a.edit || a.name.length - b.name.length);
  const best = scored[0]?.score ?? 0;
  return scored
    .filter((s) => s.score >= best - 0.15)
    .slice(0, options.limit ?? 3)
    .map(({ name, score }) => ({ name, score }));
};
