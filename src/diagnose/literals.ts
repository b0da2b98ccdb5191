// The literal text a regular expression cannot match without, read from its source: the cheap test in front of a
// set of rules (a line holding none of a rule's literals cannot match it, so the rule need not run). Derived rather
// than listed by hand, so a rule edited in an engine module keeps its prefilter right.
// Hand-written: no library reads required literals out of a JavaScript regular expression.

// Splits a pattern's source at its top-level `|` (outside groups and character classes).
export const topLevelAlternatives = (source: string): string[] => {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
};

// The width of the escape at `at` and the character it stands for when that is literal punctuation; letters and
// digits are classes, assertions, back-references or code points (`\u0041`, `\x41`, `\p{L}`): not literal here.
const escapeAt = (source: string, at: number): { width: number; literal: string | null } => {
  const next = source[at + 1] ?? '';
  if (/[^A-Za-z0-9]/.test(next)) return { width: 2, literal: next };
  const long =
    /^\\(?:u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|[pP]\{[^}]*\}|k<[^>]*>|\d+)/.exec(
      source.slice(at, at + 16),
    );
  return { width: long === null ? 2 : long[0].length, literal: null };
};

// The index after a group or class starting at `open` (`(` or `[`), honouring escapes and nesting.
const skipBracket = (source: string, open: number): number => {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i++;
    else if (inClass) {
      if (char === ']') {
        inClass = false;
        if (depth === 0) return i + 1;
      }
    } else if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i + 1;
  }
  return source.length;
};

// The quantifier at `at`: its length and whether it allows zero repetitions.
const quantifierAt = (source: string, at: number): { length: number; optional: boolean } => {
  const char = source[at];
  let length = 0;
  let optional = false;
  if (char === '?' || char === '*') [length, optional] = [1, true];
  else if (char === '+') length = 1;
  else if (char === '{') {
    const match = /^\{(\d+)(?:,\d*)?\}/.exec(source.slice(at));
    if (match !== null) [length, optional] = [match[0].length, match[1] === '0'];
  }
  if (length > 0 && source[at + length] === '?') length++; // lazy
  return { length, optional };
};

// Alternatives of a group body; one entry per alternative, each the set of literals one of which it needs.
const groupSets = (body: string): string[] | null => {
  const set: string[] = [];
  for (const alternative of topLevelAlternatives(body)) {
    const best = bestSet(sequenceSets(alternative));
    if (best === null) return null;
    set.push(...best);
  }
  return set;
};

// Every literal set one alternative (a sequence) needs: runs of literal characters, and groups that must match.
const sequenceSets = (source: string): string[][] => {
  const sets: string[][] = [];
  let run = '';
  const endRun = (): void => {
    if (run !== '') sets.push([run]);
    run = '';
  };
  for (let i = 0; i < source.length;) {
    const char = source[i] ?? '';
    if (char === '(' || char === '[') {
      const end = skipBracket(source, i);
      const quantifier = quantifierAt(source, end);
      endRun();
      if (char === '(' && !quantifier.optional) {
        const head = /^\(\?(?:[:]|<(?![=!])\w+>)?/.exec(source.slice(i))?.[0] ?? '(';
        // Lookarounds (`(?=`, `(?!`, `(?<=`, `(?<!`) consume nothing: they are skipped, not required.
        const lookaround = /^\(\?<?[=!]/.test(source.slice(i));
        const inner = lookaround ? null : groupSets(source.slice(i + head.length, end - 1));
        if (inner !== null && inner.length > 0) sets.push(inner);
      }
      i = end + quantifier.length;
      continue;
    }
    let literal: string | null = null;
    let width = 1;
    if (char === '\\') ({ width, literal } = escapeAt(source, i));
    else if (!'.^$'.includes(char)) literal = char;
    const quantifier = quantifierAt(source, i + width);
    if (literal === null || quantifier.optional) endRun();
    else {
      run += literal;
      if (quantifier.length > 0) endRun(); // repeated: what follows is not adjacent
    }
    i += width + quantifier.length;
  }
  endRun();
  return sets;
};

// The most selective set: the one whose shortest literal is longest.
const bestSet = (sets: string[][]): string[] | null => {
  let best: string[] | null = null;
  let score = 0;
  for (const set of sets) {
    const shortest = Math.min(...set.map((literal) => literal.length));
    if (shortest > score) [best, score] = [set, shortest];
  }
  return best;
};

// Literals of which every match of `pattern` contains one (one or more per top-level alternative); null when some
// alternative needs no literal (or the pattern ignores case), so the pattern must always run.
export const requiredLiterals = (pattern: RegExp): string[] | null => {
  // Case folding changes what a literal is; `v` mode nests character classes.
  if (pattern.flags.includes('i') || pattern.flags.includes('v')) return null;
  const literals = groupSets(pattern.source);
  return literals === null ? null : [...new Set(literals)];
};
