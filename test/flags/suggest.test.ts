// Did-you-mean scoring: word order, typos, abbreviations and run-together words.
import { describe, expect, it } from 'vitest';
import { loadBundledSchema } from '../../src/flags/schema/bundled.ts';
import { editSimilarity, osaDistance, suggestNames, tokenDice } from '../../src/flags/checks/suggest.ts';

const sglang = loadBundledSchema('sglang').options.flatMap((o) => o.strings);
const first = (name: string): string | undefined => suggestNames(name, sglang)[0]?.name;

describe('osaDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(osaDistance('model', 'modle')).toBe(1);
    expect(osaDistance('kitten', 'sitting')).toBe(3);
    expect(osaDistance('', 'abc')).toBe(3);
    expect(osaDistance('ca', 'abc')).toBe(3);
  });

  it('stops early past a limit', () => {
    expect(osaDistance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
    expect(osaDistance('abcdef', 'abcdeg', 2)).toBe(1);
  });
});

describe('scores', () => {
  it('ranks reordered words by token-set Dice', () => {
    expect(tokenDice('--num-speculative-tokens', '--speculative-num-draft-tokens')).toBeCloseTo(6 / 7);
    expect(tokenDice('--num-speculative-tokens', '--speculative-num-steps')).toBeCloseTo(4 / 6);
    expect(editSimilarity('--mem_fraction_static', '--mem-fraction-static')).toBe(1);
  });
});

describe('suggestNames on SGLang v0.5.18', () => {
  it.each([
    ['--num-speculative-tokens', '--speculative-num-draft-tokens'],
    ['--num-draft-speculative-tokens', '--speculative-num-draft-tokens'],
    ['--cuda-graph-bs-max', '--cuda-graph-max-bs'],
    ['--static-mem-fraction', '--mem-fraction-static'],
    ['--modle-path', '--model-path'],
    ['--enable-torch-compil', '--enable-torch-compile'],
    ['--reasoning_parser', '--reasoning-parser'],
    ['--trustremotecode', '--trust-remote-code'],
  ])('%s → %s', (typed, expected) => {
    expect(first(typed)).toBe(expected);
  });

  it('offers nothing for a name unlike any option', () => {
    expect(suggestNames('--zzzz-qqqq', sglang)).toEqual([]);
  });

  it('offers at most three close candidates', () => {
    expect(suggestNames('--speculative-num', sglang).length).toBeLessThanOrEqual(3);
  });
});
