// "Did you mean": ranks a schema's option strings against an unknown one. Engine flags are often the same
// words in another order (`--num-speculative-tokens` vs `--speculative-num-draft-tokens`), so the main score
// is token-set Dice; OSA edit distance on the whole name catches typos and breaks ties.
// Hand-written (CONTRIBUTING.md, dependencies): string-distance packages rank permutations wrongly, and this is short.

/** Below this score a candidate is not offered at all. */
export const SUGGEST_THRESHOLD = 0.75;

let rowBuffers: Int32Array[] = [];

// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring), over
// three reused rows. With `limit`, it stops as soon as the distance must exceed it and returns limit + 1.
export const osaDistance = (a: string, b: string, limit = Number.MAX_SAFE_INTEGER): number => {
  if (a === b) return 0;
  if (a.length === 0 || b.length === 0) return Math.min(Math.max(a.length, b.length), limit + 1);
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const cols = b.length + 1;
  if ((rowBuffers[0]?.length ?? 0) < cols) rowBuffers = [0, 1, 2].map(() => new Int32Array(cols * 2));
  let [before, previous, current] = rowBuffers as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j < cols; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j < cols; j++) {
      const cb = b.charCodeAt(j - 1);
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1);
      best = Math.min(best, (previous[j - 1] as number) + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      current[j] = best;
      if (best < rowMin) rowMin = best;
    }
    // Later rows never drop below this row's minimum by more than a swap reaches back; one row of slack.
    if (rowMin > limit + 1) return limit + 1;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  return Math.min(previous[cols - 1] as number, limit + 1);
};

// Whether two words are at most one insertion, deletion, substitution or swap apart (linear time).
const withinOneEdit = (a: string, b: string): boolean => {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
};

// The comparable form of an option name: no leading dashes, lower case, `_` read as `-`.
export const normalizeName = (name: string): string =>
  name.replace(/^-+/, '').toLowerCase().replace(/_/g, '-');

const tokenCache = new Map<string, string[]>();
// The words of an option name (split at -, _ and .), lower case; a plain loop, as it runs for every option.
const tokensOf = (name: string): string[] => {
  let tokens = tokenCache.get(name);
  if (tokens === undefined) {
    tokens = [];
    let word = '';
    for (const char of name.toLowerCase()) {
      if (char === '-' || char === '_' || char === '.') {
        if (word !== '') tokens.push(word);
        word = '';
      } else word += char;
    }
    if (word !== '') tokens.push(word);
    tokenCache.set(name, tokens);
  }
  return tokens;
};

// Two words match when equal, when one abbreviates the other (≥ 4 letters), or when one edit apart.
const wordsMatch = (a: string, b: string): boolean => {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter >= 4 && (a.startsWith(b) || b.startsWith(a))) return true;
  return shorter >= 4 && withinOneEdit(a, b);
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

const normalizedCache = new Map<string, string>();
const normalized = (name: string): string => {
  let text = normalizedCache.get(name);
  if (text === undefined) {
    text = normalizeName(name);
    normalizedCache.set(name, text);
  }
  return text;
};

const charHistogram = (text: string): Int16Array => {
  const counts = new Int16Array(128);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i) & 127;
    counts[code] = (counts[code] ?? 0) + 1;
  }
  return counts;
};

const scratch = new Int16Array(128);

// Half the L1 distance of the character counts: no edit changes it by more than 2, so it bounds OSA from below.
// Touches only the characters of the two names, so it stays linear in their length.
const histogramGap = (histogram: Int16Array, typed: string, other: string): number => {
  for (let i = 0; i < typed.length; i++) {
    const code = typed.charCodeAt(i) & 127;
    scratch[code] = histogram[code] ?? 0;
  }
  for (let i = 0; i < other.length; i++) {
    const code = other.charCodeAt(i) & 127;
    scratch[code] = (scratch[code] ?? 0) - 1;
  }
  let gap = 0;
  for (const text of [typed, other]) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i) & 127;
      gap += Math.abs(scratch[code] ?? 0);
      scratch[code] = 0;
    }
  }
  return gap / 2;
};

// editSimilarity when it reaches `floor`, else some value below it (cheaper: the distance stops early).
const editSimilarityAtLeast = (x: string, y: string, floor: number): number => {
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 1;
  const limit = Math.floor((1 - floor) * longest + 1e-9);
  return 1 - osaDistance(x, y, limit) / longest;
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
  const typed = normalizeName(unknown);
  const typedWords = tokensOf(unknown).join('');
  const typedCount = tokensOf(unknown).length;
  const histogram = charHistogram(typed);
  const scored: { name: string; other: string; score: number; edit: number | null }[] = [];
  for (const name of candidates) {
    const other = normalized(name);
    // Words run together (`--configformat`) are the same name; prefix-matched words must not outrank it.
    const joined = typedWords === tokensOf(name).join('');
    const words = tokensOf(name).length;
    // Dice can only reach the threshold when the word counts are close enough to match.
    const reachable = (2 * Math.min(typedCount, words)) / (typedCount + words) >= SUGGEST_THRESHOLD;
    const dice = joined ? 1 : reachable ? tokenDice(unknown, name) : 0;
    const demote = options.demote?.has(name) === true ? 0.01 : 0;
    if (dice >= SUGGEST_THRESHOLD) {
      scored.push({ name, other, score: dice - demote, edit: joined ? 2 : null });
      continue;
    }
    const longest = Math.max(typed.length, other.length);
    const limit = Math.floor((1 - SUGGEST_THRESHOLD) * longest + 1e-9);
    // Cheap lower bounds on the edit distance first: length difference, then half the character-count difference.
    if (Math.abs(typed.length - other.length) > limit || histogramGap(histogram, typed, other) > limit)
      continue;
    const edit = editSimilarityAtLeast(typed, other, SUGGEST_THRESHOLD);
    if (edit >= SUGGEST_THRESHOLD) scored.push({ name, other, score: edit - demote, edit });
  }
  const best = Math.max(0, ...scored.map((s) => s.score));
  const close = scored.filter((s) => s.score >= best - 0.15);
  for (const s of close) s.edit ??= editSimilarityAtLeast(typed, s.other, 0);
  close.sort((a, b) => b.score - a.score || (b.edit ?? 0) - (a.edit ?? 0) || a.name.length - b.name.length);
  return close.slice(0, options.limit ?? 3).map(({ name, score }) => ({ name, score }));
};
