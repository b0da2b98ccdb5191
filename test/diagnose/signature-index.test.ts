// candidatesFor finds, in one pass, exactly the signatures whose needles a line contains.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needleRegExp } from '../../src/diagnose/needles.ts';
import { candidatesFor, SIGNATURES } from '../../src/diagnose/signature-index.ts';
import { FIXTURE_DIR } from './fixture-logs.ts';

// The plain definition: every signature with a needle in the line, in SIGNATURES order.
const expected = (text: string) =>
  SIGNATURES.filter((signature) => signature.needles.some((needle) => text.includes(needle)));

describe('candidatesFor', () => {
  it('agrees with a search for each needle on every fixture log line', () => {
    // Each distinct line once, and one assertion at the end (an expect per line cost more than the check).
    const lines = new Set<string>();
    for (const file of readdirSync(FIXTURE_DIR).filter((name) => name.endsWith('.log')))
      for (const line of readFileSync(join(FIXTURE_DIR, file), 'utf8').split('\n')) lines.add(line);
    const ids = (signatures: readonly { id: string }[]): string => signatures.map((s) => s.id).join(' ');
    // Most lines hold no needle at all: one search for any of them (a plain alternation of the escaped needles)
    // settles those, and the plain definition runs on the rest.
    const anyNeedle = needleRegExp([...new Set(SIGNATURES.flatMap((signature) => signature.needles))]);
    const reference = (line: string): string => (anyNeedle.test(line) ? ids(expected(line)) : '');
    const disagreeing = [...lines].filter((line) => ids(candidatesFor(line)) !== reference(line));
    expect(disagreeing.slice(0, 5)).toEqual([]);
    expect(lines.size).toBeGreaterThan(400);
  });

  it('finds needles that overlap, nest or start at the same place', () => {
    const needles = [...new Set(SIGNATURES.flatMap((signature) => signature.needles))];
    // Every needle, then every pair glued so that the second overlaps the end of the first by one character.
    for (const a of needles.slice(0, 40)) {
      expect(candidatesFor(`x ${a} y`)).toEqual(expected(`x ${a} y`));
      for (const b of needles.slice(0, 40)) {
        const text = a.endsWith(b[0] ?? '') ? a + b.slice(1) : a + b;
        expect(candidatesFor(text), text).toEqual(expected(text));
      }
    }
  });
});
