import { describe, expect, it } from 'vitest';
import { percentiles, quantile } from '../../src/bench/stats.ts';
import { compareBlocks } from '../../src/bench/compare.ts';
import type { RequestResult } from '../../src/bench/request.ts';

describe('percentiles', () => {
  it('interpolates between closest ranks, as numpy does', () => {
    // numpy.percentile(range(1, 101), [50, 90, 99]) = [50.5, 90.1, 99.01]
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    const p = percentiles(values);
    expect(p.p50).toBeCloseTo(50.5, 9);
    expect(p.p90).toBeCloseTo(90.1, 9);
    expect(p.p99).toBeCloseTo(99.01, 9);
    expect(p.max).toBe(100);
  });

  it('sorts numerically, not as strings', () => {
    expect(percentiles([9, 10, 100, 2])).toMatchObject({ p50: 9.5, max: 100 });
  });

  it('gives the one value for one sample and null for none', () => {
    expect(percentiles([7])).toEqual({ p50: 7, p90: 7, p99: 7, max: 7 });
    expect(percentiles([])).toEqual({ p50: null, p90: null, p99: null, max: null });
    expect(quantile(Float64Array.from([1, 2]), 0.25)).toBe(1.25);
  });
});

const result = (e2eMs: number, tokens: number): RequestResult => ({
  error: null,
  sentAt: 0,
  ttftMs: 0,
  e2eMs,
  gaps: [],
  textChunks: tokens,
  promptTokens: 10,
  completionTokens: tokens,
  finishReason: 'length',
  text: '',
});

describe('compareBlocks', () => {
  it('gives the ratio of throughputs and TPOTs, with an interval that holds it', () => {
    const pairs = [100, 104, 96, 101].map((ms) => ({
      a: { results: [result(ms, 31)], wallMs: ms },
      b: { results: [result(ms * 3, 31)], wallMs: ms * 3 },
    }));
    const figures = compareBlocks(pairs);
    expect(figures.speedup).toBeCloseTo(3, 6);
    expect(figures.tpot.speedup).toBeCloseTo(3, 6);
    expect(figures.ci95[0]).toBeLessThanOrEqual(3);
    expect(figures.ci95[1]).toBeGreaterThanOrEqual(3);
    expect(figures.blocks).toBe(4);
  });

  it('widens the interval when blocks disagree', () => {
    const pairs = [1, 2, 3, 4].map((ratio) => ({
      a: { results: [result(100, 30)], wallMs: 100 },
      b: { results: [result(100 * ratio, 30)], wallMs: 100 * ratio },
    }));
    const figures = compareBlocks(pairs);
    expect(figures.ci95[1] - figures.ci95[0]).toBeGreaterThan(1);
  });
});
