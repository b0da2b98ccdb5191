// The string matcher finds every occurrence of every literal, as `includes` and `indexOf` would, in one pass.
import { describe, expect, it } from 'vitest';
import { createLiteralMatcher } from '../../src/diagnose/literal-automaton.ts';
import { ALWAYS_NEEDLES, ERROR_NEEDLES, PHASE_NEEDLES, minimizeNeedles } from '../../src/diagnose/needles.ts';
import { loadManifest, readLines } from './fixture-logs.ts';

// Every occurrence of each literal, by a plain reading: [index, position where it ends] pairs, in text order.
const occurrences = (text: string, literals: readonly string[]): string[] => {
  const found: [number, number][] = [];
  literals.forEach((literal, index) => {
    for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1))
      found.push([index, at + literal.length]);
  });
  return found
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .map(([index, end]) => `${String(index)}@${String(end)}`);
};

const matched = (text: string, literals: readonly string[]): string[] => {
  const found: [number, number][] = [];
  createLiteralMatcher(literals).forEach(text, (index, end) => found.push([index, end]));
  return found
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .map(([index, end]) => `${String(index)}@${String(end)}`);
};

describe('createLiteralMatcher', () => {
  it('finds literals inside, overlapping and repeating one another', () => {
    const literals = ['he', 'she', 'his', 'hers', 'e'];
    for (const text of ['ushers', 'shehershis', 'eeee', 'h', '', 'xyz'])
      expect(matched(text, literals), text).toEqual(occurrences(text, literals));
    expect(createLiteralMatcher(literals).test('xhix')).toBe(false);
    expect(createLiteralMatcher(literals).test('xhisx')).toBe(true);
  });

  it('compares UTF-16 code units: non-ASCII literals and text, astral characters', () => {
    const literals = ['已杀死', 'Killed', '💥 crash', 'é'];
    for (const text of ['进程 已杀死', 'café 💥 crash 💥', 'Kill ed', '💥💥 crash'])
      expect(matched(text, literals), text).toEqual(occurrences(text, literals));
  });

  it("agrees with `includes` on every corpus line, for the diagnoser's needles", () => {
    const needles = minimizeNeedles([...ERROR_NEEDLES, ...ALWAYS_NEEDLES, ...PHASE_NEEDLES]);
    const matcher = createLiteralMatcher(needles);
    let lines = 0;
    const disagreeing: string[] = [];
    // Every third log keeps this under a second; the signature index's test reads all of them through the matcher.
    for (const entry of loadManifest().filter((_, i) => i % 3 === 0))
      for (const { text } of readLines(entry.file)) {
        lines++;
        if (matcher.test(text) !== needles.some((needle) => text.includes(needle))) disagreeing.push(text);
      }
    expect(lines).toBeGreaterThan(50_000);
    expect(disagreeing).toEqual([]);
  });
});
