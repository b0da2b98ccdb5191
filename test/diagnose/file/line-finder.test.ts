import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALWAYS_NEEDLES,
  ERROR_NEEDLES,
  PHASE_NEEDLES,
  minimizeNeedles,
  needleRegExp,
} from '../../../src/diagnose/needles.ts';
import { createLineFinder, type LineFinder } from '../../../src/diagnose/file/line-finder.ts';
import { FIXTURE_DIR } from '../fixture-logs.ts';

const NEEDLES = minimizeNeedles([...ERROR_NEEDLES, ...ALWAYS_NEEDLES, ...PHASE_NEEDLES]);
const ANY_NEEDLE = needleRegExp(NEEDLES);

// The line starts a plain reading of the text gives: lines holding any literal (one without newline, non-empty), or
// the lines `holds` accepts.
const expectedStarts = (
  text: string,
  literals: readonly string[],
  holds: (line: string) => boolean = (line) =>
    literals.some((literal) => !literal.includes('\n') && line.includes(literal)),
): number[] => {
  const starts: number[] = [];
  const total = Buffer.byteLength(text);
  let at = 0;
  for (const line of text.split('\n')) {
    const bytes = Buffer.byteLength(line);
    if (at < total && holds(line)) starts.push(at);
    at += bytes + 1;
  }
  return starts;
};

const search = (
  finder: LineFinder,
  text: string,
  literals: readonly string[],
  offset = 0,
): { starts: number[]; newlines: number } => {
  const [buffer] = finder.buffers;
  buffer.fill(0x0a); // stale bytes after the region must not count
  const length = buffer.write(text, offset);
  finder.setLiterals(literals);
  return {
    starts: finder.lineStarts(buffer, offset, offset + length).map((start) => start - offset),
    newlines: finder.countNewlines(buffer, offset, offset + length),
  };
};

// A small deterministic generator, so a failure can be replayed.
const random = (seed: number): (() => number) => {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
};

describe('createLineFinder', () => {
  // Room for the largest fixture log (about 1.2 MB).
  const finder = createLineFinder({ bufferBytes: 2 << 20 });

  it('finds the same lines as a plain search in every fixture log', () => {
    let found = 0;
    for (const file of readdirSync(FIXTURE_DIR).filter((name) => name.endsWith('.log'))) {
      const text = readFileSync(join(FIXTURE_DIR, file), 'utf8');
      // One regular expression of the needles: V8's own search, independent of the automaton, and faster than one
      // `includes` per needle on 350,000 lines.
      const expected = expectedStarts(text, NEEDLES, (line) => ANY_NEEDLE.test(line));
      const newlines = text.split('\n').length - 1;
      expect(search(finder, text, NEEDLES), file).toEqual({ starts: expected, newlines });
      found += expected.length;
    }
    expect(found).toBeGreaterThan(100);
  });

  it('agrees with a plain search on random text, literals and offsets', () => {
    const next = random(7);
    const alphabet = 'ab\nKVxrrorE é';
    const pick = (length: number): string =>
      Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let round = 0; round < 2000; round++) {
      const text = pick(Math.floor(next() * 400));
      const literals = Array.from({ length: 1 + Math.floor(next() * 14) }, () =>
        pick(1 + Math.floor(next() * 5)),
      );
      const offset = Math.floor(next() * 40);
      const expected = {
        starts: expectedStarts(text, literals.includes('') ? [''] : literals),
        newlines: text.split('\n').length - 1,
      };
      expect(search(finder, text, literals, offset), JSON.stringify({ text, literals })).toEqual(expected);
    }
  });

  it('reports one start per line, however many literals the line holds', () => {
    const text = 'NCCL error: CUDA failed\nfine\nError Error Error\n';
    expect(search(finder, text, NEEDLES).starts).toEqual([0, 29]);
  });

  it('finds long and short literals at the very end of the region', () => {
    const text = 'x\nends with KV';
    expect(search(finder, text, ['KV']).starts).toEqual([2]);
    expect(search(finder, text, ['with KV']).starts).toEqual([2]);
    expect(search(finder, text, ['with KV!']).starts).toEqual([]);
  });

  it('matches every line for an empty literal and never for one holding a newline', () => {
    expect(search(finder, 'a\nb\nc', ['']).starts).toEqual([0, 2, 4]);
    expect(search(finder, 'a\nb\nc', ['a\nb']).starts).toEqual([]);
  });

  it('finds every line of a region where each line matches', () => {
    const text = 'ERROR\n'.repeat(20_000);
    const { starts } = search(finder, text, ['ERROR']);
    expect(starts.length).toBe(20_000);
    expect(starts[19_999]).toBe(6 * 19_999);
  });

  it('searches for hundreds of literals', () => {
    const literals = Array.from({ length: 300 }, (_, i) => `needle-${i}-`);
    const text = 'a needle-299- here\nnone\nneedle-7-\n';
    expect(search(finder, text, literals).starts).toEqual([0, 24]);
  });
});
